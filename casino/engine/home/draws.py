"""The draw: how many cards each variant lets a player discard, and the stock with its reshuffle rule."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from casino.engine.cards import Card, Rank
from casino.engine.home import errors as e
from casino.engine.home.errors import IllegalAction
from casino.engine.home.rules import FIVE_CARD_DRAW, FREAK_OF_NATURE, PREGNANT_THREES, DrawMode, HomeRules

# Three Legged Race: "every player must discard and replace exactly 3 cards" (DESIGN 7).
THREE_LEGGED_RACE_DISCARD = 3


def draw_count(rules: HomeRules) -> int:
    """How many draws a hand has: Pregnant Threes announces 1-3, every other home game has one."""
    return rules.draws if rules.variant == PREGNANT_THREES else 1


def mandatory_discard(rules: HomeRules) -> int:
    """How many cards every player must exchange at each draw (0 when the draw is optional)."""
    if rules.variant == PREGNANT_THREES:
        return rules.cards_per_draw if rules.draw is DrawMode.MANDATORY else 0
    return THREE_LEGGED_RACE_DISCARD if rules.variant not in (FIVE_CARD_DRAW, FREAK_OF_NATURE) else 0


def verify_discard(rules: HomeRules, seat: int, held: Sequence[Card], discards: Sequence[Card]) -> None:
    """Raise IllegalAction unless `discards` are distinct cards the seat holds, as many as the variant allows."""
    seen: set[Card] = set()
    for card in discards:
        if card not in held or card in seen:
            raise IllegalAction(f"seat {seat} does not hold {card} to discard", code=e.CARD_NOT_HELD,
                                rule="a player discards only cards from their own hand, each once", token=str(card))
        seen.add(card)
    count = len(discards)
    if rules.variant == PREGNANT_THREES:
        wanted = rules.cards_per_draw
        if rules.draw is DrawMode.MANDATORY and count != wanted:
            raise IllegalAction(
                f"seat {seat} discards {count}: this draw is mandatory, exactly {wanted}", code=e.WRONG_DISCARD_COUNT,
                rule=f"mandatory draw: each player must exchange exactly {wanted} cards, even breaking up wild cards",
            )
        if count > wanted:
            raise IllegalAction(f"seat {seat} discards {count}: at most {wanted} at this draw",
                                code=e.WRONG_DISCARD_COUNT, rule=f"optional draw: 0 up to {wanted} cards")
        return
    if rules.variant not in (FIVE_CARD_DRAW, FREAK_OF_NATURE):
        if count != THREE_LEGGED_RACE_DISCARD:
            raise IllegalAction(
                f"seat {seat} discards {count}: Three Legged Race needs exactly three", code=e.WRONG_DISCARD_COUNT,
                rule="Three Legged Race: every player still in the hand shall discard exactly three cards, "
                "no more and no fewer; no player may stand pat",
            )
        return
    if count <= rules.max_discard:
        return
    keeps_ace = any(card.rank is Rank.ACE for card in held if card not in seen)
    if count > rules.max_discard_with_ace or not keeps_ace:
        raise IllegalAction(
            f"seat {seat} discards {count}: at most {rules.max_discard} "
            f"({rules.max_discard_with_ace} when keeping an ace)", code=e.WRONG_DISCARD_COUNT,
            rule=f"five-card draw: at most {rules.max_discard} cards, {rules.max_discard_with_ace} when keeping an ace",
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
