"""The outbox: add a job in the caller's transaction, mark it done from the job, sweep what is overdue.

Plumbing, like audit/seal_queue.py and floor/summaries.py, not a service module: `outbox_add` writes inside the
calling service's transaction (which records the audit event of the decision), and the sweeper's own transaction
only notes when it sent a job again, which changes no business record, so it writes no audit event.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, Min
from django.utils import timezone

from casino import broker
from casino.sql import column, insert_rows, table
from outbox.models import OutboxJob

logger = logging.getLogger(__name__)

DEFAULT_LEASE_SECONDS = 30
SWEEP_BATCH = 200


def lease_for(task: str) -> int:
    """How long one sent copy of `task` may take before the sweeper sends another (settings.OUTBOX_LEASES)."""
    leases: dict[str, int] = getattr(settings, "OUTBOX_LEASES", {})
    return int(leases.get(task, DEFAULT_LEASE_SECONDS))


def outbox_add(
    task: str,
    args: Sequence[Any],
    *,
    priority: int | None = None,
    robust: bool = True,
    coalesce_key: str = "",
) -> OutboxJob:
    """Record a job in the current transaction and send it once that commits.

    Call it inside the service's atomic block: the job exists exactly when the decision it carries out does.
    `robust` logs (rather than raises) an eager job's error after the commit; a broker outage never raises.
    """
    now = timezone.now()
    lease = lease_for(task)
    job = OutboxJob(
        task=task,
        args=list(args),
        priority=priority,
        created_at=now,
        due_at=now + timedelta(seconds=lease),
        lease_seconds=lease,
        coalesce_key=coalesce_key,
    )
    # Written out (casino.sql): a round adds two jobs, and the ORM's insert cost more CPU than the statement.
    insert_rows([job], returning=True)
    job_id = job.pk
    transaction.on_commit(lambda: _send_first(job_id, task, list(args), priority), robust=robust)
    return job


def outbox_add_coalesced(task: str, args: Sequence[Any], *, key: str) -> OutboxJob | None:
    """Like outbox_add, for a job that recomputes `key`'s data whole: none is added while a job for `key` waits
    unstarted (None is returned), since that job will read this transaction's writes.

    Why that holds: the waiting job's row is locked here until this transaction ends, and the job marks itself
    started (outbox_started, which waits for that lock) before it reads; once it has, the next write adds its own.
    """
    with connection.cursor() as cursor:
        # Written out: it runs in every settlement's transaction, and the ORM's query building cost more than it.
        cursor.execute(
            f"SELECT {column(OutboxJob, 'pk')} FROM {table(OutboxJob)} "  # noqa: S608 (names from metadata)
            f"WHERE {column(OutboxJob, 'coalesce_key')} = %s AND {column(OutboxJob, 'started_at')} IS NULL "
            f"LIMIT 1{' FOR UPDATE' if connection.features.has_select_for_update else ''}",
            [key],
        )
        if cursor.fetchone() is not None:
            return None
    return outbox_add(task, args, coalesce_key=key)


def outbox_started(job_id: int | None) -> None:
    """Called by a coalesced job before it reads, outside any transaction: writes from now on queue a new job."""
    if job_id is not None:
        started = column(OutboxJob, "started_at")
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {table(OutboxJob)} SET {started} = %s "  # noqa: S608 (names from metadata)
                f"WHERE {column(OutboxJob, 'pk')} = %s AND {started} IS NULL",
                [connection.ops.adapt_datetimefield_value(timezone.now()), job_id],
            )


def _send_first(job_id: int, task: str, args: list[Any], priority: int | None) -> None:
    """After the commit: send the job; if the broker is down, make it due now, so the first sweep that finds the
    broker back sends it rather than waiting out its lease (60 s for an analysis)."""
    if not _send(job_id, task, args, priority):
        OutboxJob.objects.filter(pk=job_id).update(due_at=timezone.now())


def _send(job_id: int, task: str, args: list[Any], priority: int | None) -> bool:
    options: dict[str, Any] = {} if priority is None else {"priority": priority}
    sent = broker.send(task, args, {"outbox_id": job_id}, **options)
    if not sent:
        logger.warning("job %s %s%s waits in the outbox for the broker", job_id, task, tuple(args))
    return sent


def outbox_done(job_id: int | None) -> None:
    """Called by the job once its work has committed: nothing is left to send. A second call is harmless."""
    if job_id is not None:
        with connection.cursor() as cursor:
            where = f"{column(OutboxJob, 'pk')} = %s"
            cursor.execute(f"DELETE FROM {table(OutboxJob)} WHERE {where}", [job_id])  # noqa: S608 (metadata)


def outbox_sweep(limit: int = SWEEP_BATCH) -> int:
    """Send (again) every job whose lease ran out; returns how many were sent. Stops at the first broker failure.

    Rows are taken with SKIP LOCKED, so two sweepers (beat's job, a web process) never send one row twice.
    """
    sent = 0
    with transaction.atomic():
        now = timezone.now()
        due = list(
            OutboxJob.objects.select_for_update(skip_locked=True).filter(due_at__lte=now).order_by("due_at")[:limit]
        )
        for job in due:
            if not _send(job.pk, job.task, job.args, job.priority):
                break
            job.sends += 1
            job.last_sent_at = now
            job.due_at = now + timedelta(seconds=job.lease_seconds)
            job.save(update_fields=["sends", "last_sent_at", "due_at"])
            sent += 1
    if sent:
        logger.info("outbox sweep sent %d overdue job(s)", sent)
    return sent


def outbox_late(task: str, args: Sequence[Any]) -> bool:
    """Is a job for `task(*args)` late: it found the broker down when sent, or one lease has passed without it
    having run? (The sweeper sends it again either way; this only says whether someone should be told.)"""
    now = timezone.now()
    jobs = OutboxJob.objects.filter(task=task, args=list(args)).values_list("created_at", "due_at", "lease_seconds")
    return any(due_at <= now or created_at + timedelta(seconds=lease) <= now for created_at, due_at, lease in jobs)


def outbox_waiting() -> dict[str, Any]:
    """What waits in the outbox: a count per task, how many are overdue, the oldest one's age in seconds."""
    now = timezone.now()
    rows = OutboxJob.objects.values("task").annotate(n=Count("id"), oldest=Min("created_at")).order_by("task")
    oldest = min((row["oldest"] for row in rows), default=None)
    return {
        "jobs": {row["task"]: row["n"] for row in rows},
        "overdue": OutboxJob.objects.filter(due_at__lte=now).count(),
        "oldest_seconds": round((now - oldest).total_seconds(), 1) if oldest is not None else 0,
    }
