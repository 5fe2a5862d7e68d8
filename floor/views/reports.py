"""The reports page (floor and compliance): filters, Triple Draw figures per table and per grouping, home-game
tables, and charts drawn by Chart.js from the same JSON the API serves; and the CSV export of each report."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET

from audit.csv_export import SafeWriter
from casino.api_errors import http_status
from casino.db_router import replica_reads
from casino.errors import DomainError
from floor.access import require_report_reader
from floor.gaming_day import gaming_day, shift_codes
from floor.params import GROUPINGS, ReportQuery, grouping, report_query
from floor.selectors.reports import Figures, group_report, home_report, table_report
from floor.views.common import floor_page, nav_context
from tables.models import Table, TableType

DEFAULT_DAYS = 7
FIGURE_COLUMNS = [
    "rounds",
    "handle_cents",
    "paid_cents",
    "win_cents",
    "theo_win_cents",
    "hold",
    "theo_hold",
    "hold_low",
    "hold_high",
    "outside_band",
]
HOME_COLUMNS = [
    "table_id",
    "table",
    "table_type",
    "hands",
    "games",
    "pots_cents",
    "rake_cents",
    "time_charge_cents",
    "house_cents",
    "hours",
    "hands_per_hour",
    "open_game",
    "middle_cents",
]


def _query(request: HttpRequest) -> ReportQuery:
    return report_query(request.GET, default_days=DEFAULT_DAYS, today=gaming_day(timezone.now()))


def _filters() -> dict[str, Any]:
    """What the filter form offers."""
    return {
        "table_choices": Table.objects.order_by("name").only("pk", "name"),
        "types": TableType.choices,
        "pits": sorted({pit for pit in Table.objects.values_list("pit", flat=True) if pit}),
        "shifts": shift_codes(),
        "groupings": GROUPINGS,
    }


@floor_page(require_report_reader)
@require_GET
@replica_reads  # innermost: sign-in and the role are checked on the primary; the report may be a little stale
def reports_page(request: HttpRequest) -> HttpResponse:
    context: dict[str, Any] = {**_filters(), **nav_context(request.user), "params": request.GET}
    try:
        query = _query(request)
        by = grouping(request.GET.get("by"))
    except DomainError as exc:
        context["error"] = exc
        return render(request, "floor/reports.html", context, status=http_status(exc))
    params = urlencode(query.as_params())
    home_rows, home_totals = home_report(query)
    context.update(
        query=query,
        by=by,
        tables=table_report(query),
        groups=group_report(query, by) if by != "table" else None,
        home_rows=home_rows,
        home_totals=home_totals,
        params_query=params,
        chart_urls={
            "series": f"{reverse('report-hold-series')}?{params}&by={'shift' if query.days <= 3 else 'day'}",
            "tables": f"{reverse('report-tables')}?{params}",
            "hours": f"{reverse('report-hours')}?{params}",
        },
        csv_urls={
            "tables": f"{reverse('floor:reports-csv')}?{params}&report=tables",
            "groups": f"{reverse('floor:reports-csv')}?{params}&report=groups&by={by}",
            "home": f"{reverse('floor:reports-csv')}?{params}&report=home",
        },
    )
    return render(request, "floor/reports.html", context)


def _figure_cells(figures: Figures) -> list[Any]:
    values = figures.to_dict()
    return [values[column] for column in FIGURE_COLUMNS]


def _csv_rows(query: ReportQuery, report: str, by: str) -> Iterator[list[Any]]:
    if report == "home":
        rows, totals = home_report(query)
        yield HOME_COLUMNS
        for row in [*rows, totals]:
            values = row.to_dict()
            yield [values[column] for column in HOME_COLUMNS]
        return
    result = table_report(query) if report == "tables" else group_report(query, by)
    yield ["key", "label", *FIGURE_COLUMNS]
    for report_row in result.rows:
        yield [report_row.key, report_row.label, *_figure_cells(report_row.figures)]
    yield ["", "Total", *_figure_cells(result.totals)]


class _Echo:
    def write(self, value: str) -> str:
        return value


@floor_page(require_report_reader)
@require_GET
@replica_reads
def reports_csv(request: HttpRequest) -> HttpResponseBase:
    """A report as CSV (amounts in cents, holds as fractions): ?report=tables|groups|home plus the page's filters."""
    try:
        query = report_query(request.GET)
        by = grouping(request.GET.get("by"))
        report = request.GET.get("report") or "tables"
        if report not in ("tables", "groups", "home"):
            raise DomainError(f"report is tables, groups or home, not {report!r}", code="bad_report", field="report")
    except DomainError as exc:
        return HttpResponse(f"{exc.message}\n", status=http_status(exc), content_type="text/plain; charset=utf-8")
    writer = SafeWriter(_Echo())  # a table's or group's label is typed by staff: never a spreadsheet formula
    name = f"{report}-{query.first.isoformat()}-{query.last.isoformat()}.csv"
    response = StreamingHttpResponse(
        (writer.writerow(row) for row in _csv_rows(query, report, by)), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
