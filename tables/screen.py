"""What the dealer tablet shows: the tables a user may open and one table's round shaped for the screen (reads only)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet

from audit.models import AuditEvent
from audit.roles import COMPLIANCE, DEALER, FLOOR, has_role
from casino.engine.cards import Rank, Suit
from paytables.models import Paytable
from tables.models import MAX_CIRCLES, MAX_SEATS, ROW_COUNT, CardSource, Round, Table

# Picker order: suits as rows (spades first, as most dealers sort), ranks high to low.
PICKER_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
PICKER_RANKS = tuple(sorted(Rank, reverse=True))


def tables_for(user: Any) -> QuerySet[Table]:
    """Tables the user may open on a tablet: a dealer sees the tables assigned to them; floor and compliance see all."""
    if has_role(user, FLOOR, COMPLIANCE):
        return Table.objects.all()
    if has_role(user, DEALER):
        return Table.objects.filter(dealers=user)
    return Table.objects.none()


def screen_version(table: Table, round_: Round | None) -> str:
    """The screen's change token: the table's version and the shown round's id and version.

    Each version is raised under its row's lock by every write (tables/versions.py), so it grows in commit order:
    a poll holding an older token always sees a difference. (The newest audit event id did not: ids are taken
    before commit, so a lower id committing after a higher one went unnoticed until the next change.)
    `table` must have been read before the rows the screen shows, so the token is never newer than the screen.
    """
    if round_ is None:
        return f"{table.version}"
    return f"{table.version}.{round_.pk}.{round_.version}"


def table_version(table: Table) -> str:
    """The change token of the screen `table` would show now (one or two index lookups)."""
    shown = table.rounds.exclude(phase__in=Round.FINISHED).only("pk", "version").first()
    if shown is None:
        shown = table.rounds.only("pk", "version").first()
    return screen_version(table, shown)


def current_round(table: Table) -> Round | None:
    """The round in play, else the last finished one (its results stay up until the next round starts)."""
    return table.rounds.exclude(phase__in=Round.FINISHED).first() or table.rounds.first()


@dataclass
class OutcomeView:
    circle: int
    cards: list[str]
    description: str
    line_hand: str
    line: Any  # the PaytableLine the hand made, None for a loss
    return_cents: int
    paid_cents: int


@dataclass
class SeatView:
    number: int
    occupied: bool
    player_name: str
    amount_cents: int | None = None  # the equal bet per circle
    circles: int = 0
    dealt: list[str] = field(default_factory=list)
    held: list[str] | None = None
    outcomes: list[OutcomeView] = field(default_factory=list)

    @property
    def key(self) -> str:
        """Where this seat's errors are filed (see views.Action.where)."""
        return f"seat-{self.number}"

    @property
    def deal_field(self) -> str:
        return f"seat{self.number}"

    @property
    def staked_cents(self) -> int:
        return (self.amount_cents or 0) * self.circles

    @property
    def paid_cents(self) -> int:
        return sum(outcome.paid_cents for outcome in self.outcomes)

    @property
    def net_cents(self) -> int:
        return self.paid_cents - self.staked_cents

    @property
    def has_bet(self) -> bool:
        return self.circles > 0


@dataclass
class Screen:
    table: Table
    round: Round | None
    seats: list[SeatView]
    rows: list[list[str]]  # three rows; [] for a row not recorded yet
    used_cards: set[str]
    version: str
    paytable: Paytable | None
    void_request: AuditEvent | None = None

    @property
    def phase(self) -> str:
        return self.round.phase if self.round is not None else ""

    @property
    def is_manual(self) -> bool:
        return self.table.card_source == CardSource.MANUAL

    @property
    def is_rng(self) -> bool:
        return self.table.card_source == CardSource.RNG

    @property
    def betting_seats(self) -> list[SeatView]:
        return [seat for seat in self.seats if seat.has_bet]

    @property
    def needs_held_entry(self) -> bool:
        """A manual seat whose deal was never entered records its hold by card entry instead of by tapping."""
        return any(not seat.dealt and seat.held is None for seat in self.betting_seats)

    @property
    def has_results(self) -> bool:
        return any(seat.outcomes for seat in self.seats)

    @property
    def table_net_cents(self) -> int:
        """The house's result for the round: stakes taken minus amounts paid."""
        return -sum(seat.net_cents for seat in self.betting_seats)

    @property
    def total_paid_cents(self) -> int:
        return sum(seat.paid_cents for seat in self.betting_seats)

    @property
    def picker(self) -> list[list[str]]:
        return [[f"{rank.code}{suit.value}" for rank in PICKER_RANKS] for suit in PICKER_SUITS]

    @property
    def circle_choices(self) -> range:
        return range(1, MAX_CIRCLES + 1)


VOID_REQUEST_ACTION = "round_void_request"


def screen_for(table: Table) -> Screen:
    """Everything one table screen shows, read in a handful of queries."""
    round_ = current_round(table)
    version = screen_version(table, round_)
    seat_rows = {seat.number: seat for seat in table.seats.all()}
    seats = [
        SeatView(
            number=number,
            occupied=bool(seat_rows[number].occupied) if number in seat_rows else False,
            player_name=seat_rows[number].player_name if number in seat_rows else "",
        )
        for number in range(1, MAX_SEATS + 1)
    ]
    rows: list[list[str]] = [[] for _ in range(ROW_COUNT)]
    used: set[str] = set()
    void_request = None
    paytable = table.paytable
    if round_ is not None:
        by_number = {seat.number: seat for seat in seats}
        for bet in round_.bets.all():
            seat = by_number[bet.seat_number]
            seat.amount_cents = bet.amount_cents
            seat.circles += 1
        for hand in round_.seat_hands.all():
            seat = by_number[hand.seat_number]
            seat.dealt = list(hand.dealt or [])
            seat.held = list(hand.held) if hand.held is not None else None
        for row in round_.draw_rows.all():
            rows[row.row - 1] = list(row.cards)
        for outcome in round_.outcomes.select_related("paytable_line"):
            by_number[outcome.seat_number].outcomes.append(
                OutcomeView(
                    circle=outcome.circle,
                    cards=list(outcome.cards),
                    description=outcome.description,
                    line_hand=outcome.line_hand,
                    line=outcome.paytable_line,
                    return_cents=int(outcome.return_cents),
                    paid_cents=int(outcome.paid_cents),
                )
            )
        used = set(round_.cards.values_list("card", flat=True))
        if round_.paytable is not None:
            paytable = round_.paytable
        if not round_.is_finished:
            void_request = (
                AuditEvent.objects.filter(round_id=round_.pk, action=VOID_REQUEST_ACTION).order_by("-id").first()
            )
    return Screen(
        table=table,
        round=round_,
        seats=seats,
        rows=rows,
        used_cards=used,
        version=version,
        paytable=paytable,
        void_request=void_request,
    )
