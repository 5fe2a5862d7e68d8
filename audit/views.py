"""Compliance screens (server-rendered, read-only): event list, detail, round timeline, exceptions, CSV export."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.text import slugify
from django.views.decorators.http import require_safe

from audit import actions, presentation, providers
from audit.access import can_read_audit
from audit.chain_status import chain_status
from audit.csv_export import csv_lines, export_name
from audit.diff import before_after_diff
from audit.event_table import event_table
from audit.filters import filter_events, filter_refusal
from audit.models import AuditEvent, VerificationRun
from audit.search_misses import search_misses
from audit.selectors import event_page, round_timeline, round_verdict
from audit.services import audit_record
from casino.api_errors import screen_error
from casino.db_router import replica_reads

PAGE_SIZE = 50
# Still accepted in links and by the API; the screens offer date-times in the casino's time zone instead.
HIDDEN_FILTERS = ("date_from", "date_to")
# Shown at once; the rest (actor kind, object, exception, correlation id) sit under "More filters".
MAIN_FILTERS = ("since", "until", "table", "round", "game", "actor", "action", "q")
MORE_FILTERS = ("actor_kind", "object_type", "object_id", "exception", "correlation_id")
MAX_EVENT_ID = 2**63 - 1


def compliance_view(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """Signed in, GET/HEAD only, and allowed to read the trail (403 otherwise); reads may use the replica."""

    # Compliance may read a slightly stale copy: the view's reads go to the replica when one is set and fresh.
    stale_tolerant = replica_reads(view)

    @login_required
    @require_safe
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not can_read_audit(request.user):
            raise PermissionDenied("The compliance screens need the compliance role.")
        return stale_tolerant(request, *args, **kwargs)

    return wrapper


def parse_before(request: HttpRequest) -> int | None:
    value = request.GET.get("before", "")
    if not value:
        return None
    # ASCII digits only ("²".isdigit() is true, int("²") fails) and within a bigint, or the query would fail.
    if value.isascii() and value.isdigit() and int(value) <= MAX_EVENT_ID:
        return int(value)
    messages.warning(request, f"Ignored before={value[:20]!r}: not an event id; showing the newest events.")
    return None


def _query_without(request: HttpRequest, *names: str) -> str:
    params = request.GET.copy()
    for name in names:
        params.pop(name, None)
    return params.urlencode()


def _with_round_amounts(events: list[AuditEvent]) -> list[AuditEvent]:
    """Approvals and voids record no amount of their own: show what their round paid (one query for the page)."""
    wanted = [e for e in events if e.round_id and presentation.amount_cents(e.after) is None and e.exception_kind]
    paid = providers.round_payouts(e.round_id for e in wanted if e.round_id)
    for event in wanted:
        round_paid = paid.get(event.round_id or 0)
        if round_paid is not None:
            event.amount_shown = round_paid["paid_cents"]  # type: ignore[attr-defined]
    return events


def _times(summary: dict[str, Any] | None) -> dict[str, Any]:
    """The summary's ISO times as datetimes, so the template shows them in the casino's time zone."""
    if not summary:
        return {}
    names = ("started_at", "rows_recorded_at", "settled_at", "approved_at", "voided_at")
    return {name: parse_datetime(summary[name]) if summary.get(name) else None for name in names}


def compliance_context(request: HttpRequest) -> dict[str, Any]:
    """What every compliance screen shows around its content: the chain's state and the time zone."""
    token = request.GET.get("verify", "")
    unfinished = VerificationRun.objects.filter(token=token, finished_at=None)
    running = token if token.isalnum() and len(token) <= 32 and unfinished.exists() else ""
    return {
        "chain": chain_status(),
        "time_zone_name": timezone.get_current_timezone_name(),
        "can_verify": can_read_audit(request.user),
        "verify_run": running,
    }


