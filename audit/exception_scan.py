"""Exception cases from the sealed chain: each event read once, in sequence order, after the last one read.

The scan runs after each sealing job and with the periodic jobs. It reads the chain (sequence order is commit
order, so nothing committed late is skipped), applies audit/exception_rules.py and files each finding as an
ExceptionCase with a key naming what was found: running twice over the same events files nothing new. The
position it has read up to is saved in the same transaction as the cases it filed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from audit import exception_rules as rules
from audit import presentation, providers
from audit.actions import ACTIONS, ExceptionKind
from audit.models import AuditEvent, ExceptionCase, ExceptionScan, SeatDayTotal
from casino import sql
from casino.engine.money import money

SCAN_CHUNK = 2000


def _case(event: AuditEvent, *, key: str, kind: str, summary: str, **fields: Any) -> ExceptionCase:
    caused = [i for i in (event.actor_id, event.approver_id) if i]
    values: dict[str, Any] = {
        "key": key,
        "kind": kind,
        "event_id": event.id,
        "occurred_at": event.occurred_at,
        "gaming_day": providers.gaming_day(event.occurred_at),
        "table_id": event.table_id,
        "table_repr": event.table_repr,
        "round_id": event.round_id,
        "round_repr": event.round_repr,
        "seat_number": event.seat_number,
        "caused_by": event.actor_username,
        "caused_by_ids": caused,
        "summary": summary[:300],
        "created_at": timezone.now(),
    }
    values.update(fields)
    return ExceptionCase(**values)


def _declared_case(event: AuditEvent) -> ExceptionCase | None:
    if not event.exception_kind:
        return None
    if event.exception_kind == ExceptionKind.LARGE_PAYOUT and event.action in rules.SETTLEMENT_ACTIONS:
        return None  # per seat below
    return _case(
        event,
        key=declared_key(event.id),
        kind=event.exception_kind,
        summary=declared_summary(event),
        amount_cents=presentation.amount_cents(event.after),
    )


def declared_key(event_id: int) -> str:
    """The key of the case an event declared itself (a void, a ruling, a correction...)."""
    return f"event:{event_id}"


def declared_summary(event: AuditEvent) -> str:
    """What a declared case says happened: the action, what it was about, the reason and the event's after values
    in words (money in dollars), at most 300 characters."""
    text = ACTIONS.label(event.action)
    if not event.round_id and event.object_repr and event.object_repr != event.table_repr:
        # What it was about when no round says so (a home-game hand, a paytable): the queue, the daily report and its
        # CSV and PDF name it ("Home-game hand voided — Freak of Nature 1 game 1 hand 2"), not just the table.
        text = f"{text} — {event.object_repr}"
    detail = presentation.summary(presentation.changed(event.before, event.after), limit=200)
    return f"{text}{': ' + event.reason if event.reason else ''}{' (' + detail + ')' if detail else ''}"[:300]


def _settlement_cases(event: AuditEvent, payouts: dict[int, dict[str, Any]]) -> list[ExceptionCase]:
    """A settlement: its payouts, unless they wait for the floor's approval (nothing is paid yet, and a refusal
    voids the round), and whether it came late."""
    awaiting = (event.after or {}).get("phase") == "awaiting_approval"
    return ([] if awaiting else _payout_cases(event, payouts)) + _late_settlement(event)


def _payout_cases(event: AuditEvent, payouts: dict[int, dict[str, Any]]) -> list[ExceptionCase]:
    """Seats paid at least the reporting threshold, and each seat's total for the gaming day."""
    found: list[ExceptionCase] = []
    if event.round_id is None:
        return found
    seats = payouts.get(event.round_id, {}).get("seats", {})
    day = providers.gaming_day(event.occurred_at)
    for seat, paid in sorted(seats.items()):
        seat = int(seat)
        if paid >= rules.reporting_threshold_cents():
            found.append(
                _case(
                    event,
                    key=f"payout:{event.round_id}:{seat}",
                    kind=ExceptionKind.LARGE_PAYOUT,
                    summary=f"Seat {seat} paid {money(paid)} in {event.round_repr or 'the round'} "
                    f"(reporting threshold {money(rules.reporting_threshold_cents())})",
                    seat_number=seat,
                    amount_cents=paid,
                )
            )
        if paid and event.table_id is not None:
            found += _day_total(event, seat, day, paid)
    return found


