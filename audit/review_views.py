"""Compliance screens that write: the exception queue's review steps, a chain verification, the daily reports."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from audit import presentation, review_services
from audit.access import can_read_audit
from audit.case_summaries import shown_summaries, shown_summary
from audit.event_table import event_table
from audit.models import AuditEvent, DailyReport, ExceptionCase, VerificationRun
from audit.queue import QueueFilter, queue_cases, queue_page
from audit.services import chain_verification_request
from audit.views import compliance_context, compliance_view, parse_before
from casino.api_errors import screen_error
from casino.errors import DomainError
from casino.users import request_user


def compliance_action(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Signed in, POST only (with Django's CSRF check), allowed to read the trail; the service checks the rest."""

    @login_required
    @require_POST
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not can_read_audit(request.user):
            raise PermissionDenied("The compliance screens need the compliance role.")
        return view(request, *args, **kwargs)

    return wrapper


def _back(request: HttpRequest, fallback: str) -> HttpResponseRedirect:
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=False):
        target = fallback
    return HttpResponseRedirect(target or fallback)


@compliance_view
def exception_queue(request: HttpRequest) -> HttpResponse:
    form = QueueFilter(request.GET or {"status": "open"})
    page = queue_page(queue_cases(form), before=parse_before(request))
    summaries = shown_summaries(page.cases)
    params = request.GET.copy()
    params.pop("before", None)
    return render(
        request,
        "audit/exception_queue.html",
        {
            "title": "Exception queue",
            "form": form,
            "page": page,
            "rows": [(case, summaries[case.id]) for case in page.cases],
            "query": params.urlencode(),
            **compliance_context(request),
        },
    )


@compliance_view
def exception_detail(request: HttpRequest, case_id: int) -> HttpResponse:
    case = get_object_or_404(ExceptionCase, id=case_id)
    event = AuditEvent.objects.filter(id=case.event_id).first() if case.event_id else None
    return render(
        request,
        "audit/exception_detail.html",
        {
            "title": f"Exception {case.id}",
            "case": case,
            "summary": shown_summary(case, event),
            "event": event,
            "event_facts": presentation.facts(event.after) if event is not None else [],
            "event_table": event_table(event) if event is not None else None,
            "notes": list(case.notes.all()),
            "own": review_services.caused_by(case, request.user),
            **compliance_context(request),
        },
    )


def _review_step(
    request: HttpRequest, case_id: int, step: Callable[..., Any], done: str, **fields: Any
) -> HttpResponse:
    case = get_object_or_404(ExceptionCase, id=case_id)
    url = reverse("audit:exception-detail", args=[case.id])
    try:
        step(case=case, actor=request_user(request), **fields)
    except DomainError as exc:
        shown = screen_error(exc)
        messages.error(request, shown.message)
        return HttpResponseRedirect(url)
    messages.success(request, done)
    return HttpResponseRedirect(url)


@compliance_action
def exception_start(request: HttpRequest, case_id: int) -> HttpResponse:
    return _review_step(request, case_id, review_services.exception_review_start, "You are reviewing this exception.")


@compliance_action
def exception_note(request: HttpRequest, case_id: int) -> HttpResponse:
    return _review_step(
        request, case_id, review_services.exception_note_add, "Note added.", text=request.POST.get("text", "")
    )


@compliance_action
def exception_sign_off(request: HttpRequest, case_id: int) -> HttpResponse:
    return _review_step(
        request,
        case_id,
        review_services.exception_sign_off,
        "Signed off and closed.",
        text=request.POST.get("text", ""),
    )


@compliance_action
def chain_verify(request: HttpRequest) -> HttpResponse:
    try:
        run = chain_verification_request(actor=request_user(request))
    except DomainError as exc:
        messages.error(request, screen_error(exc).message)
        return _back(request, reverse("audit:event-list"))
    back = _back(request, reverse("audit:event-list"))
    separator = "&" if "?" in back.url else "?"
    return HttpResponseRedirect(f"{back.url}{separator}verify={run.token}")


@compliance_view
def chain_verify_status(request: HttpRequest, token: str) -> HttpResponse:
    run = VerificationRun.objects.filter(token=token).select_related("verification").first()
    if run is None:
        return JsonResponse({"error": {"code": "not_found", "message": "No such verification."}}, status=404)
    done = run.finished_at is not None
    if done:
        outcome = run.verification
        text = (
            f"Finished: {outcome.message}" if outcome is not None and outcome.ok else f"Finished: BROKEN — {run.error}"
        )
    else:
        text = f"{run.checked} of {run.total} events checked…"
    return JsonResponse({"done": done, "checked": run.checked, "total": run.total, "text": text})


@compliance_view
def daily_reports(request: HttpRequest) -> HttpResponse:
    reports = DailyReport.objects.defer("pdf", "csv_text")[:120]
    return render(
        request,
        "audit/daily_reports.html",
        {"title": "Daily compliance reports", "reports": reports, **compliance_context(request)},
    )


def _report(day: str) -> DailyReport:
    try:
        wanted = dt.date.fromisoformat(day)
    except ValueError:
        raise Http404("Not a gaming day.") from None
    return get_object_or_404(DailyReport, gaming_day=wanted)


@compliance_view
def daily_report(request: HttpRequest, day: str) -> HttpResponse:
    report = _report(day)
    return render(
        request,
        "audit/daily_report.html",
        {"title": f"Compliance summary {report.gaming_day}", "report": report, "data": report.data,
         **compliance_context(request)},
    )  # fmt: skip


@compliance_view
def daily_report_csv(request: HttpRequest, day: str) -> HttpResponse:
    report = _report(day)
    response = HttpResponse(report.csv_text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="compliance-{report.gaming_day}.csv"'
    return response


@compliance_view
def daily_report_pdf(request: HttpRequest, day: str) -> HttpResponse:
    report = _report(day)
    response = HttpResponse(bytes(report.pdf), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="compliance-{report.gaming_day}.pdf"'
    return response
