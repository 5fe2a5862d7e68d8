"""Audit writes: audit_record (inside the caller's transaction), sealing the chain, recording a verification."""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from django.db import connection, models, transaction
from django.db.models import Max
from django.utils import timezone

from audit import actions, anchors
from audit.access import can_read_audit
from audit.actions import ACTIONS, AuditAction
from audit.anchors import Anchor
from audit.chain import GENESIS_HASH, HASHED_FIELDS, event_hash
from audit.context import current_actor
from audit.exception_rules import classify
from audit.models import AuditEvent, ChainVerification, VerificationRun
from audit.roles import role_label
from audit.selectors import ChainReport, chain_walk
from audit.signals import events_committed, verification_requested
from casino.errors import NotAllowed
from casino.sql import column, insert_rows, select_rows
from casino.sql import table as table_name

logger = logging.getLogger(__name__)

SEAL_BATCH_SIZE = 5000
# pg_advisory_xact_lock key ("audi"): only sealers take it, never a business transaction.
SEAL_LOCK_KEY = 0x61756469
# SQLite has no advisory locks; in-process sealers (threaded runserver) queue here instead of colliding.
_sqlite_seal_lock = threading.Lock()


def _ref(value: Any) -> tuple[int | None, str]:
    if value is None:
        return None, ""
    if isinstance(value, int):
        return value, ""
    return int(value.pk), str(value)[:100]


def _user_or_none(user: Any) -> Any:
    return user if user is not None and getattr(user, "pk", None) else None


def audit_event(
    *,
    action: AuditAction | str,
    obj: models.Model | None = None,
    object_type: str = "",
    object_id: str | int = "",
    object_repr: str = "",
    table: Any = None,
    round: Any = None,
    seat_number: int | None = None,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    reason: str = "",
    approver: Any = None,
    actor: Any = None,
    actor_kind: str = "",
    exception_kind: str | None = None,
) -> AuditEvent:
    """An unsaved event with the same arguments as audit_record, for audit_record_many.

    `action` is a declaration from an app's actions.py (or, until every caller passes one, a declared code);
    an undeclared code raises UndeclaredAction before anything is written.
    """
    declared = ACTIONS.get(action)
    context = current_actor()
    user = _user_or_none(actor if actor is not None else context.user)
    if obj is not None:
        object_type = object_type or obj._meta.label_lower
        object_id = object_id or str(obj.pk)
        object_repr = object_repr or str(obj)
    table_id, table_repr = _ref(table)
    round_id, round_repr = _ref(round)
    approver_user = _user_or_none(approver)
    return AuditEvent(
        occurred_at=timezone.now(),
        actor=user,
        actor_username=(user.get_username() if user is not None else "") or context.name,
        actor_role=role_label(user) if user is not None else "",
        actor_kind=actor_kind or ("user" if user is not None else context.kind),
        action=declared.code,
        exception_kind=classify(declared, after) if exception_kind is None else exception_kind,
        object_type=object_type,
        object_id=str(object_id),
        object_repr=object_repr[:200],
        table_id=table_id,
        table_repr=table_repr,
        round_id=round_id,
        round_repr=round_repr,
        seat_number=seat_number,
        before=before,
        after=after,
        reason=reason,
        approver=approver_user,
        approver_username=approver_user.get_username() if approver_user is not None else str(approver or ""),
        correlation_id=context.correlation_id[:64],
        client_address=context.client_address,
    )


def audit_record(**fields: Any) -> AuditEvent:
    """Write one audit event; must run inside the caller's transaction so both commit or neither does.

    `table` and `round` may be model instances or ids. `exception_kind` overrides the classification for the
    exception report (the action's declared kind, or a large payout; audit/exception_rules.py); "" keeps an
    event out of it. The event is sealed into the hash chain right after the transaction commits.
    """
    event = audit_event(**fields)  # same keyword arguments; audit_event names and checks them
    insert_rows([event], returning=True)  # every write records one: the ORM's save cost more than the INSERT
    _seal_after_commit()
    return event


def audit_record_many(events: Sequence[AuditEvent]) -> list[AuditEvent]:
    """Write several events built by audit_event in one INSERT, in the given order (ids ascend), same transaction."""
    if not events:
        return []
    saved = list(events)
    insert_rows(saved, returning=True)
    _seal_after_commit()
    return saved


def _queue_seal() -> None:
    # Services never import tasks (the sealing job calls the services below): audit.apps connects the job.
    events_committed.send(sender=AuditEvent)


