"""The outbox: a job commits with the write that needs it (or not at all), is sent after the commit, is sent again
by the sweeper once its lease runs out until the job deletes it, and a send never keeps a request waiting on a
broker that is down."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client, override_settings
from django.utils import timezone

from casino import broker
from outbox.jobs import outbox_add, outbox_sweep
from outbox.models import OutboxJob
from paytables.services import paytable_analysis_queue
from tables.models import Table
from tables.services.cards import rows_record
from tables.tasks import settle_round
from tests.tables.test_settlement import ROWS, to_drawing

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_broker_state")]

UNREACHABLE = "redis://127.0.0.1:1/0"  # nothing listens on port 1: refused at once


def test_a_job_exists_exactly_when_the_write_that_needs_it_commits(
    django_capture_on_commit_callbacks: Any,
) -> None:
    def failing_write() -> None:
        with transaction.atomic():
            outbox_add("casino.ping", [])
            raise RuntimeError("the write fails")

    with mock.patch.object(broker, "send", return_value=True) as send:
        with pytest.raises(RuntimeError):
            failing_write()
        assert not OutboxJob.objects.exists()
        with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
            job = outbox_add("casino.ping", [1], priority=0)
    assert OutboxJob.objects.get().pk == job.pk
    send.assert_called_once_with("casino.ping", [1], {"outbox_id": job.pk}, priority=0)


def test_rows_recorded_commit_the_settlement_job_with_the_round(
    manual_table: Table, floor_user: User, django_capture_on_commit_callbacks: Any
) -> None:
    rnd = to_drawing(manual_table, floor_user)
    with mock.patch.object(broker, "send", return_value=False), django_capture_on_commit_callbacks(execute=True):
        rows_record(round=rnd, rows=ROWS, actor=floor_user)  # the broker is down: the write stands all the same
    [job] = OutboxJob.objects.filter(task="tables.settle_round")
    assert job.args == [rnd.pk]
    assert job.due_at <= timezone.now()  # not sent: due now, the first sweep that finds the broker back sends it


def test_a_sent_job_is_due_again_only_when_its_lease_runs_out(django_capture_on_commit_callbacks: Any) -> None:
    with (
        mock.patch.object(broker, "send", return_value=True),
        django_capture_on_commit_callbacks(execute=True),
        transaction.atomic(),
    ):
        job = outbox_add("tables.settle_round", [0])
    job.refresh_from_db()
    assert job.due_at >= timezone.now() + timedelta(seconds=8)  # settlement's lease is 10 s
    with mock.patch.object(broker, "send", return_value=True) as send:
        assert outbox_sweep() == 0
    send.assert_not_called()


def test_a_paytable_analysis_request_commits_its_job(jacks_for_1: Any, floor_user: User) -> None:
    paytable_analysis_queue(paytable=jacks_for_1, actor=floor_user)
    assert OutboxJob.objects.filter(task="paytables.analyze_paytable", args=[jacks_for_1.pk]).count() == 1


def test_the_sweeper_sends_overdue_jobs_again_and_leaves_the_others() -> None:
    now = timezone.now()
    overdue = OutboxJob.objects.create(
        task="casino.ping", args=[], created_at=now, due_at=now - timedelta(seconds=1), lease_seconds=10
    )
    waiting = OutboxJob.objects.create(
        task="casino.ping", args=[], created_at=now, due_at=now + timedelta(seconds=30), lease_seconds=10
    )
    with mock.patch.object(broker, "send", return_value=True) as send:
        assert outbox_sweep() == 1
    send.assert_called_once_with("casino.ping", [], {"outbox_id": overdue.pk})
    overdue.refresh_from_db()
    assert overdue.sends == 1
    assert overdue.due_at >= now + timedelta(seconds=9)  # its next lease
    waiting.refresh_from_db()
    assert waiting.sends == 0


def test_the_job_deletes_its_outbox_row_once_it_has_run(
    manual_table: Table, floor_user: User, django_capture_on_commit_callbacks: Any
) -> None:
    rnd = to_drawing(manual_table, floor_user)
    with mock.patch.object(broker, "send", return_value=True) as send, django_capture_on_commit_callbacks(execute=True):
        rows_record(round=rnd, rows=ROWS, actor=floor_user)
    [(args, kwargs)] = [call.args[1:] for call in send.call_args_list if call.args[0] == "tables.settle_round"]
    assert OutboxJob.objects.filter(pk=kwargs["outbox_id"]).exists()
    assert settle_round.apply(args=args, kwargs=kwargs).get() == "settled"  # as the worker runs what was sent
    assert not OutboxJob.objects.filter(pk=kwargs["outbox_id"]).exists()
    assert settle_round.apply(args=args, kwargs=kwargs).get() == "settled"  # a second copy: nothing to do


@override_settings(REDIS_URL=UNREACHABLE, CELERY_TASK_ALWAYS_EAGER=False)
def test_a_send_gives_up_at_once_while_the_broker_is_down() -> None:
    started = time.monotonic()
    assert broker.send("casino.ping") is False
    assert broker.send("casino.ping") is False  # known down: not even asked
    assert time.monotonic() - started < 2


@override_settings(REDIS_URL=UNREACHABLE, CELERY_TASK_ALWAYS_EAGER=False)
def test_finding_the_broker_back_sweeps_what_waited(require_redis: str) -> None:
    assert broker.reachable() is False
    broker._state["down_until"] = 0.0  # its few seconds are over
    with (
        override_settings(REDIS_URL=require_redis),
        mock.patch("outbox.jobs.outbox_sweep") as sweep,
        mock.patch.object(broker, "_recovery_hooks", [lambda: sweep()]),
    ):
        broker._state["client"] = None
        assert broker.reachable() is True
        assert broker.reachable() is True
    sweep.assert_called_once_with()


def test_healthz_counts_what_waits_and_sends_it_when_the_broker_answers(client: Client, require_redis: str) -> None:
    now = timezone.now()
    OutboxJob.objects.create(
        task="tables.settle_round", args=[0], created_at=now, due_at=now - timedelta(seconds=1), lease_seconds=10
    )
    with (
        mock.patch("casino.health._broker_status", return_value="ok"),
        mock.patch.object(broker, "reachable", return_value=True),
        mock.patch.object(broker, "send", return_value=True) as send,
        mock.patch("casino.health._last_sweep", [0.0]),
    ):
        body = client.get("/healthz").json()
    assert body["waiting"]["jobs"] == {"tables.settle_round": 1}
    assert body["waiting"]["overdue"] == 1
    assert body["waiting"]["sent_now"] == 1
    assert send.call_count == 1
