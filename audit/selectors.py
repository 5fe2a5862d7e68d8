"""Reads of the audit trail: keyset pages, a round's timeline, the chain's state and its full verification."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import F, Max, QuerySet
from django.db.models.fields.tuple_lookups import Tuple, TupleLessThan
from django.utils.module_loading import import_string

from audit.anchors import Anchor
from audit.chain import GENESIS_HASH, HASHED_FIELDS, event_hash
from audit.models import AuditEvent, ChainVerification

VERIFY_CHUNK = 10_000


# Newest first by server time; id breaks ties. Keyset pages continue below the (occurred_at, id) of a row.
LIST_ORDER = ("-occurred_at", "-id")


@dataclass(frozen=True)
class Page:
    """One keyset page, newest first; `next_before` (an event id) continues after the last row, None at the end."""

    events: list[AuditEvent]
    next_before: int | None


def _below(queryset: QuerySet[AuditEvent], occurred_at: dt.datetime, event_id: int) -> QuerySet[AuditEvent]:
    return queryset.filter(TupleLessThan(Tuple(F("occurred_at"), F("id")), (occurred_at, event_id)))


def events_before(queryset: QuerySet[AuditEvent], before: int | None) -> QuerySet[AuditEvent]:
    """The events listed after event `before` (an unknown id continues nowhere: an empty result)."""
    if before is None:
        return queryset
    occurred_at = AuditEvent.objects.filter(id=before).values_list("occurred_at", flat=True).first()
    if occurred_at is None:
        return queryset.none()
    return _below(queryset, occurred_at, before)


def event_page(queryset: QuerySet[AuditEvent], *, before: int | None = None, size: int = 50) -> Page:
    """Keyset pagination: the cost of page 10,000 is the cost of page 1 (no OFFSET)."""
    rows = list(events_before(queryset, before).order_by(*LIST_ORDER)[: size + 1])
    more = len(rows) > size
    rows = rows[:size]
    return Page(events=rows, next_before=rows[-1].id if more and rows else None)


def event_chunks(queryset: QuerySet[AuditEvent], *, chunk: int = 2000) -> Iterator[list[dict[str, Any]]]:
    """Every matching event as value dicts, in list order, a bounded chunk at a time (for streaming exports)."""
    page = queryset
    while True:
        rows: list[dict[str, Any]] = [dict(row) for row in page.order_by(*LIST_ORDER).values()[:chunk]]
        if not rows:
            return
        yield rows
        if len(rows) < chunk:
            return
        page = _below(queryset, rows[-1]["occurred_at"], rows[-1]["id"])


def in_order(queryset: QuerySet[AuditEvent]) -> list[AuditEvent]:
    """The events in the order they happened (sealed order, then unsealed by id): a timeline."""
    return sorted(queryset.order_by("id"), key=lambda e: (e.sequence is None, e.sequence or 0, e.id))


def round_timeline(round_id: int) -> list[AuditEvent]:
    """Every event of a round in the order it happened."""
    return in_order(AuditEvent.objects.filter(round_id=round_id))


def round_verdict(round_id: int) -> dict[str, Any] | None:
    """The replay verdict for a round from the provider named in AUDIT_ROUND_VERDICT, or None if none is set.

    The provider is a function (round_id: int) -> {"ok": bool, "differences": [...]} owned by the app that
    knows rounds; audit names it in settings instead of importing that app.
    """
    path = getattr(settings, "AUDIT_ROUND_VERDICT", "")
    if not path:
        return None
    try:
        provider = import_string(path)
    except ImportError:
        return None
    verdict = provider(round_id)
    return dict(verdict) if verdict is not None else None


@dataclass(frozen=True)
class ChainState:
    sealed: int
    last_sequence: int | None
    pending: int
    oldest_pending_at: dt.datetime | None
    last_check: ChainVerification | None


def chain_state() -> ChainState:
    """Cheap figures for the screens (indexed lookups only); the full check is the periodic verification."""
    last_sequence = AuditEvent.objects.aggregate(m=Max("sequence"))["m"]
    pending = AuditEvent.objects.filter(sequence__isnull=True)
    oldest = pending.order_by("id").values_list("occurred_at", flat=True).first()
    return ChainState(
        sealed=last_sequence or 0,
        last_sequence=last_sequence,
        pending=pending.count(),
        oldest_pending_at=oldest,
        last_check=ChainVerification.objects.first(),
    )


@dataclass(frozen=True)
class ChainReport:
    ok: bool
    checked: int
    last_sequence: int | None
    last_hash: str
    pending: int
    first_broken_id: int | None = None
    first_broken_sequence: int | None = None
    message: str = ""


def chain_walk(
    *,
    anchor_sequence: int | None = None,
    anchor_hash: str = "",
    signed: Sequence[Anchor] = (),
    progress: Callable[[int], None] | None = None,
) -> ChainReport:
    """Recompute every link in sequence order and name the first broken one.

    A link is broken when a sequence number is missing, when prev_hash is not the previous event's hash, or
    when the hash does not match the event's contents. `anchor_*` is the head a previous check found good:
    a chain now shorter than it, or with another hash there, was cut or rewritten. `signed` are the heads
    signed outside the database (audit/anchors.py), checked the same way: the stored checks can be rewritten
    by the database's owner, the signed heads cannot.
    """
    prev_hash = GENESIS_HASH
    expected = 1
    fields = (*HASHED_FIELDS, "prev_hash", "hash")
    by_sequence: dict[int, list[Anchor]] = {}
    for anchor in signed:
        by_sequence.setdefault(anchor.sequence, []).append(anchor)
    pending = AuditEvent.objects.filter(sequence__isnull=True).count()

    def broken(row: dict[str, Any] | None, message: str) -> ChainReport:
        return ChainReport(
            ok=False,
            checked=expected - 1,
            last_sequence=expected - 1 or None,
            last_hash=prev_hash,
            pending=pending,
            first_broken_id=row["id"] if row else None,
            first_broken_sequence=row["sequence"] if row else expected,
            message=message,
        )

    while True:
        rows = list(
            AuditEvent.objects.filter(sequence__gte=expected).order_by("sequence").values(*fields)[:VERIFY_CHUNK]
        )
        for row in rows:
            where = f"event id {row['id']} (sequence {row['sequence']})"
            if row["sequence"] != expected:
                return broken(row, f"sequence {expected} is missing: the next sealed event is {where}")
            if row["prev_hash"] != prev_hash:
                return broken(row, f"{where}: prev_hash does not match the hash of sequence {expected - 1}")
            if event_hash(prev_hash, row) != row["hash"]:
                return broken(row, f"{where}: hash does not match the event's contents (edited after sealing)")
            if anchor_sequence is not None and expected == anchor_sequence and row["hash"] != anchor_hash:
                return broken(row, f"{where}: hash differs from the one verified earlier (chain rewritten)")
            for anchor in by_sequence.get(expected, ()):
                if row["hash"] != anchor.hash:
                    return broken(
                        row, f"{where}: hash differs from the anchor signed at {anchor.checked_at} (chain rewritten)"
                    )
            prev_hash = row["hash"]
            expected += 1
        if progress is not None:
            progress(expected - 1)
        if len(rows) < VERIFY_CHUNK:
            break
    last = expected - 1
    if anchor_sequence is not None and last < anchor_sequence:
        return broken(None, f"events after sequence {last} are missing (sequence {anchor_sequence} was verified)")
    if by_sequence and last < max(by_sequence):
        newest = max(signed, key=lambda anchor: anchor.sequence)
        return broken(
            None,
            f"events after sequence {last} are missing "
            f"(the anchor signed at {newest.checked_at} names sequence {newest.sequence})",
        )
    stray = AuditEvent.objects.filter(sequence__isnull=True).exclude(hash="").order_by("id").first()
    if stray is not None:
        row = {"id": stray.id, "sequence": None}
        return broken(row, f"event id {stray.id} has a hash but no sequence")
    return ChainReport(
        ok=True,
        checked=last,
        last_sequence=last or None,
        last_hash=prev_hash if last else "",
        pending=pending,
        message=f"{last} events verified"
        + (f"; {len(signed)} signed anchors match" if signed else "")
        + (f"; {pending} not yet sealed" if pending else ""),
    )
