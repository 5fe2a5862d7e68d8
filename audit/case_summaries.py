"""An exception case's summary as the screens show it, worked out when read: a case its event declared is described
again from that event with today's wording, so a summary stored before nested money read as dollars ("Paid: seat 1:
125000") shows "$1,250.00". The stored summary is never rewritten."""

from __future__ import annotations

from collections.abc import Iterable

from audit.exception_scan import declared_key, declared_summary
from audit.models import AuditEvent, ExceptionCase


def shown_summaries(cases: Iterable[ExceptionCase]) -> dict[int, str]:
    """Each case's summary to show, by case id (one query for the events of the declared ones)."""
    cases = list(cases)
    declared = [case for case in cases if case.event_id and case.key == declared_key(case.event_id)]
    events = AuditEvent.objects.in_bulk([case.event_id for case in declared])
    shown = {case.id: case.summary for case in cases}
    for case in declared:
        event = events.get(case.event_id)
        if event is not None:
            shown[case.id] = declared_summary(event)
    return shown


def shown_summary(case: ExceptionCase, event: AuditEvent | None) -> str:
    """One case's summary to show, its event already read (None: the stored summary)."""
    if event is not None and case.key == declared_key(event.id):
        return declared_summary(event)
    return case.summary
