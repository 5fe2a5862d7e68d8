"""Shifts: opened by their first record, closed by a floor supervisor once every table's books are complete; the
close stores each table's count win beside its system win, flagged beyond the tolerance."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.services import audit_record
from casino.errors import DomainError, WrongPhase
from floor import actions
from floor.access import require_floor_writer
from floor.gaming_day import ShiftSpan, gaming_day, shift_codes, shift_span
from floor.models import Shift, ShiftTableResult
from floor.selectors.books import TableBooks, shift_books


def shift_span_or_error(day: date, code: str) -> ShiftSpan:
    """The configured shift `code` of gaming day `day`, or a clear error naming the shifts there are."""
    try:
        return shift_span(day, code)
    except KeyError:
        names = ", ".join(shift_codes())
        raise DomainError(
            f"there is no shift {code!r}: the shifts are {names}", code="unknown_shift", field="shift"
        ) from None


def shift_for_write(*, day: date, code: str, actor: User) -> Shift:
    """The shift locked for a record (opened, and audited, by its first one); 409 once it is closed.

    Call inside the writing service's transaction.
    """
    span = shift_span_or_error(day, code)
    if span.gaming_day > gaming_day(timezone.now()) + timedelta(days=1):
        raise DomainError(
            f"gaming day {day.isoformat()} is more than a day ahead", code="future_shift", field="gaming_day"
        )
    shift, created = Shift.objects.get_or_create(
        gaming_day=span.gaming_day,
        code=span.code,
        defaults={"starts_at": span.starts_at, "ends_at": span.ends_at, "opened_at": timezone.now()},
    )
    if created:
        audit_record(
            action=actions.SHIFT_OPEN,
            obj=shift,
            after={"gaming_day": day.isoformat(), "shift": code, "starts_at": span.starts_at.isoformat()},
            actor=actor,
        )
    shift = Shift.objects.select_for_update().get(pk=shift.pk)
    if shift.is_closed:
        raise WrongPhase(f"shift {shift} is closed: correct it with a reason instead", code="shift_closed")
    return shift


def result_fields(books: TableBooks) -> dict[str, Any]:
    """A table's stored shift figures from its complete books."""
    count_win = books.count_win_cents
    opening, closing, drop = books.opening, books.closing, books.drop
    if count_win is None or opening is None or closing is None or drop is None:
        raise WrongPhase(f"{books.table.name} lacks its {', '.join(books.missing)}", code="shift_incomplete")
    return {
        "opening_cents": int(opening.total_cents),
        "closing_cents": int(closing.total_cents),
        "fills_cents": books.fills_cents,
        "credits_cents": books.credits_cents,
        "drop_cents": drop.total_cents,
        "count_win_cents": count_win,
        "system_win_cents": books.system.cents,
        "difference_cents": count_win - books.system.cents,
        "flagged": books.flagged,
        "computed_at": timezone.now(),
    }


@transaction.atomic
def shift_close(*, shift: Shift, actor: User) -> Shift:
    """Close a shift that has ended: every table with records or postings needs both inventories and its drop."""
    require_floor_writer(actor, "close a shift")
    shift = Shift.objects.select_for_update().get(pk=shift.pk)
    if shift.is_closed:
        raise WrongPhase(f"shift {shift} is already closed", code="shift_closed")
    if shift.ends_at > timezone.now():
        ends = timezone.localtime(shift.ends_at).strftime("%Y-%m-%d %H:%M")
        raise WrongPhase(f"shift {shift} runs until {ends}: close it after it ends", code="shift_not_over")
    span = ShiftSpan(shift.gaming_day, shift.code, shift.starts_at, shift.ends_at)
    books = [table for table in shift_books(span, shift) if table.has_activity]
    incomplete = [f"{table.table.name} lacks its {', '.join(table.missing)}" for table in books if table.missing]
    if incomplete:
        raise WrongPhase(f"shift {shift} cannot close: " + "; ".join(incomplete), code="shift_incomplete")
    ShiftTableResult.objects.bulk_create(
        ShiftTableResult(shift=shift, table=table.table, **result_fields(table)) for table in books
    )
    shift.status = Shift.Status.CLOSED
    shift.closed_at = timezone.now()
    shift.closed_by = actor
    shift.save(update_fields=["status", "closed_at", "closed_by"])
    audit_record(
        action=actions.SHIFT_CLOSE,
        obj=shift,
        before={"status": Shift.Status.OPEN},
        after={
            "status": shift.status,
            "tables": len(books),
            "count_win_cents": sum(table.count_win_cents or 0 for table in books),
            "system_win_cents": sum(table.system.cents for table in books),
            "flagged": [table.table.name for table in books if table.flagged],
        },
        actor=actor,
    )
    return shift
