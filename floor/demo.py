"""seed_demo's floor data: pits, three gaming days of simulated play on the demo rng tables (simulate_rounds) with
the demo dealer signed in, and yesterday's day shift closed with inventories, a fill, a credit and the drop.

The ledger is append-only, so past play cannot be backdated afterwards: it is played as if at those hours, with
`timezone.now` reading a clock that starts at each session's hour and ticks half a second a call.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime, time, timedelta
from io import StringIO
from typing import Any, TypedDict
from unittest import mock

from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone

from floor.chips import denominations
from floor.gaming_day import gaming_day, shift_span
from floor.models import Shift
from floor.selectors.books import system_wins
from floor.services.books import drop_record, inventory_record, slip_record
from floor.services.dealers import dealer_sign_in, dealer_sign_out
from floor.services.pits import table_set_pit
from floor.services.shifts import shift_close
from floor.summaries import summaries_rebuild
from tables.demo_tables import demo_tables
from tables.models import Seat, Table
from tables.services.seats import seat_leave

# The demo tables' pits, by demo key (Table.demo_key): a renamed demo table keeps its place.
PITS = {
    "triple-draw-1": "Main pit",
    "triple-draw-2": "Main pit",
    "high-limit-1": "High limit",
    "triple-draw-shoe-1": "Main pit",
    # The home-game tables seed_demo adds (tables/home_demo.py).
    "five-card-draw-1": "Home games",
    "pregnant-threes-1": "Home games",
    "three-legged-race-1": "Home games",
    "freak-of-nature-1": "Home games",
    "five-card-draw-shoe-1": "Home games",
}
DEMO_DAYS = 3
# (table, local hour the session starts, rounds, seats, circles): day and swing shift play, high limit at night.
SESSIONS = (("triple-draw-1", 10, 6, 4, 2), ("triple-draw-1", 16, 5, 3, 3), ("high-limit-1", 19, 4, 3, 1))
CLOSED_SHIFT = "day"
OPENING_CENTS = 2_000_000  # $20,000 of chips in the tray
FILL_CENTS, CREDIT_CENTS = 200_000, 50_000
DROP_CASH_CENTS, DROP_MARKERS_CENTS = 300_000, 50_000


@contextmanager
def played_at(start: datetime) -> Iterator[None]:
    """Run the block as if it started at `start`: timezone.now() returns it, half a second later on every call."""
    ticks = itertools.count()
    with mock.patch("django.utils.timezone.now", side_effect=lambda: start + timedelta(seconds=next(ticks) / 2)):
        yield


def chips_for(cents: int) -> dict[str, int]:
    """A tray count worth `cents`, largest chips first (down to the smallest chip; any rest is not in chips)."""
    chips: dict[str, int] = {}
    for value in sorted(denominations(), reverse=True):
        chips[str(value)], cents = divmod(cents, value)
    return chips


def _local(day: date, hour: int) -> datetime:
    return datetime.combine(day, time(hour), tzinfo=timezone.get_current_timezone())


def seed_floor_demo(sender: Any, *, users: dict[str, User], **kwargs: Any) -> None:
    """tables.signals.demo_seeding receiver; idempotent (a second run finds the demo shift and adds nothing)."""
    floor, dealer = users["floor"], users["dealer"]
    tables = demo_tables(list(PITS))
    for key, pit in PITS.items():
        # Only a table with no pit yet: one the floor has moved stays where the floor put it.
        if key in tables and not tables[key].pit:
            tables[key] = table_set_pit(table=tables[key], pit=pit, actor=floor)
    today = gaming_day(timezone.now())
    closed_day = today - timedelta(days=1)
    if Shift.objects.filter(gaming_day=closed_day, code=CLOSED_SHIFT).exists():
        return
    for day in (today - timedelta(days=offset) for offset in range(DEMO_DAYS, 0, -1)):
        for key, hour, rounds, seats, circles in SESSIONS:
            if key in tables:
                _session(tables[key], _local(day, hour), rounds, seats, circles, floor, dealer)
    summaries_rebuild(first_day=today - timedelta(days=DEMO_DAYS), last_day=today)
    if "triple-draw-1" in tables:
        _closed_shift(tables["triple-draw-1"], closed_day, floor, dealer)


def _session(table: Table, start: datetime, rounds: int, seats: int, circles: int, floor: User, dealer: User) -> None:
    """The demo dealer signs in, plays `rounds` simulated rounds (optimal holds, seeded), the players leave, and the
    dealer signs out."""
    with played_at(start):
        dealer_sign_in(table=table, actor=dealer)
        call_command(
            "simulate_rounds",
            table=table.name,
            rounds=rounds,
            seats=seats,
            circles=circles,
            user=floor.username,
            seed=start.toordinal() + start.hour,
            stdout=StringIO(),
        )
        # The session's players go home: the demo tables start empty, as a new shift finds them.
        for seat in Seat.objects.filter(table=table, occupied=True):
            seat_leave(table=table, seat_number=seat.number, actor=floor)
        dealer_sign_out(table=table, actor=dealer)


class _Books(TypedDict):
    """Which books a record goes in: a table's shift on a gaming day."""

    day: date
    shift_code: str
    table: Table


def _closed_shift(table: Table, day: date, floor: User, dealer: User) -> None:
    """Books whose count win matches the ledger's win to the dollar: the players took home what they bought in
    (the drop) less what the table won, so closing = opening + fill - credit - (drop - win)."""
    span = shift_span(day, CLOSED_SHIFT)
    win = system_wins([table], span.starts_at, span.ends_at)[table.pk].cents
    drop = DROP_CASH_CENTS + DROP_MARKERS_CENTS
    closing = OPENING_CENTS + FILL_CENTS - CREDIT_CENTS - (drop - win)
    books = _Books(day=day, shift_code=CLOSED_SHIFT, table=table)
    with played_at(span.starts_at):
        inventory_record(**books, kind="opening", chips=chips_for(OPENING_CENTS), actor=floor)
    with played_at(span.starts_at + timedelta(hours=2)):
        slip_record(**books, kind="fill", chips=chips_for(FILL_CENTS), actor=floor, dealer_signer=dealer)
    with played_at(span.starts_at + timedelta(hours=6)):
        slip_record(**books, kind="credit", chips=chips_for(CREDIT_CENTS), actor=floor, dealer_signer=dealer)
    with played_at(span.ends_at - timedelta(minutes=5)):
        inventory_record(**books, kind="closing", chips=chips_for(closing), actor=floor)
        drop_record(**books, cash_cents=DROP_CASH_CENTS, markers_cents=DROP_MARKERS_CENTS, actor=floor)
    shift = Shift.objects.get(gaming_day=day, code=CLOSED_SHIFT)
    shift_close(shift=shift, actor=floor)
