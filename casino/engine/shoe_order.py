"""The order a card-reading shoe deals a Triple Draw round in, and whether a report only repeats its last cards."""

from __future__ import annotations

from collections.abc import Sequence

from casino.engine.cards import Card
from casino.engine.triple_draw import CARDS_PER_HAND


def shoe_order(dealt: Sequence[Sequence[Card]], rows: Sequence[Sequence[Card]]) -> tuple[Card, ...]:
    """The round's known cards as the shoe dealt them: one at a time to each seat in turn (`dealt` in seat order),
    five times round, then row 1, 2 and 3 card by card."""
    deal = [hand[position] for position in range(CARDS_PER_HAND) for hand in dealt if position < len(hand)]
    return (*deal, *(card for row in rows for card in row))


def repeats_last(sent: Sequence[Card], order: Sequence[Card]) -> bool:
    """True when `sent` is exactly the last cards in `order`, in order. A card is dealt once per round, so cards
    already recorded can come again only as a retry (or a double read) of the report that recorded them."""
    return 0 < len(sent) <= len(order) and tuple(order[len(order) - len(sent):]) == tuple(sent)
