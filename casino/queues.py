"""Celery queues, one per kind of job, and the router that sends each task to its kind's queue.

Kinds: `settlement` (a dealer waits for it), `audit` (sealing and verifying the hash chain, many small jobs),
`analysis` (exact paytable analyses, seconds of CPU each), `reports` (floor and compliance reports) and the
default queue `celery` for everything else. A task whose name starts with `reports.` goes to `reports` with no
change here, so a new report job only needs that name (or an explicit `queue=` on its decorator, which wins).
"""

from __future__ import annotations

from typing import Any

from celery import current_app

SETTLEMENT = "settlement"
AUDIT = "audit"
ANALYSIS = "analysis"
REPORTS = "reports"
DEFAULT_QUEUE = "celery"  # Celery's own default name, so jobs queued before queues existed are still consumed
ALL_QUEUES = (SETTLEMENT, AUDIT, ANALYSIS, REPORTS, DEFAULT_QUEUE)

# Exact task names first, then name prefixes (first match wins).
QUEUE_BY_TASK = {
    "tables.settle_round": SETTLEMENT,
    # The outbox sweeper sends settlements again: it runs where settlement runs, never behind an analysis.
    "outbox.sweep": SETTLEMENT,
    "paytables.analyze_paytable": ANALYSIS,
}
QUEUE_BY_PREFIX = (
    ("audit.", AUDIT),
    ("reports.", REPORTS),
)


def queue_for(task_name: str) -> str:
    """The queue of a task by its registered name (the default queue when no kind claims it)."""
    if task_name in QUEUE_BY_TASK:
        return QUEUE_BY_TASK[task_name]
    for prefix, queue in QUEUE_BY_PREFIX:
        if task_name.startswith(prefix):
            return queue
    return DEFAULT_QUEUE


def route_task(name: str, args: Any, kwargs: Any, options: Any, task: Any = None, **extra: Any) -> dict[str, str]:
    """Celery router (task_routes): the task's kind queue.

    A process whose default queue was moved off `celery` (the test suite's private worker does that, so that no
    other worker on the broker steals its jobs) keeps every job on that one queue: it has one worker for all.
    """
    app = task.app if task is not None else current_app
    default = app.conf.task_default_queue
    if default != DEFAULT_QUEUE:
        return {"queue": default}
    return {"queue": queue_for(name)}
