"""Celery jobs of the audit trail: seal new events into the chain; seal stragglers and verify it (beat)."""

from __future__ import annotations

import time
from typing import Any

from audit import anchors, seal_queue
from audit.context import acting_as
from audit.daily_report import daily_report_create, previous_gaming_day, report_due
from audit.exception_scan import exceptions_scan
from audit.services import (
    audit_chain_anchors_unusable,
    audit_chain_seal,
    audit_chain_verify,
    chain_verification_run,
)
from casino import broker
from casino.celery import app

SCHEDULED = "scheduled job"


# A busy chain is tried again inside the job, SEAL_RETRY_PAUSE_SECONDS apart, up to SEAL_RETRIES times.
SEAL_RETRIES = 3
SEAL_RETRY_PAUSE_SECONDS = 1.0


@app.task(name="audit.tasks.seal_chain", bind=True, ignore_result=True)
def seal_chain(self: Any, attempt: int = 0, pending_key: str = "") -> int:
    """Queued after a commit that wrote events unless a job is already pending; idempotent.

    It releases the pending key before reading, so every commit either sees its events read here or queues a
    job of its own. If another sealer holds the chain it may already have read past our events, so on a worker
    the job tries again a second later, up to SEAL_RETRIES times (the straggler job is the backstop); eagerly
    (embedded mode) the next commit or the beat job seals them. It waits in the job rather than coming back as a
    delayed job (a countdown): a worker holding a delayed job crashes in kombu 5.7 when Redis goes away.
    `attempt` counts tries already made by a job queued as a delayed retry by an older release.
    """
    seal_queue.release(pending_key)
    sealed = audit_chain_seal(wait=False)
    while sealed is None and not self.request.is_eager and attempt < SEAL_RETRIES:
        attempt += 1
        time.sleep(SEAL_RETRY_PAUSE_SECONDS)
        sealed = audit_chain_seal(wait=False)
    if not sealed:
        return 0
    exceptions_scan()  # the exception rules read what was just sealed
    return sealed


def seal_chain_queue(sender: object = None, **kwargs: Any) -> None:
    """Receiver of events_committed: queue a seal job unless one is pending and not yet started.

    One pending job serves every commit until it starts (busy tables commit dozens of times a second).
    """
    if not broker.reachable():
        return  # the straggler job seals these events once the broker is back
    needed, key = seal_queue.claim(seal_chain.app.conf.task_default_queue)
    if needed:
        # Gives up at once while the broker is down (a request never waits on it); the straggler job seals later.
        broker.send(seal_chain.name, (), {"pending_key": key} if key else {})


@app.task(name="audit.tasks.seal_stragglers", ignore_result=True)
def seal_stragglers() -> int:
    """Periodic: seal events whose after-commit job was lost (broker down, worker killed); run the exception rules."""
    sealed = audit_chain_seal() or 0
    exceptions_scan()
    return sealed


@app.task(name="audit.tasks.verify_chain")
def verify_chain() -> dict[str, Any]:
    """Periodic: seal anything a lost seal_chain left behind, then recompute the whole chain.

    It also compares the chain with the signed anchors in AUDIT_ANCHOR_FILE (when set); anchors that cannot be
    trusted (a forged line) count as a broken chain, so the stored check and the log say so.
    """
    audit_chain_seal()
    try:
        report = audit_chain_verify(signed=anchors.configured_anchors(), checked_by=SCHEDULED)
    except anchors.AnchorError as exc:
        report = audit_chain_anchors_unusable(str(exc), checked_by=SCHEDULED)
    return {
        "ok": report.ok,
        "checked": report.checked,
        "first_broken_id": report.first_broken_id,
        "first_broken_sequence": report.first_broken_sequence,
        "message": report.message,
    }


@app.task(name="audit.tasks.verify_chain_requested", ignore_result=True)
def verify_chain_requested(token: str) -> None:
    """A verification a compliance user started from the screen; progress is saved on its run as it goes."""
    with acting_as(kind="worker", name="chain verification", user=None):
        chain_verification_run(token)


def verification_queue(sender: object = None, token: str = "", **kwargs: Any) -> None:
    """Receiver of verification_requested: the job starts once the request is committed."""
    verify_chain_requested.delay(token)


@app.task(name="reports.audit.daily_compliance_report", ignore_result=True)
def daily_compliance_report(day: str = "") -> str:
    """Each morning: the compliance summary of the gaming day that just ended (or of `day`), produced and kept."""
    import datetime as dt

    if not day and not report_due():
        return "waiting"
    with acting_as(kind="worker", name=SCHEDULED, user=None):
        exceptions_scan()
        wanted = dt.date.fromisoformat(day) if day else previous_gaming_day()
        report = daily_report_create(day=wanted, created_by=SCHEDULED)
    return report.gaming_day.isoformat()