def _seal_after_commit() -> None:
    """Announce once per transaction, after it commits, that it wrote events: the sealing job follows."""
    if connection.in_atomic_block and any(entry[1] is _queue_seal for entry in connection.run_on_commit):
        return
    # robust: a broker hiccup must not fail a committed business transaction; the beat job seals later.
    transaction.on_commit(_queue_seal, robust=True)


def _lock_chain(*, wait: bool) -> bool:
    """Serialise sealers (never business transactions); without `wait`, give up if another sealer runs."""
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        if wait:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [SEAL_LOCK_KEY])
            return True
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [SEAL_LOCK_KEY])
        return bool(cursor.fetchone()[0])


def _seal_batch(size: int, *, wait: bool, after_id: int = 0) -> tuple[int, int] | None:
    """Seal up to `size` unsealed events with id > after_id; returns (count, last id) or None if locked out."""
    with transaction.atomic():
        if not _lock_chain(wait=wait):
            return None
        sequence, prev_hash = _chain_head()
        # Only committed rows are visible here, so a row that commits after a higher id simply gets a later
        # sequence: the chain follows commit-visible order, and nothing waits for slow transactions.
        fields = [f for f in HASHED_FIELDS if f != "sequence"]
        # after_id skips what this run already sealed: the partial index still holds those rows' old versions
        # until VACUUM, and rescanning them for every batch made long runs quadratic. Written out (select_rows
        # loads values as the ORM does): every seal job runs it, and building the ORM query cost more CPU.
        key, seq = column(AuditEvent, "pk"), column(AuditEvent, "sequence")
        pending = select_rows(AuditEvent, f"{seq} IS NULL AND {key} > %s", [after_id], key, limit=size)
        updates = []
        for event in pending:
            row = {name: getattr(event, name) for name in fields}
            sequence += 1
            row["sequence"] = sequence
            digest = event_hash(prev_hash, row)
            updates.append((sequence, prev_hash, digest, event.pk))
            prev_hash = digest
        if updates:
            _write_seals(updates)
        return len(updates), (pending[-1].pk if pending else after_id)


def _chain_head() -> tuple[int, str]:
    """The last sealed event's sequence and hash (0 and the genesis hash for an empty chain)."""
    seq, digest = column(AuditEvent, "sequence"), column(AuditEvent, "hash")
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {seq}, {digest} FROM {table_name(AuditEvent)} "  # noqa: S608 (names from metadata)
            f"WHERE {seq} IS NOT NULL ORDER BY {seq} DESC LIMIT 1"
        )
        head = cursor.fetchone()
    return (int(head[0]), str(head[1])) if head else (0, GENESIS_HASH)


def _write_seals(updates: list[tuple[int, str, str, int]]) -> None:
    table = AuditEvent._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # One statement per batch: thousands of single-row UPDATEs cost a round trip each.
            sequences, prevs, hashes, ids = (list(column) for column in zip(*updates, strict=True))
            cursor.execute(
                f"UPDATE {table} AS e SET sequence = v.seq, prev_hash = v.prev, hash = v.hash "  # noqa: S608
                "FROM unnest(%s::bigint[], %s::varchar[], %s::varchar[], %s::bigint[]) AS v(seq, prev, hash, id) "
                "WHERE e.id = v.id AND e.sequence IS NULL",
                [sequences, prevs, hashes, ids],
            )
            sealed = cursor.rowcount
        else:
            cursor.executemany(
                f"UPDATE {table} SET sequence = %s, prev_hash = %s, hash = %s "  # noqa: S608 (table name is ours)
                "WHERE id = %s AND sequence IS NULL",
                updates,
            )
            sealed = len(updates)
    if connection.vendor == "postgresql" and sealed != len(updates):
        # Only sealers write these columns and they hold the chain lock: a mismatch means tampering or a bug.
        raise RuntimeError(f"sealed {sealed} of {len(updates)} events; rolled back")


def audit_chain_seal(*, max_events: int | None = None, wait: bool = True) -> int | None:
    """Seal committed unsealed events into the chain, oldest id first; returns how many were sealed.

    With wait=False (the after-commit job) it returns None at once if another sealer holds the chain, so a
    request never waits for sealing; the running sealer or the next job picks the new events up.
    """
    sealed, after_id = 0, 0
    lock = _sqlite_seal_lock if connection.vendor == "sqlite" else None
    while max_events is None or sealed < max_events:
        size = SEAL_BATCH_SIZE if max_events is None else min(SEAL_BATCH_SIZE, max_events - sealed)
        if lock is not None:
            if not lock.acquire(blocking=wait):
                return None if sealed == 0 else sealed
            try:
                result = _seal_batch(size, wait=wait, after_id=after_id)
            finally:
                lock.release()
        else:
            result = _seal_batch(size, wait=wait, after_id=after_id)
        if result is None:
            return None if sealed == 0 else sealed
        count, after_id = result
        sealed += count
        if count < size:
            break
    # A lower id that committed during this run is not lost: the next run starts again from the lowest.
    return sealed


