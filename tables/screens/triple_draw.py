"""The Triple Draw table screen: the round read model plus what only the tablet needs (picker, entry modes)."""

from __future__ import annotations

from dataclasses import fields

from casino.engine.cards import Rank, Suit
from casino.engine.triple_draw import MAX_CIRCLES
from tables.models import CardSource, Table
from tables.selectors.rounds import RoundView, table_view

# Picker order: suits as rows (spades first, as most dealers sort), ranks high to low.
PICKER_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
PICKER_RANKS = tuple(sorted(Rank, reverse=True))
PICKER = [[f"{rank.code}{suit.value}" for rank in PICKER_RANKS] for suit in PICKER_SUITS]


class TripleDrawScreen(RoundView):
    """One table's screen: the round read model (the API's) plus what only the tablet needs."""

    @property
    def is_manual(self) -> bool:
        return self.table.card_source == CardSource.MANUAL

    @property
    def is_rng(self) -> bool:
        return self.table.card_source == CardSource.RNG

    @property
    def needs_held_entry(self) -> bool:
        """A manual seat whose deal was never entered records its hold by card entry instead of by tapping."""
        return any(not seat.dealt and seat.held is None for seat in self.betting_seats)

    @property
    def picker(self) -> list[list[str]]:
        return PICKER

    @property
    def circle_choices(self) -> range:
        return range(1, MAX_CIRCLES + 1)


def screen_for(table: Table) -> TripleDrawScreen:
    """Everything one table screen shows, read in a handful of queries."""
    view = table_view(table)
    return TripleDrawScreen(**{part.name: getattr(view, part.name) for part in fields(view)})
