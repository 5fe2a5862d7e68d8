"""Celery jobs of the tables app: fetch by id, call the service."""

from __future__ import annotations

from django.db import DatabaseError, transaction

from audit.context import acting_as
from casino.celery import app
from outbox.jobs import outbox_done
from tables.services.settlement import round_settlement_apply


# Bound to the project's app, not shared_task: in a web process nothing else may have loaded casino.celery yet,
# and shared_task would then queue to an unconfigured default app (amqp://localhost) and the job would be lost.
@app.task(
    name="tables.settle_round",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(DatabaseError,),
    retry_backoff=True,
    retry_backoff_max=30,
    # Waits of 1, 2, 4 ... 30 s (jitter drew waits of 0 s: nine tries in a few seconds of an outage). After the
    # last try the outbox still holds the job, and the sweeper sends it again once its lease runs out.
    retry_jitter=False,
    max_retries=8,
)
def settle_round(round_id: int, outbox_id: int | None = None) -> str:
    """Settle one round; safe to run twice or concurrently (row lock + phase check + unique constraints)."""
    with acting_as(user=None, kind="worker", name="celery:tables.settle_round"), transaction.atomic():
        phase = round_settlement_apply(round_id=round_id)
        # In the settlement's transaction: the job is done exactly when the settlement (or the finding that there
        # was nothing to settle) commits.
        outbox_done(outbox_id)
    return phase
