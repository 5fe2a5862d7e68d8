"""Celery jobs of the audit trail: seal new events into the chain; seal stragglers and verify it (beat)."""

from __future__ import annotations

from typing import Any

from audit import anchors, seal_queue
from audit.services import audit_chain_anchors_unusable, audit_chain_seal, audit_chain_verify
from casino import broker
from casino.celery import app


@app.task(name="audit.tasks.seal_chain", bind=True, ignore_result=True)
def seal_chain(self: Any, attempt: int = 0, pending_key: str = "") -> int:
    """Queued after a commit that wrote events unless a job is already pending; idempotent.

    It releases the pending key before reading, so every commit either sees its events read here or queues a
    job of its own. If another sealer holds the chain it may already have read past our events, so on a worker
    the job comes back a second later; eagerly (embedded mode) the next commit or the beat job seals them.
    """
    seal_queue.release(pending_key)
    sealed = audit_chain_seal(wait=False)
    if sealed is None:
        if not self.request.is_eager and attempt < 3:  # bounded: the straggler job is the backstop
            self.apply_async(kwargs={"attempt": attempt + 1}, countdown=1)
        return 0
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
    """Periodic: seal events whose after-commit job was lost (broker down, worker killed)."""
    return audit_chain_seal() or 0


@app.task(name="audit.tasks.verify_chain")
def verify_chain() -> dict[str, Any]:
    """Periodic: seal anything a lost seal_chain left behind, then recompute the whole chain.

    It also compares the chain with the signed anchors in AUDIT_ANCHOR_FILE (when set); anchors that cannot be
    trusted (a forged line) count as a broken chain, so the stored check and the log say so.
    """
    audit_chain_seal()
    try:
        report = audit_chain_verify(signed=anchors.configured_anchors())
    except anchors.AnchorError as exc:
        report = audit_chain_anchors_unusable(str(exc))
    return {
        "ok": report.ok,
        "checked": report.checked,
        "first_broken_id": report.first_broken_id,
        "first_broken_sequence": report.first_broken_sequence,
        "message": report.message,
    }
