"""Celery jobs of the floor app: refresh a table's summary hour as money is posted there (fetch by id, call)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import DatabaseError, transaction

from audit.context import acting_as
from casino.celery import app
from floor.summaries import table_hour_refresh
from outbox.jobs import outbox_add, outbox_done


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
    with acting_as(user=None, kind="worker", name="celery:floor.refresh_table_hour"):
        refreshed = table_hour_refresh(table_id=table_id, at=datetime.fromisoformat(at))
    outbox_done(outbox_id)
    return refreshed


def queue_summary_refresh(sender: Any, *, table_id: int, posted_at: datetime, **kwargs: Any) -> None:
    """tables.signals.ledger_posted receiver (sent inside the posting's transaction): the hour's refresh job joins
    the outbox, so it commits with the posting and is sent until it has run."""
    # A savepoint: should this insert fail, the posting's transaction goes on (the signal is sent robustly).
    with transaction.atomic():
        outbox_add("floor.refresh_table_hour", [table_id, posted_at.isoformat()])
