"""Celery jobs of the floor app: refresh a table's summary hour as money is posted there (fetch by id, call)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import DatabaseError, transaction

from audit.context import acting_as
from casino.celery import app
from floor.gaming_day import hour_bucket
from floor.summaries import table_hour_refresh
from outbox.jobs import outbox_add_coalesced, outbox_done, outbox_started


# Bound to the project's app like tables.tasks (shared_task could queue to an unconfigured default app).
@app.task(
    name="floor.refresh_table_hour",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(DatabaseError,),
    retry_backoff=True,
    retry_backoff_max=30,
    max_retries=8,
)
def refresh_table_hour(table_id: int, at: str, outbox_id: int | None = None) -> int:
    """Recompute one table's summary rows for the hour holding `at` (ISO 8601); safe to run twice or late."""
    outbox_started(outbox_id)  # before reading: a posting committed from now on queues a refresh of its own
    with acting_as(user=None, kind="worker", name="celery:floor.refresh_table_hour"):
        refreshed = table_hour_refresh(table_id=table_id, at=datetime.fromisoformat(at))
    outbox_done(outbox_id)
    return refreshed


def queue_summary_refresh(sender: Any, *, table_id: int, posted_at: datetime, **kwargs: Any) -> None:
    """tables.signals.ledger_posted receiver (sent inside the posting's transaction): the hour's refresh job joins
    the outbox, so it commits with the posting and is sent until it has run.

    A busy table posts every few seconds and each refresh recomputes the hour whole, so one refresh serves every
    posting until it starts (outbox_add_coalesced). No start delay (a countdown): a worker holds such a job unacked,
    and kombu 5.7 crashes the worker when the broker goes away while it holds one.
    """
    key = f"floor.refresh_table_hour:{table_id}:{hour_bucket(posted_at).isoformat()}"
    # A savepoint: should this insert fail, the posting's transaction goes on (the signal is sent robustly).
    with transaction.atomic():
        outbox_add_coalesced("floor.refresh_table_hour", [table_id, posted_at.isoformat()], key=key)
