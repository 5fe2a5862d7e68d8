"""Summary rows: the job is queued when a table's ledger is posted (settlement or approval), recomputes the hour
whole (twice changes nothing), never fails the posting, takes home-game figures from their source, and the
rebuild command recomputes them from the ledger (audited)."""

from __future__ import annotations

from datetime import UTC, datetime
from io import StringIO
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import override_settings

from floor.gaming_day import hour_bucket
from floor.models import TableHour
from floor.sources import HomeFigures
from floor.summaries import table_hour_refresh
from floor.tasks import refresh_table_hour
from outbox.models import OutboxJob
from tables.models import LedgerEntry, Round, Table, TableType
from tables.services.approvals import round_approve_payout
from tables.services.cards import rows_record
from tables.services.tables import table_create
from tests.floor.conftest import payouts_need_approval, summary_jobs_in_process
from tests.tables.helpers import settle_now
from tests.tables.test_settlement import ROWS, to_drawing

pytestmark = pytest.mark.django_db


def summary(table: Table) -> list[tuple[Any, ...]]:
    return sorted(
        TableHour.objects.filter(table=table).values_list("hour_start", "rounds", "handle_cents", "win_cents")
    )


def test_settling_a_round_queues_the_refresh_of_its_tables_hour(
    manual_table: Table, floor_user: User, django_capture_on_commit_callbacks: Any
) -> None:
    rnd = to_drawing(manual_table, floor_user)
    with (
        mock.patch.object(refresh_table_hour, "apply_async") as queued,
        django_capture_on_commit_callbacks(execute=True),
    ):
        rows_record(round=rnd, rows=ROWS, actor=floor_user)
        settle_now(rnd.pk)
    posted = LedgerEntry.objects.filter(round=rnd).values_list("posted_at", flat=True).first()
    assert posted is not None
    # The job committed with the posting (the outbox) and was sent once that committed.
    [job] = OutboxJob.objects.filter(task="floor.refresh_table_hour")
    assert job.args == [manual_table.pk, posted.isoformat()]
    assert queued.call_count == 1
    assert queued.call_args.args[:2] == ((manual_table.pk, posted.isoformat()), {"outbox_id": job.pk})
    assert refresh_table_hour.apply(args=(manual_table.pk, posted.isoformat()), kwargs={"outbox_id": job.pk}).get() == 1
    assert not OutboxJob.objects.filter(pk=job.pk).exists()  # done: nothing left to send
    stakes = 1000 * (3 + 2 + 1)
    [(hour, rounds, handle, win)] = summary(manual_table)
    assert (hour, rounds, handle) == (hour_bucket(posted), 1, stakes)
    assert win == -sum(LedgerEntry.objects.filter(round=rnd, account="seat").values_list("amount_cents", flat=True))


def test_a_round_awaiting_approval_counts_only_once_approved(
    manual_table: Table, floor_user: User, django_capture_on_commit_callbacks: Any
) -> None:
    payouts_need_approval(manual_table, floor_user)
    rnd = to_drawing(manual_table, floor_user)
    with summary_jobs_in_process(), django_capture_on_commit_callbacks(execute=True):
        rows_record(round=rnd, rows=ROWS, actor=floor_user)
        assert settle_now(rnd.pk) == Round.Phase.AWAITING_APPROVAL
    assert summary(manual_table) == []
    with summary_jobs_in_process(), django_capture_on_commit_callbacks(execute=True):
        round_approve_payout(round=rnd, actor=floor_user)
    [(_, rounds, handle, _)] = summary(manual_table)
    assert (rounds, handle) == (1, 6000)


def test_refreshing_an_hour_twice_leaves_the_same_rows(manual_table: Table, floor_user: User) -> None:
    rnd = to_drawing(manual_table, floor_user)
    rows_record(round=rnd, rows=ROWS, actor=floor_user)
    settle_now(rnd.pk)
    posted = LedgerEntry.objects.filter(round=rnd).values_list("posted_at", flat=True).first()
    assert posted is not None
    table_hour_refresh(table_id=manual_table.pk, at=posted)
    first = summary(manual_table)
    table_hour_refresh(table_id=manual_table.pk, at=posted)
    assert summary(manual_table) == first
    assert TableHour.objects.filter(table=manual_table).count() == 1


def test_a_failing_summary_job_never_fails_the_settlement(
    manual_table: Table, floor_user: User, django_capture_on_commit_callbacks: Any, caplog: Any
) -> None:
    rnd = to_drawing(manual_table, floor_user)
    with (
        mock.patch.object(refresh_table_hour, "apply_async", side_effect=RuntimeError("broker down")),
        django_capture_on_commit_callbacks(execute=True),
    ):
        rows_record(round=rnd, rows=ROWS, actor=floor_user)
        assert settle_now(rnd.pk) == Round.Phase.SETTLED
    assert Round.objects.get(pk=rnd.pk).phase == Round.Phase.SETTLED
    assert "broker down" in caplog.text
    # The job still waits in the outbox: the sweeper sends it again.
    assert OutboxJob.objects.filter(task="floor.refresh_table_hour", args__0=manual_table.pk).count() == 1


HOME_HOUR = datetime(2025, 3, 17, 18, tzinfo=UTC)


def fake_home_source(*, table_ids: list[int], start: datetime, end: datetime) -> list[HomeFigures]:
    """What a home-game ledger would answer: two hours of play at every home table asked about."""
    hours = [HOME_HOUR, HOME_HOUR.replace(hour=19)]
    return [
        HomeFigures(
            table_id=t, hour_start=h, hands=30, games=2, pots_cents=90_000, rake_cents=4_500, time_charge_cents=1_000
        )
        for t in table_ids
        for h in hours
        if start <= h < end
    ]


@override_settings(FLOOR_HOME_FIGURES="tests.floor.test_summaries.fake_home_source")
def test_home_game_figures_come_from_the_configured_source(floor_user: User) -> None:
    home = table_create(name="Home 1", table_type=TableType.PREGNANT_THREES, actor=floor_user)
    table_hour_refresh(table_id=home.pk, at=HOME_HOUR)
    row = TableHour.objects.get(table=home)
    assert (row.hands, row.games, row.pots_cents, row.rake_cents, row.time_charge_cents, row.rounds) == (
        30,
        2,
        90_000,
        4_500,
        1_000,
        0,
    )


def test_the_rebuild_command_recomputes_summaries_from_the_ledger_and_is_audited(
    manual_table: Table, floor_user: User, assert_audited: Any
) -> None:
    rnd = to_drawing(manual_table, floor_user)
    rows_record(round=rnd, rows=ROWS, actor=floor_user)
    settle_now(rnd.pk)
    assert summary(manual_table) == []  # no job ran here
    out = StringIO()
    call_command("rebuild_floor_summaries", stdout=out)
    assert [(rounds, handle) for _, rounds, handle, _ in summary(manual_table)] == [(1, 6000)]
    assert "1 summary row" in out.getvalue()
    assert_audited("floor_summaries_rebuild", after={"rows": 1})


def test_the_rebuild_command_refuses_a_bad_range(db: None) -> None:
    with pytest.raises(CommandError, match=r"from .* is after to"):
        call_command("rebuild_floor_summaries", "--from", "2025-03-18", "--to", "2025-03-17", stdout=StringIO())