def _list(request: HttpRequest, template: str, extra: dict[str, Any]) -> HttpResponse:
    params = request.GET.copy()
    for key, value in extra.get("defaults", {}).items():
        params.setdefault(key, value)
    queryset, form = filter_events(params)
    page = event_page(queryset, before=parse_before(request), size=PAGE_SIZE)
    _with_round_amounts(page.events)
    context = {
        # An empty page says which table, round or game the search named that does not exist, if any.
        "misses": search_misses(params) if not page.events and not form.errors else [],
        "form": form,
        "page": page,
        "query": _query_without(request, "before"),
        "hidden_filters": HIDDEN_FILTERS,
        "main_filters": MAIN_FILTERS,
        "more_filters_used": any(request.GET.get(name) for name in MORE_FILTERS),
        **compliance_context(request),
        **extra,
    }
    return render(request, template, context)


@compliance_view
def event_list(request: HttpRequest) -> HttpResponse:
    return _list(request, "audit/event_list.html", {"title": "Audit events"})


@compliance_view
def event_detail(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(AuditEvent, id=event_id)
    return render(
        request,
        "audit/event_detail.html",
        {"event": event, "diff": before_after_diff(event.before, event.after), "event_table": event_table(event),
         **compliance_context(request)},
    )


@compliance_view
def round_timeline_view(request: HttpRequest, round_id: int) -> HttpResponse:
    events = round_timeline(round_id)
    try:
        verdict = round_verdict(round_id)
        verdict_error = ""
    except Exception as exc:  # a failing replay is a finding to show, not a reason to hide the timeline
        verdict, verdict_error = None, f"{type(exc).__name__}: {exc}"
    summary = providers.round_summary(round_id)
    return render(
        request,
        "audit/round_timeline.html",
        {
            "title": f"Round record {round_id}",
            "summary": summary,
            "summary_times": _times(summary),
            "approvals": [e for e in events if e.exception_kind == "approval"],
            "voids": [e for e in events if e.exception_kind == "void"],
            "round_id": round_id,
            "round_record": providers.has_round_record(),
            "round_repr": next((e.round_repr for e in events if e.round_repr), f"Round {round_id}"),
            "events": _with_round_amounts(events),
            "verdict": verdict,
            "verdict_error": verdict_error,
            **compliance_context(request),
        },
    )


@compliance_view
def round_record_download(request: HttpRequest, round_id: int) -> HttpResponseBase:
    """The round's DESIGN 9 record as a file (what `replay_round` reads; the API's GET /rounds/{id}/export/), named
    after its table and number: "triple-draw-1-round-34-record.json"."""
    record = providers.round_record(round_id)
    if record is None:
        raise Http404(f"No round {round_id}")
    response = JsonResponse(record, json_dumps_params={"indent": 2, "ensure_ascii": False})
    name = f"{slugify(str(record.get('table', ''))) or 'table'}-round-{record.get('round', round_id)}-record.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@compliance_view
def event_export(request: HttpRequest) -> HttpResponseBase:
    """Every event the filter matches at the moment of the request (newer events are left out), streamed."""
    queryset, form = filter_events(request.GET)
    refusal = filter_refusal(form)
    if refusal is not None:
        shown = screen_error(refusal)
        return HttpResponse(f"Invalid filter: {shown.message}", status=shown.status, content_type="text/plain")
    upto = AuditEvent.objects.order_by("-id").values_list("id", flat=True).first() or 0
    with transaction.atomic():
        # Reading the trail in bulk is itself worth a line in the trail.
        audit_record(
            action=actions.AUDIT_EXPORT,
            object_type="audit.auditevent",
            object_repr="CSV export",
            after={"filters": {k: v for k, v in request.GET.items()}, "up_to_id": upto},
        )
    stamp = timezone.now().strftime("%Y%m%d-%H%M%S")
    chosen = queryset.filter(id__lte=upto)
    response = StreamingHttpResponse(csv_lines(chosen), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{export_name(request.GET, chosen, stamp)}"'
    return response
