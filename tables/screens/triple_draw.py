"""The Triple Draw table screen: the round read model plus what only the tablet needs (picker, entry modes)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cached_property

from django.conf import settings

from audit.models import AuditEvent
from casino import broker
from casino.engine.cards import Rank, Suit
from casino.engine.triple_draw import CARDS_PER_HAND, MAX_CIRCLES, ROW_COUNT
from outbox.jobs import outbox_late
from tables.models import CardSource, FloorCall, Round, Table, TableDevice
from tables.screens.home_shoe import NO_SHOE
from tables.screens.payouts import SeatPayout, seat_payouts
from tables.screens.shoe_refusal import ShoeRefusal, latest_refusal, refusal_token
from tables.selectors.floor_calls import call_token, table_call
from tables.selectors.round_shoe import ShoeProgress, round_shoe_wait
from tables.selectors.rounds import RoundView, previous_bets, seats_left_since_bets, table_view, void_requests
from tables.services.rounds import SETTLE_ROUND_TASK

# Picker order: suits as rows (spades first, as most dealers sort), ranks high to low.
PICKER_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
PICKER_RANKS = tuple(sorted(Rank, reverse=True))
PICKER = [[f"{rank.code}{suit.value}" for rank in PICKER_RANKS] for suit in PICKER_SUITS]


# Why a settling round's job is late (settlement_wait): the broker cannot be reached, or no worker has run it yet.
WAIT_BROKER = "broker"
WAIT_WORKER = "worker"


def settlement_wait(rnd: Round | None) -> str:
    """"" while a round is not settling or its settlement job is on time; else why the dealer is still waiting.

    Asks the broker only when the job is late (the outbox says so), so a normal poll costs one indexed query. Asking
    also lets this web process find the broker back and send what waited (casino.broker's recovery hook)."""
    if rnd is None or rnd.phase != Round.Phase.SETTLING or not outbox_late(SETTLE_ROUND_TASK, [rnd.pk]):
        return ""
    return WAIT_WORKER if broker.reachable() else WAIT_BROKER


def shoe_token(table: Table) -> str:
    """A shoe table's part of the tablet's poll token: a refused shoe report rolls back, so the round's version does
    not move, but the dealer must see it at once (the device's last refusal time does move)."""
    return refusal_token(table) if table.card_source == CardSource.SHOE else ""


def poll_token(token: str, wait: str, shoe: str, call: str) -> str:
    """The tablet's poll token: the round's change token, plus the settlement wait, a shoe's last refusal and the
    table's latest floor call (selectors.floor_calls.call_token), which no write to the round changes."""
    parts = (("wait", wait), ("shoe", shoe), ("call", call))
    return token + "".join(f".{name}-{part}" for name, part in parts if part)


# Chip buttons per seat: at most this many denominations fit a seat's box at 1280 px with seven seats.
MAX_CHIPS = 3


@dataclass(frozen=True)
class SeatReturn:
    """A voided round: what goes back to one seat."""

    number: int
    circles: int
    amount_cents: int

    @property
    def total_cents(self) -> int:
        return self.circles * self.amount_cents


@dataclass(frozen=True)
class CardTarget:
    """A field the card picker fills: a button to choose it (no text input, so no on-screen keyboard) and the
    hidden input it fills."""

    id: str
    name: str
    label: str
    describedby: str
    count: int = CARDS_PER_HAND
    seat: str = ""  # set when several seats' forms share the field name: a refused entry comes back to its seat only


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

    @property
    def deal_targets(self) -> list[CardTarget]:
        return [
            CardTarget(
                f"deal-seat-{seat.number}",
                seat.deal_field,
                f"Seat {seat.number} cards",
                f"seat-{seat.number}-error deal-error",
            )
            for seat in self.betting_seats
            if not seat.dealt
        ]

    @property
    def row_targets(self) -> list[CardTarget]:
        return [CardTarget(f"row-{n}", f"row{n}", f"Row {n}", "rows-error") for n in range(1, ROW_COUNT + 1)]

    @property
    def held_targets(self) -> dict[str, CardTarget]:
        """Manual seats never dealt record what they hold through the picker: seat number (text) -> field."""
        return {
            str(seat.number): CardTarget(
                f"held-{seat.number}",
                "held_text",
                f"Seat {seat.number} held",
                f"seat-{seat.number}-error",
                seat=str(seat.number),
            )
            for seat in self.betting_seats
            if not seat.dealt and seat.held is None
        }

    @cached_property
    def floor_call(self) -> FloorCall | None:
        """The table's call for the floor: open (waiting), or lately answered; a call outlives its round."""
        return table_call(self.table)

    @property
    def waiting_for_approval(self) -> bool:
        return self.phase == "awaiting_approval"

    @cached_property
    def payouts(self) -> list[SeatPayout]:
        """Per seat: what to do with each circle's bet and the one amount to pay from the tray."""
        basis = self.paytable.basis if self.paytable is not None else "for_1"
        return seat_payouts(self.betting_seats, basis)

    @cached_property
    def left_seats(self) -> set[int]:
        """Seats whose player of this round has left since (the results panel marks them)."""
        return seats_left_since_bets(self.table, self.round)

    @property
    def returns(self) -> list[SeatReturn]:
        """A voided round: every seat's bets go back to the player."""
        return [SeatReturn(seat.number, seat.circles, seat.amount_cents or 0) for seat in self.betting_seats]

    @property
    def returns_total_cents(self) -> int:
        return sum(item.total_cents for item in self.returns)

    @cached_property
    def void_request(self) -> AuditEvent | None:
        """The latest void request of an unfinished round."""
        requests = void_requests(self.round)
        return requests[-1] if requests else None

    @cached_property
    def previous_bets(self) -> dict[int, tuple[int, int]]:
        """Last round's bet per seat: (circles, amount per circle)."""
        if self.phase != "betting":
            return {}
        return previous_bets(self.table, self.round)

    @property
    def previous(self) -> dict[str, tuple[int, int]]:
        """The same keyed by seat number as text, as templates look it up."""
        return {str(number): bet for number, bet in self.previous_bets.items()}

    @property
    def rebet_seats(self) -> list[int]:
        """Seated players without a bet yet whose seat bet last round: what one Rebet tap places."""
        return [
            seat.number
            for seat in self.seats
            if seat.occupied and not seat.has_bet and seat.number in self.previous_bets
        ]

    @property
    def chips(self) -> list[int]:
        """The tray's denominations a bet at this table can be made of (within the limits), smallest first."""
        denominations = sorted(settings.FLOOR_CHIP_DENOMINATIONS_CENTS)
        fitting = [d for d in denominations if self.table.min_bet_cents <= d <= self.table.max_bet_cents]
        return (fitting or [d for d in denominations if d <= self.table.max_bet_cents])[:MAX_CHIPS]

    @cached_property
    def settle_wait(self) -> str:
        return settlement_wait(self.round)

    @property
    def poll_token(self) -> str:
        return poll_token(self.token, self.settle_wait, shoe_token(self.table), call_token(self.table))

    @property
    def is_shoe(self) -> bool:
        return self.table.card_source == CardSource.SHOE

    @cached_property
    def shoe_progress(self) -> ShoeProgress | None:
        """While the round waits for the shoe (the deal, the rows): "12 of 35 cards read; next: seat 4"."""
        rnd = self.round
        return round_shoe_wait(rnd) if self.is_shoe and rnd is not None else None

    @property
    def shoe_progress_text(self) -> str:
        """The shoe's progress naming the next seat's player as the home tablet does ("0 of 10 cards read; next:
        seat 1 · Ann"); the shoe's own answer keeps "seat 1"."""
        progress = self.shoe_progress
        if progress is None:
            return ""
        name = next((seat.player_name for seat in self.seats if seat.number == progress.seat), "")
        return f"{progress.text} · {name}" if progress.seat is not None and name else progress.text

    @cached_property
    def shoe_missing(self) -> str:
        """While the round waits for the shoe, a warning if the table has no active shoe to send the cards."""
        if self.shoe_progress is None or TableDevice.objects.filter(table=self.table, active=True).exists():
            return ""
        return NO_SHOE

    @cached_property
    def shoe_refusal(self) -> ShoeRefusal | None:
        """The shoe's last refused report while the round in play stands as it did then (the same version): the
        shoe's next card or the dealer's next tap moves the round on, and the refusal is then history."""
        rnd = self.round
        if not self.is_shoe or rnd is None or rnd.phase in Round.FINISHED:
            return None
        return latest_refusal(self.table, lambda refusal: refusal.get("round_id") == rnd.pk
                              and refusal.get("round_version") == rnd.version)

    @property
    def last_missing_hold(self) -> int | None:
        """The one seat whose hold is still missing: recording it moves the round on, so the tablet confirms it."""
        missing = self.missing_holds
        return missing[0] if self.phase == "holding" and len(missing) == 1 else None


def screen_for(table: Table) -> TripleDrawScreen:
    """Everything one table screen shows, read in a handful of queries."""
    view = table_view(table)
    return TripleDrawScreen(**{part.name: getattr(view, part.name) for part in fields(view)})
