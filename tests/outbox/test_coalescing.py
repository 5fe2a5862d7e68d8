"""Coalesced jobs (the floor's summary refresh): one job serves every write until it starts, and no write that
commits after its start is left without a job of its own, even when the two race."""

from __future__ import annotations

import threading
import time
from typing import Any
from unittest import mock

import pytest
from django.db import connection, transaction

from casino import broker
from outbox.jobs import outbox_add_coalesced, outbox_started
from outbox.models import OutboxJob

TASK = "floor.refresh_table_hour"
KEY = "floor.refresh_table_hour:1:2026-12-01T06:00:00+00:00"


@pytest.fixture
def sent() -> Any:
    """What would have gone to the broker (no worker runs here)."""
    calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []
    with mock.patch.object(broker, "send", side_effect=lambda name, args, kwargs, **o: calls.append((name, args, o))):
        yield calls


def _posting() -> OutboxJob | None:
    with transaction.atomic():
        return outbox_add_coalesced(TASK, [1, "2026-12-01T06:10:00+00:00"], key=KEY)


@pytest.mark.django_db
def test_writes_share_the_waiting_job_until_it_starts(sent: list[Any], django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        first = _posting()
        assert _posting() is None  # the waiting job will read this write too
        assert _posting() is None
    assert first is not None
    assert OutboxJob.objects.filter(coalesce_key=KEY).count() == 1
    assert len(sent) == 1

    outbox_started(first.pk)  # the job marks itself started before it reads
    with django_capture_on_commit_callbacks(execute=True):
        second = _posting()  # so a write from now on needs a job of its own
    assert second is not None
    assert second.pk != first.pk
    assert len(sent) == 2


def _failing_posting() -> None:
    with transaction.atomic():
        assert outbox_add_coalesced(TASK, [1, "x"], key=KEY) is None
        raise RuntimeError("the posting failed")


@pytest.mark.django_db
def test_a_write_that_coalesced_before_the_job_rolls_back_leaves_the_job_as_it_was(sent: list[Any]) -> None:
    first = _posting()
    assert first is not None
    with pytest.raises(RuntimeError, match="posting failed"):
        _failing_posting()
    assert list(OutboxJob.objects.filter(coalesce_key=KEY).values_list("pk", flat=True)) == [first.pk]


@pytest.mark.django_db(transaction=True)
def test_the_job_cannot_start_while_a_write_that_relied_on_it_is_uncommitted(sent: list[Any]) -> None:
    """A write finds the job waiting and skips adding one; the job must not start reading before that write
    commits, or the write would be in no summary. The write's lock on the waiting row makes the start wait."""
    first = _posting()
    assert first is not None
    relying = threading.Event()
    started_at: list[float] = []
    committed_at: list[float] = []

    def write_that_relies_on_the_job() -> None:
        try:
            with transaction.atomic():
                assert outbox_add_coalesced(TASK, [1, "y"], key=KEY) is None
                relying.set()
                time.sleep(0.5)  # the posting's other work
                # Taken just before the commit: the job's start may return within microseconds of the commit,
                # before this thread runs again, so a time taken after the commit could come later than it.
                committed_at.append(time.monotonic())
        finally:
            connection.close()

    def job_start() -> None:
        relying.wait(5)
        try:
            outbox_started(first.pk)
            started_at.append(time.monotonic())
        finally:
            connection.close()

    threads = [threading.Thread(target=write_that_relies_on_the_job), threading.Thread(target=job_start)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert committed_at
    assert started_at
    assert started_at[0] >= committed_at[0]  # the job started only once the write was (about to be) committed