def audit_chain_anchors_unusable(message: str, *, checked_by: str = "") -> ChainReport:
    """Record a failed check when the signed anchors cannot be trusted (a forged or unreadable anchor file)."""
    report = ChainReport(ok=False, checked=0, last_sequence=None, last_hash="", pending=0, message=message)
    ChainVerification.objects.create(checked_at=timezone.now(), ok=False, message=message, checked_by=checked_by)
    logger.error("audit chain anchors unusable: %s", message)
    return report


def audit_chain_verify(
    *, signed: Sequence[Anchor] = (), checked_by: str = "", progress: Callable[[int], None] | None = None
) -> ChainReport:
    """Recompute the whole chain, compare it with the last verified head and the signed anchors, record the outcome.

    A good check's head is published as a signed anchor (audit/anchors.py) outside the database. `checked_by`
    names who asked (a username, the command or the scheduled job); `progress` hears how many events are checked.
    """
    started = time.monotonic()
    anchor = ChainVerification.objects.filter(ok=True, last_sequence__isnull=False).first()
    report = chain_walk(
        anchor_sequence=anchor.last_sequence if anchor else None,
        anchor_hash=anchor.last_hash if anchor else "",
        signed=signed,
        progress=progress,
    )
    checked_at = timezone.now()
    ChainVerification.objects.create(
        checked_at=checked_at,
        ok=report.ok,
        checked_count=report.checked,
        pending_count=report.pending,
        last_sequence=report.last_sequence,
        last_hash=report.last_hash,
        first_broken_id=report.first_broken_id,
        first_broken_sequence=report.first_broken_sequence,
        message=report.message,
        duration_ms=int((time.monotonic() - started) * 1000),
        checked_by=checked_by[:150],
    )
    if not report.ok:
        logger.error("audit chain broken: %s", report.message)
    elif report.last_sequence is not None:
        # Outside the database: someone able to rewrite both the events and the stored checks still cannot
        # sign a new head without the key.
        anchors.publish(sequence=report.last_sequence, hash=report.last_hash, checked_at=checked_at)
    return report


@transaction.atomic
def chain_verification_request(*, actor: Any) -> VerificationRun:
    """A compliance user asks for a verification now: recorded, then the job runs after commit (audit.apps)."""
    if not can_read_audit(actor):
        raise NotAllowed("Only compliance starts a chain verification.", code="not_compliance")
    total = AuditEvent.objects.aggregate(m=Max("sequence"))["m"] or 0
    run = VerificationRun.objects.create(
        token=secrets.token_hex(16), requested_by=actor.get_username(), requested_at=timezone.now(), total=total
    )
    audit_record(
        action=actions.CHAIN_VERIFY_REQUEST,
        obj=run,
        object_repr=f"Chain verification requested by {run.requested_by}",
        after={"events_sealed": total},
        actor=actor,
    )
    transaction.on_commit(lambda: verification_requested.send(sender=VerificationRun, token=run.token), robust=True)
    return run


def chain_verification_run(token: str) -> VerificationRun | None:
    """The job's part: seal, verify with progress saved on the run, and link the outcome; idempotent per run."""
    run = VerificationRun.objects.filter(token=token).first()
    if run is None or run.finished_at is not None:
        return run
    audit_chain_seal()
    total = AuditEvent.objects.aggregate(m=Max("sequence"))["m"] or 0
    VerificationRun.objects.filter(pk=run.pk).update(total=total)

    def progress(checked: int) -> None:
        VerificationRun.objects.filter(pk=run.pk).update(checked=checked)

    try:
        report = audit_chain_verify(signed=anchors.configured_anchors(), checked_by=run.requested_by, progress=progress)
    except anchors.AnchorError as exc:
        report = audit_chain_anchors_unusable(str(exc), checked_by=run.requested_by)
    verification = ChainVerification.objects.first()
    VerificationRun.objects.filter(pk=run.pk).update(
        finished_at=timezone.now(),
        checked=report.checked,
        verification=verification,
        error="" if report.ok else report.message,
    )
    run.refresh_from_db()
    return run
