"""Celery jobs of the paytables app: each fetches by id and calls a service."""

from __future__ import annotations

from audit.context import acting_as
from casino.celery import app
from paytables.analysis_services import paytable_analysis_run


# Bound to the project's app like every task (see tables/tasks.py): shared_task could queue to an unconfigured
# default app in a process that has not loaded casino.celery, and the job would be lost.
@app.task(name="paytables.analyze_paytable", acks_late=True, reject_on_worker_lost=True)
def analyze_paytable_task(paytable_id: int) -> dict[str, object] | None:
    """Analyse one paytable's schedule; safe to run twice (a done analysis of the same schedule is kept)."""
    with acting_as(kind="worker", name="analyze_paytable_task"):
        analysis = paytable_analysis_run(paytable_id=paytable_id)
    if analysis is None:
        return None
    return {"paytable_id": paytable_id, "status": analysis.status, "return": analysis.return_ratio}
