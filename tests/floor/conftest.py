"""Fixtures for the floor: a count-team persona, analysed paytables on both bases, open rng tables, and simulated
play at chosen past hours with the summary job run as it runs in the embedded mode."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime, time
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission, User
from django.core.management import call_command
from django.utils import timezone
from rest_framework.test import APIClient

from casino.celery import app
from floor.demo import played_at
from floor.gaming_day import gaming_day, shift_code
from floor.models import TableHour, TableShift
from floor.roles import sync_floor_permissions
from paytables.analysis_services import paytable_analysis_run
from paytables.models import Paytable
from tables.models import CardSource, Table
from tables.services.tables import table_update_limits
from tests.tables.conftest import HOUSE_TO_1, make_paytable, open_table


@pytest.fixture
def count_user(db: None) -> User:
    """Cora counts the drop boxes: she enters drops and reads the books, nothing else."""
    if not Group.objects.filter(name="count").exists():
        sync_floor_permissions(Group, Permission)  # a transactional test's flush removes the groups
    user = User.objects.create_user(username="cora", password="pw-cora")
    user.groups.add(Group.objects.get(name="count"))
    return user


def analysed(paytable: Paytable) -> Paytable:
    """The paytable with its exact analysis stored, as the analysis job stores it."""
    paytable_analysis_run(paytable_id=paytable.pk)
    return Paytable.objects.select_related("analysis").get(pk=paytable.pk)


@pytest.fixture
def house_paytable(floor_user: User) -> Paytable:
    """The house table-style (to 1) paytable, analysed."""
    return analysed(make_paytable(HOUSE_TO_1, floor_user))


@pytest.fixture
def jacks_paytable(floor_user: User) -> Paytable:
    """Jacks or Better 9/6 (for 1), analysed."""
    return analysed(make_paytable("jacks_or_better_9_6", floor_user))


@pytest.fixture
def rng_tables(floor_user: User, dealer_user: User, house_paytable: Paytable, jacks_paytable: Paytable) -> list[Table]:
    """Two open rng tables, one per paytable basis, with Dave assigned and seven players seated."""
    return [
        open_table("Floor A", CardSource.RNG, house_paytable, floor_user, dealer_user),
        open_table("Floor B", CardSource.RNG, jacks_paytable, floor_user, dealer_user, min_bet_cents=1_000),
    ]


def local(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute), tzinfo=timezone.get_current_timezone())


@contextmanager
def summary_jobs_in_process() -> Iterator[None]:
    """Celery jobs run in this process, as in the embedded mode (CI points Celery at Redis with no worker here)."""
    previous = {
        "task_always_eager": app.conf.task_always_eager,
        "task_eager_propagates": app.conf.task_eager_propagates,
    }
    app.conf.update(task_always_eager=True, task_eager_propagates=True)
    try:
        yield
    finally:
        app.conf.update(**previous)


@pytest.fixture
def play(django_capture_on_commit_callbacks: Any, floor_user: User) -> Callable[..., None]:
    """play(table, at, rounds, seats=, circles=, bet=): simulate_rounds as if at `at`; the commit callbacks run
    (settlement, then the floor's summary job on ledger_posted) with Celery in-process."""

    def run(table: Table, at: datetime, rounds: int, seats: int = 3, circles: int = 2, bet: int | None = None) -> None:
        options: dict[str, Any] = {"rounds": rounds, "seats": seats, "circles": circles, "seed": at.toordinal()}
        if bet is not None:
            options["bet"] = bet
        with summary_jobs_in_process(), django_capture_on_commit_callbacks(execute=True), played_at(at):
            call_command("simulate_rounds", table=table.name, user=floor_user.username, stdout=StringIO(), **options)

    return run


def api_for(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def manual_table(floor_user: User, dealer_user: User, jacks_paytable: Paytable) -> Table:
    """A manual-entry table on analysed Jacks or Better 9/6, Dave assigned, seven players seated."""
    return open_table(
        "Manual F", CardSource.MANUAL, jacks_paytable, floor_user, dealer_user, min_bet_cents=500, max_bet_cents=10_000
    )


def payouts_need_approval(table: Table, floor: User, threshold_cents: int = 798_000) -> None:
    """Seat winnings of `threshold_cents` or more wait for a floor supervisor (the royal in test_settlement's round)."""
    table_update_limits(
        table=table,
        actor=floor,
        min_bet_cents=500,
        max_bet_cents=10_000,
        max_payout_per_seat_cents=10_000_000,
        supervisor_approval_threshold_cents=threshold_cents,
    )


# 11:00 in the casino (TIME_ZONE is UTC in tests): gaming day 17 March, day shift.
REPORT_HOUR = datetime(2025, 3, 17, 11, tzinfo=UTC)
REPORT_DAY = "2025-03-17"


def summary_row(table: Table, paytable: Paytable, *, rounds: int, handle: int, win: int, squares: int) -> None:
    """A table's summary rows (its hour and its shift) as the job would write them; reports read nothing else."""
    figures = {
        "table": table,
        "gaming_day": gaming_day(REPORT_HOUR),
        "shift": shift_code(REPORT_HOUR),
        "paytable": paytable,
        "rounds": rounds,
        "handle_cents": handle,
        "paid_cents": handle - win,
        "win_cents": win,
        "stake_squares": squares,
        "updated_at": timezone.now(),
    }
    TableHour.objects.create(hour_start=REPORT_HOUR, hour_of_day=timezone.localtime(REPORT_HOUR).hour, **figures)
    TableShift.objects.create(**figures)


@pytest.fixture
def two_tables(rng_tables: list[Table], house_paytable: Paytable) -> list[Table]:
    """Summary rows for REPORT_DAY. A: a hold near theory over 1,000 bets of $10. B: the same handle, but the table
    lost 40 % of it (far outside its band)."""
    a, b = rng_tables
    summary_row(a, house_paytable, rounds=200, handle=1_000_000, win=30_000, squares=1_000 * 1_000**2)
    summary_row(b, house_paytable, rounds=200, handle=1_000_000, win=-400_000, squares=1_000 * 1_000**2)
    return [a, b]
