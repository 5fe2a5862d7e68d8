"""The order a card-reading shoe deals a Triple Draw round in, whether a report only repeats its last cards, and
when a report may be a late network retry of the shoe's last accepted one."""

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


# How long after a shoe's report was accepted a network retry of it may still arrive (a client's timeout and a retry or
# two). Later than this a device must name the round (or hand) its retry is for.
RETRY_WINDOW_SECONDS = 30


def may_be_late_retry(sent: Sequence[Card], last_report: Sequence[Card], seconds_since: float) -> bool:
    """True when `sent`, reaching a round (or hand) other than the one the shoe's last accepted report went to, could
    be that report sent again: its last cards, in order, within RETRY_WINDOW_SECONDS of its acceptance. A new round is
    dealt from a fresh shuffle, so the same card can also come first in it: such a report is ambiguous."""
    return 0 <= seconds_since < RETRY_WINDOW_SECONDS and repeats_last(sent, last_report)