def _day_total(event: AuditEvent, seat: int, day: dt.date, paid: int) -> list[ExceptionCase]:
    if event.table_id is None:  # a settlement always names its table; nothing to add up without one
        return []
    after = _add_to_day_total(event.table_id, seat, day, paid)
    before = after - paid
    threshold = rules.cash_reporting_threshold_cents()
    if before < threshold <= after:
        return [
            _case(
                event,
                key=f"cash:{event.table_id}:{seat}:{day.isoformat()}",
                kind=ExceptionKind.CASH_REPORTING,
                summary=f"Seat {seat} at {event.table_repr or 'the table'} has been paid {money(after)} in gaming "
                f"day {day.isoformat()} (cash-reporting threshold {money(threshold)})",
                seat_number=seat,
                amount_cents=after,
            )
        ]
    return []


def _add_to_day_total(table_id: int, seat: int, day: dt.date, paid: int) -> int:
    """Add `paid` to the seat's total for the day (the row made if it is the day's first payment); returns the new
    total. One upsert, written out: the ORM's get_or_create and F() update were three statements a paid seat and
    about 1.5 ms of CPU. Scans run one at a time (the scan row's lock), so the total read back is this scan's."""
    model = SeatDayTotal
    keys = ", ".join(sql.column(model, name) for name in ("table_id", "seat_number", "gaming_day"))
    paid_column = sql.column(model, "paid_cents")
    statement = (
        f"INSERT INTO {sql.table(model)} ({keys}, {paid_column}) VALUES (%s, %s, %s, %s) "  # noqa: S608 (metadata)
        f"ON CONFLICT ({keys}) DO UPDATE SET {paid_column} = {sql.table(model)}.{paid_column} + EXCLUDED.{paid_column} "
        f"RETURNING {paid_column}"
    )
    with connection.cursor() as cursor:
        cursor.execute(statement, [table_id, seat, day, paid])
        return int(cursor.fetchone()[0])


def _rows_recorded_at(round_id: int) -> dt.datetime | None:
    """When the round's rows were last recorded (None if never). Written out: the scan asks once a settled round,
    and building the ORM query cost more CPU than the index read."""
    at, key, round_column = (sql.column(AuditEvent, name) for name in ("occurred_at", "pk", "round_id"))
    codes = sorted(rules.ROWS_ACTIONS)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {at} FROM {sql.table(AuditEvent)} WHERE {round_column} = %s "  # noqa: S608 (metadata)
            f"AND {sql.column(AuditEvent, 'action')} IN ({sql.placeholders(len(codes))}) "
            f"ORDER BY {at} DESC, {key} DESC LIMIT 1",
            [round_id, *codes],
        )
        found = cursor.fetchone()
    return None if found is None else sql.converted(AuditEvent, ["occurred_at"], found)[0]


def _late_settlement(event: AuditEvent) -> list[ExceptionCase]:
    rows = _rows_recorded_at(event.round_id) if event.round_id is not None else None
    if rows is None:
        return []
    delay = (event.occurred_at - rows).total_seconds()
    if delay <= rules.late_settlement_seconds():
        return []
    return [
        _case(
            event,
            key=f"late:{event.round_id}",
            kind=ExceptionKind.LATE_SETTLEMENT,
            summary=f"{event.round_repr or 'Round'} settled {int(delay)} s after its rows were recorded "
            f"(limit {rules.late_settlement_seconds()} s)",
        )
    ]


def _latest(event: AuditEvent, codes: Iterable[str]) -> AuditEvent | None:
    """The newest event of the same object with one of `codes`, up to this event (by the object's index)."""
    return (
        AuditEvent.objects.filter(
            object_type=event.object_type, object_id=event.object_id, action__in=list(codes), id__lte=event.id
        )
        .order_by("-occurred_at", "-id")
        .first()
    )


