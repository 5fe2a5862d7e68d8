"""The Triple Draw table screen: the round read model plus what only the tablet needs (picker, entry modes)."""

from __future__ import annotations

from dataclasses import dataclass

from audit.models import AuditEvent
from casino.engine.cards import Rank, Suit
from paytables.models import Paytable
from tables.models import CardSource, Round, Table
from tables.models.triple_draw import MAX_CIRCLES
from tables.selectors.rounds import RoundView, SeatView, table_view

# Picker order: suits as rows (spades first, as most dealers sort), ranks high to low.
PICKER_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
PICKER_RANKS = tuple(sorted(Rank, reverse=True))
PICKER = [[f"{rank.code}{suit.value}" for rank in PICKER_RANKS] for suit in PICKER_SUITS]


@dataclass
class TripleDrawScreen:
    """One table's screen; everything about the round comes from `view` (the API's read model)."""

    view: RoundView

    @property
    def table(self) -> Table:
        return self.view.table

    @property
    def round(self) -> Round | None:
        return self.view.round

    @property
    def phase(self) -> str:
        return self.view.phase

    @property
    def version(self) -> str:
        return self.view.token

    @property
    def seats(self) -> list[SeatView]:
        return self.view.seats

    @property
    def betting_seats(self) -> list[SeatView]:
        return self.view.betting_seats

    @property
    def rows(self) -> list[list[str]]:
        return self.view.padded_rows

    @property
    def used_cards(self) -> set[str]:
        return set(self.view.used_cards)

    @property
    def paytable(self) -> Paytable | None:
        return self.view.paytable

    @property
    def void_request(self) -> AuditEvent | None:
        return self.view.void_request

    @property
    def has_results(self) -> bool:
        return self.view.has_results

    @property
    def table_net_cents(self) -> int:
        return self.view.table_net_cents

    @property
    def total_paid_cents(self) -> int:
        return self.view.total_paid_cents

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
    return TripleDrawScreen(table_view(table))
