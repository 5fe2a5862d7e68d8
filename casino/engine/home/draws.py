"""The draw: how many cards each variant lets a player discard, and the stock with its reshuffle rule."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from casino.engine.cards import Card, Rank
from casino.engine.home import errors as e
from casino.engine.home.errors import IllegalAction
from casino.engine.rules.model import Rules
from casino.engine.variants import PREGNANT_THREES, THREE_LEGGED_RACE


def verify_discard(rules: Rules, seat: int, held: Sequence[Card], discards: Sequence[Card]) -> None:
    """Raise IllegalAction unless `discards` are distinct cards the seat holds, as many as the variant allows."""
    seen: set[Card] = set()
    for card in discards:
        if card not in held or card in seen:
            raise IllegalAction(f"seat {seat} does not hold {card} to discard", code=e.CARD_NOT_HELD,
                                rule="a player discards only cards from their own hand, each once", token=str(card))
        seen.add(card)
    keeps_ace = any(card.rank is Rank.ACE for card in held if card not in seen)
    verify_discard_count(rules, seat, len(discards), keeps_ace=keeps_ace)


def verify_discard_count(rules: Rules, seat: int, count: int, *, keeps_ace: bool) -> None:
    """Raise IllegalAction unless the variant lets a player exchange `count` cards (keeping an ace or not)."""
    rule = rules.discards
    if rule.allows(count, keeps_ace=keeps_ace):
        return
    if rules.variant.code == PREGNANT_THREES:
        wanted = rule.maximum
        if rule.mandatory:
            raise IllegalAction(
                f"seat {seat} discards {count}: this draw is mandatory, exactly {wanted}", code=e.WRONG_DISCARD_COUNT,
                rule=f"mandatory draw: each player must exchange exactly {wanted} cards, even breaking up wild cards",
            )
        raise IllegalAction(f"seat {seat} discards {count}: at most {wanted} at this draw",
                            code=e.WRONG_DISCARD_COUNT, rule=f"optional draw: 0 up to {wanted} cards")
    if rules.variant.code == THREE_LEGGED_RACE:
        raise IllegalAction(
            f"seat {seat} discards {count}: Three Legged Race needs exactly three", code=e.WRONG_DISCARD_COUNT,
            rule="Three Legged Race: every player still in the hand shall discard exactly three cards, "
            "no more and no fewer; no player may stand pat",
        )
    raise IllegalAction(
        f"seat {seat} discards {count}: at most {rule.maximum} ({rule.maximum_keeping_ace} when keeping an ace)",
        code=e.WRONG_DISCARD_COUNT,
        rule=f"five-card draw: at most {rule.maximum} cards, {rule.maximum_keeping_ace} when keeping an ace",
    )


@dataclass(frozen=True)
class Replacement:
    """A planned draw: the new cards, the stocks that reshuffles put in place, and the stock and muck after it."""

    cards: tuple[Card, ...]
    reshuffled: tuple[tuple[Card, ...], ...]
    stock_after: tuple[Card, ...]
    muck_after: tuple[Card, ...]


class Stock:
    """The undealt cards, the discards since the last reshuffle, and the recorded reshuffles still to come.

    "If the stock runs out during a draw, the discards so far, except the drawing player's own, are shuffled
    into a new stock" (DESIGN 7). The drawing player's own are the cards they discard at this draw; their
    discards of an earlier draw are already in the muck. Folded and killed hands are not discards and stay out.
    When even the reshuffled discards cannot cover a draw, that many cards cannot be drawn (the player may
    draw fewer where the draw is optional); hands with a mandatory draw are refused at the deal if the
    first player to draw could not be served.
    """

    def __init__(self, cards: Sequence[Card], reshuffles: Sequence[Sequence[Card]] = ()) -> None:
        self.cards: list[Card] = list(cards)
        self.muck: list[Card] = []
        self.reshuffles: list[tuple[Card, ...]] = [tuple(stock) for stock in reshuffles]

    def deal_one(self) -> Card:
        if not self.cards:
            raise IllegalAction("the deck ran out during the deal", code=e.BAD_DECK, rule="a full deck is dealt")
        return self.cards.pop(0)

    def plan(self, count: int) -> Replacement:
        """Work out the next `count` replacements without taking them; raise IllegalAction if they cannot come."""
        stock, muck, pending = list(self.cards), list(self.muck), list(self.reshuffles)
        dealt: list[Card] = []
        used: list[tuple[Card, ...]] = []
        while len(dealt) < count:
            if not stock:
                if not muck:
                    raise IllegalAction("the stock and the discards are exhausted", code=e.STOCK_EXHAUSTED,
                                        rule="replacements come from the stock, then from the reshuffled discards")
                if not pending:
                    raise IllegalAction(
                        "the stock ran out and the record gives no reshuffle", code=e.BAD_RESHUFFLE,
                        rule="`reshuffles` gives the new stock each time the stock runs out",
                    )
                new_stock = pending.pop(0)
                if len(set(new_stock)) != len(new_stock) or set(new_stock) != set(muck) or len(new_stock) != len(muck):
                    raise IllegalAction(
                        f"the reshuffled stock {' '.join(map(str, new_stock))} is not the discards so far "
                        f"({' '.join(map(str, sorted(muck, key=_index)))})", code=e.BAD_RESHUFFLE,
                        rule="the discards so far, except the drawing player's own, are shuffled into a new stock",
                    )
                stock, muck = list(new_stock), []
                used.append(new_stock)
            dealt.append(stock.pop(0))
        return Replacement(tuple(dealt), tuple(used), tuple(stock), tuple(muck))

    def take(self, replacement: Replacement, discards: Sequence[Card]) -> None:
        """Commit a planned replacement; the drawing player's discards then join the muck."""
        del self.reshuffles[: len(replacement.reshuffled)]
        self.cards = list(replacement.stock_after)
        self.muck = [*replacement.muck_after, *discards]


def _index(card: Card) -> int:
    return card.index
