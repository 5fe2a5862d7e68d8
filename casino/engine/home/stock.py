"""The stock as a live hand knows it: how many cards are left, which cards may come next, and the muck.

"If the stock runs out during a draw, the discards so far, except the drawing player's own, are shuffled into a new
stock" (DESIGN 7). The drawing player's discards join the muck once their replacements are dealt; their discards of
an earlier draw are already in it. Folded and killed hands are not discards and stay out.
"""

from __future__ import annotations

from collections.abc import Sequence

from casino.engine.cards import ALL_CARDS, Card, card_symbols
from casino.engine.home import errors as e
from casino.engine.home.errors import IllegalAction

DECK_SIZE = len(ALL_CARDS)


class LiveStock:
    """The undealt cards: until the first reshuffle every card not yet seen, then the reshuffled discards."""

    def __init__(self) -> None:
        self.candidates: set[Card] = set(ALL_CARDS)
        self.seen: set[Card] = set()  # every card dealt in this hand
        self.muck: list[Card] = []
        self.reshuffled = False

    @property
    def count(self) -> int:
        return len(self.candidates)

    def verify_serves(self, count: int) -> None:
        """A draw of `count` cards can be served from the stock and, once it runs out, the reshuffled muck."""
        if count > self.count + len(self.muck):
            raise exhausted()

    def verify_card(self, card: Card) -> None:
        if card in self.candidates:
            return
        if card in self.seen:
            raise IllegalAction(f"{card_symbols(card)} was already dealt in this hand", code=e.CARD_ALREADY_SEEN,
                                rule="a deck holds each card once", token=str(card))
        raise IllegalAction(f"{card_symbols(card)} is not in the reshuffled stock", code=e.CARD_NOT_IN_STOCK,
                            rule="after a reshuffle the cards come from the discards shuffled into the new stock",
                            token=str(card))

    def take(self, card: Card) -> None:
        self.candidates.remove(card)
        self.seen.add(card)

    def discard(self, cards: Sequence[Card]) -> None:
        self.muck.extend(cards)

    def verify_reshuffle(self, stock: Sequence[Card]) -> None:
        verify_reshuffled(stock, self.muck)

    def reshuffle(self, stock: Sequence[Card]) -> None:
        self.candidates = set(stock)
        self.muck = []
        self.reshuffled = True


class CountedStock:
    """The stock of a manual hand: physical cards the system never sees, so it only counts them. When a draw runs
    the stock out, the dealer shuffles the discards so far (except the drawer's own) into a new one."""

    def __init__(self, players: int, hand_size: int) -> None:
        self.count = DECK_SIZE - players * hand_size
        self.muck_count = 0

    def verify_serves(self, count: int) -> None:
        if count > self.count + self.muck_count:
            raise exhausted()

    def take(self, count: int) -> bool:
        """Deal `count` replacements; True when the discards had to be reshuffled to serve them."""
        if count <= self.count:
            self.count -= count
            return False
        self.count = self.count + self.muck_count - count
        self.muck_count = 0
        return True

    def discard(self, count: int) -> None:
        self.muck_count += count


def verify_reshuffled(stock: Sequence[Card], muck: Sequence[Card]) -> None:
    """A new stock is exactly the muck, each card once (its order is the shuffle's)."""
    if len(set(stock)) != len(stock) or set(stock) != set(muck) or len(stock) != len(muck):
        raise IllegalAction(
            f"the reshuffled stock {' '.join(map(str, stock))} is not the discards so far "
            f"({' '.join(map(str, sorted(muck, key=_index)))})", code=e.BAD_RESHUFFLE,
            rule="the discards so far, except the drawing player's own, are shuffled into a new stock",
        )


def exhausted() -> IllegalAction:
    return IllegalAction("the stock and the discards are exhausted", code=e.STOCK_EXHAUSTED,
                         rule="replacements come from the stock, then from the reshuffled discards")


def _index(card: Card) -> int:
    return card.index
