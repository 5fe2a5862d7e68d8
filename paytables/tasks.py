"""Celery jobs of the paytables app: each fetches by id and calls a service."""

from __future__ import annotations

from django.db import DatabaseError

from audit.context import acting_as
from casino.celery import app
from outbox.jobs import outbox_done
from paytables.analysis_services import paytable_analysis_run


# Bound to the project's app like every task (see tables/tasks.py): shared_task could queue to an unconfigured
# default app in a process that has not loaded casino.celery, and the job would be lost.
@app.task(name="paytables.analyze_paytable", acks_late=True, reject_on_worker_lost=True)
def analyze_paytable_task(paytable_id: int, outbox_id: int | None = None) -> dict[str, object] | None:
    """Analyse one paytable's schedule; safe to run twice (a done analysis of the same schedule is kept)."""
    with acting_as(kind="worker", name="analyze_paytable_task"):
        try:
            analysis = paytable_analysis_run(paytable_id=paytable_id)
        except DatabaseError:
            raise  # the database failed, not the analysis: the outbox sends the job again
        except Exception:
            outbox_done(outbox_id)  # the failure is recorded on the analysis row; the floor may queue it again
            raise
    outbox_done(outbox_id)
    if analysis is None:
        return None
    return {"paytable_id": paytable_id, "status": analysis.status, "return": analysis.return_ratio}