def _paytable_case(event: AuditEvent) -> list[ExceptionCase]:
    """A paytable put in use with a return outside the band: judged when both the use and the analysis are known.

    The analysis may finish after the paytable is put in use (it is a job), so either event can be the second.
    """
    if event.action in rules.PAYTABLE_IN_USE_ACTIONS:
        activation, analysis = event, _latest(event, rules.PAYTABLE_RETURN_ACTIONS)
    else:
        use = _latest(event, (*rules.PAYTABLE_IN_USE_ACTIONS, *rules.PAYTABLE_OUT_OF_USE_ACTIONS))
        if use is None or use.action not in rules.PAYTABLE_IN_USE_ACTIONS:
            return []
        activation, analysis = use, event
    if analysis is None:
        return []  # the analysis event, when it comes, decides
    after = analysis.after if isinstance(analysis.after, dict) else {}
    value = rules.parse_return(after.get("return"))
    low, high = rules.paytable_return_band()
    if value is None or rules.return_in_band(value):
        return []
    return [
        _case(
            activation,
            key=f"paytable:{activation.id}",
            kind=ExceptionKind.PAYTABLE_RETURN,
            summary=f"{activation.object_repr or 'A paytable'} put in use"
            f"{' on ' + activation.table_repr if activation.table_repr else ''}: it returns {float(value):.4%} "
            f"(band {float(low):.2%}–{float(high):.2%})",
        )
    ]


def cases_for(events: Iterable[AuditEvent]) -> list[ExceptionCase]:
    """Every case the rules find in these events (in order); the cash-reporting totals are updated as they go."""
    events = list(events)
    paying = rules.SETTLEMENT_ACTIONS | rules.PAYOUT_APPROVAL_ACTIONS
    settled = [e.round_id for e in events if e.action in paying and e.round_id]
    payouts = providers.round_payouts(settled)
    found: list[ExceptionCase] = []
    for event in events:
        declared = _declared_case(event)
        if declared is not None:
            found.append(declared)
        if event.action in rules.SETTLEMENT_ACTIONS:
            found += _settlement_cases(event, payouts)
        elif event.action in rules.PAYOUT_APPROVAL_ACTIONS:
            found += _payout_cases(event, payouts)
        elif event.action in rules.PAYTABLE_IN_USE_ACTIONS or event.action in rules.PAYTABLE_RETURN_ACTIONS:
            found += _paytable_case(event)
    return found


def _locked_position() -> ExceptionScan:
    """The scan's saved position, locked (scans run one at a time); made on the first scan. Written out as the
    events' read below: the scan runs after every seal job, and the ORM's statements were most of its own cost."""
    found = sql.select_rows(ExceptionScan, f"{sql.column(ExceptionScan, 'pk')} = %s", [1], for_update=True)
    if found:
        return found[0]
    scan, _ = ExceptionScan.objects.select_for_update().get_or_create(pk=1)
    return scan


def exceptions_scan(*, max_events: int | None = None) -> int:
    """Read sealed events after the saved position and file their cases; returns how many cases were filed."""
    filed = 0
    read = 0
    while max_events is None or read < max_events:
        with transaction.atomic():
            scan = _locked_position()
            size = SCAN_CHUNK if max_events is None else min(SCAN_CHUNK, max_events - read)
            sequence = sql.column(AuditEvent, "sequence")
            events = sql.select_rows(AuditEvent, f"{sequence} > %s", [scan.last_sequence], sequence, limit=size)
            if not events:
                return filed
            cases = cases_for(events)
            if cases:
                keys = [case.key for case in cases]
                known = set(ExceptionCase.objects.filter(key__in=keys).values_list("key", flat=True))
                ExceptionCase.objects.bulk_create(cases, ignore_conflicts=True)
                filed += len(set(keys) - known)
            scan.last_sequence = events[-1].sequence or scan.last_sequence
            scan.updated_at = timezone.now()
            sql.update_rows([scan], ["last_sequence", "updated_at"])
        read += len(events)
        if len(events) < size:
            break
    return filed
