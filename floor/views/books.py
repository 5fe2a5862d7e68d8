"""The shift sheet (floor, compliance, count team): each table's inventories, fills and credits, drop, count win
beside system win; the forms that record them (one service each), the close, and corrections of a closed shift."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from casino.api_errors import http_status
from casino.errors import DomainError
from casino.users import request_user
from floor.access import require_books_reader
from floor.chips import denominations
from floor.forms import chip_label, parse_chips, parse_dollars
from floor.gaming_day import ShiftSpan, shift_codes, shift_of
from floor.models import ChipCount, ChipSlip, Correction, Shift
from floor.params import parse_day
from floor.selectors.books import shift_books, shift_corrections
from floor.services.books import drop_record, inventory_record, slip_record, slip_void
from floor.services.corrections import shift_correct
from floor.services.shifts import shift_close, shift_span_or_error
from floor.signatures import dealer_signature
from floor.views.common import FormError, floor_page, form_key, nav_context
from tables.models import Table


def _span(request: HttpRequest) -> ShiftSpan:
    """The shift asked for (?day=&shift=), else the one running now."""
    if not request.GET.get("day") and not request.GET.get("shift"):
        return shift_of(timezone.now())
    return shift_span_or_error(parse_day(request.GET.get("day"), "day"), request.GET.get("shift") or shift_codes()[0])


def _sheet(request: HttpRequest, span: ShiftSpan, error: FormError | None = None, status: int = 200) -> HttpResponse:
    shift = Shift.objects.filter(gaming_day=span.gaming_day, code=span.code).first()
    books = shift_books(span, shift)
    idle_tables = [table.table for table in books if not table.has_activity]
    context = {
        "span": span,
        "shift": shift,
        "closed": shift is not None and shift.is_closed,
        "books": [table for table in books if table.has_activity],
        "idle_tables": idle_tables,
        "start_table_id": _start_table_id(request, idle_tables, error),
        "all_tables": [table.table for table in books],
        "corrections": shift_corrections(shift),
        "denominations": [(str(value), chip_label(value)) for value in denominations()],
        "inventory_kinds": ChipCount.Kind.choices,
        "slip_kinds": ChipSlip.Kind.choices,
        "correction_items": Correction.Item.choices,
        "shift_codes": shift_codes(),
        "error": error,
        "posted": request.POST if error else QueryDict(),
        "ended": span.ends_at <= timezone.now(),
        **nav_context(request.user),
    }
    return render(request, "floor/shift.html", context, status=status)


def _start_table_id(request: HttpRequest, idle_tables: list[Table], error: FormError | None) -> int | str:
    """The table of a refused "Start a table's books" post (a table without records yet), so that form shows the
    error and keeps what was typed; "" otherwise."""
    if error is None:
        return ""
    raw = request.POST.get("table_id", "")
    return next((table.pk for table in idle_tables if str(table.pk) == raw), "")


@floor_page(require_books_reader)
@require_GET
def shift_sheet(request: HttpRequest) -> HttpResponse:
    try:
        span = _span(request)
    except DomainError as exc:
        return _sheet(request, shift_of(timezone.now()), FormError("shift", exc.message), status=400)
    return _sheet(request, span)


def _table(data: QueryDict) -> Table:
    raw = (data.get("table_id") or "").strip()
    table = Table.objects.filter(pk=int(raw)).first() if raw.isdigit() and len(raw) < 19 else None
    if table is None:
        raise DomainError("choose a table", code="unknown_table", field="table")
    return table


def _inventory(request: HttpRequest, day: date, code: str) -> str:
    table = _table(request.POST)
    count = inventory_record(
        day=day,
        shift_code=code,
        table=table,
        kind=request.POST.get("kind", ""),
        chips=parse_chips(request.POST),
        actor=request_user(request),
    )
    return f"{table.name}: {count.get_kind_display().lower()} recorded."


def _slip(request: HttpRequest, day: date, code: str) -> str:
    table = _table(request.POST)
    slip = slip_record(
        day=day,
        shift_code=code,
        table=table,
        kind=request.POST.get("kind", ""),
        chips=parse_chips(request.POST),
        actor=request_user(request),
        dealer_signer=dealer_signature(
            request, request.POST.get("dealer_username", ""), request.POST.get("dealer_password", "")
        ),
    )
    return f"{table.name}: {slip.kind} signed by {slip.dealer_signer} and {slip.floor_signer}."


def _void(request: HttpRequest, day: date, code: str) -> str:
    raw = request.POST.get("slip_id") or ""
    slip = ChipSlip.objects.filter(pk=int(raw)).first() if raw.isdigit() and len(raw) < 19 else None
    if slip is None:
        raise DomainError("choose a slip", code="unknown_slip", field="slip")
    slip_void(slip=slip, reason=request.POST.get("reason", ""), actor=request_user(request))
    return f"The {slip.kind} is void."


def _drop(request: HttpRequest, day: date, code: str) -> str:
    table = _table(request.POST)
    drop_record(
        day=day,
        shift_code=code,
        table=table,
        cash_cents=parse_dollars(request.POST.get("cash"), "cash_cents"),
        markers_cents=parse_dollars(request.POST.get("markers"), "markers_cents"),
        actor=request_user(request),
    )
    return f"{table.name}: drop recorded."


def _recorded_shift(day: date, code: str) -> Shift:
    shift = Shift.objects.filter(gaming_day=day, code=code).first()
    if shift is None:
        raise DomainError("nothing was recorded for this shift", code="shift_not_started", field="shift")
    return shift


def _close(request: HttpRequest, day: date, code: str) -> str:
    shift = _recorded_shift(day, code)
    shift_close(shift=shift, actor=request_user(request))
    return f"Shift {shift} is closed."


def _correct(request: HttpRequest, day: date, code: str) -> str:
    shift = _recorded_shift(day, code)
    table = _table(request.POST)
    item = request.POST.get("item", "")
    slip_raw = request.POST.get("slip_id") or ""
    shift_correct(
        shift=shift,
        table=table,
        item=item,
        reason=request.POST.get("reason", ""),
        actor=request_user(request),
        chips=parse_chips(request.POST) if item != "drop" else None,
        cash_cents=parse_dollars(request.POST.get("cash"), "cash_cents") if item == "drop" else None,
        markers_cents=parse_dollars(request.POST.get("markers"), "markers_cents") if item == "drop" else None,
        slip_id=int(slip_raw) if slip_raw.isdigit() and len(slip_raw) < 19 else None,
    )
    return f"{table.name}: {item} corrected."


ACTIONS: dict[str, Callable[[HttpRequest, date, str], str]] = {
    "inventory": _inventory,
    "slip": _slip,
    "void": _void,
    "drop": _drop,
    "close": _close,
    "correct": _correct,
}


@floor_page(require_books_reader)
@require_POST
def shift_action(request: HttpRequest, day: str, code: str, action: str) -> HttpResponse:
    """One form on the shift sheet: one service; errors are shown beside the form and change nothing."""
    try:
        span = shift_span_or_error(parse_day(day, "day"), code)
    except DomainError as exc:
        return _sheet(request, shift_of(timezone.now()), FormError("shift", exc.message), status=400)
    run = ACTIONS.get(action)
    if run is None:
        return _sheet(request, span, FormError("shift", f"there is no action {action!r}"), status=404)
    try:
        done = run(request, span.gaming_day, span.code)
    except DomainError as exc:
        return _sheet(request, span, FormError(_form_key(action, request.POST), exc.message), status=http_status(exc))
    messages.success(request, done)
    return redirect(f"{reverse('floor:shift')}?{urlencode({'day': span.gaming_day.isoformat(), 'shift': span.code})}")


def _form_key(action: str, data: QueryDict) -> str:
    """Which form on the sheet an error belongs to: the action, the table and the kind or item it was for."""
    if action in ("close", "void"):
        return action if action == "close" else f"void-{data.get('slip_id', '')}"
    return form_key(action, data.get("table_id", ""), data.get("kind") or data.get("item") or "")
