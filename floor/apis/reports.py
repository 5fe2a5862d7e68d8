"""Reports API (floor and compliance): Triple Draw win and hold per table and per grouping, hold over time, handle
by hour of day, home-game tables. Every figure comes from the summary rows (floor.selectors.reports)."""

from __future__ import annotations

from datetime import date

from django.utils.decorators import method_decorator
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.db_router import replica_reads
from casino.errors import DomainError
from floor.access import require_report_reader
from floor.apis.schemas import (
    GroupReportSerializer,
    HoldSeriesSerializer,
    HomeReportSerializer,
    HoursReportSerializer,
    TablesReportSerializer,
)
from floor.gaming_day import shift_codes
from floor.params import GROUPINGS, ReportQuery, grouping, report_query
from floor.selectors.reports import group_report, hold_series, home_report, hours_of_day, table_report
from tables.models import TableType

# Text without NUL characters, which floor.params refuses (400): the schema says so, so clients and fuzzers know.
TEXT = {"type": "string", "pattern": "^[^\\u0000]*$"}
FILTERS = [
    OpenApiParameter("from", OpenApiTypes.DATE, required=True, description="first gaming day (YYYY-MM-DD)"),
    OpenApiParameter("to", OpenApiTypes.DATE, required=True, description="last gaming day, inclusive"),
    OpenApiParameter("table", OpenApiTypes.INT, description="one table (id)"),
    OpenApiParameter("type", OpenApiTypes.STR, enum=TableType.values, description="table type code"),
    OpenApiParameter("pit", TEXT, description="pit name"),
    OpenApiParameter("dealer", TEXT, description="dealer username"),
    OpenApiParameter("shift", OpenApiTypes.STR, enum=shift_codes(), description="shift code"),
]


def _key(value: object) -> str:
    return value.isoformat() if isinstance(value, date) else str(value)


def _query(request: Request) -> ReportQuery:
    return report_query(request.query_params)


class ReportApi(APIView):
    """A report: the role is checked on the primary, then the report's reads may be a little stale (the replica)."""

    def initial(self, request: Request, *args: object, **kwargs: object) -> None:
        super().initial(request, *args, **kwargs)  # authentication, permissions, throttles
        require_report_reader(request.user)


@method_decorator(replica_reads, name="get")
class TablesReportApi(ReportApi):
    @extend_schema(
        parameters=FILTERS,
        responses={200: TablesReportSerializer},
        summary="Triple Draw win, hold and theoretical hold with its 95 % band, per table, over gaming days",
    )
    def get(self, request: Request) -> Response:
        report = table_report(_query(request))
        return Response(
            {
                "rows": [{"table_id": row.key, "table": row.label, **row.figures.to_dict()} for row in report.rows],
                "totals": report.totals.to_dict(),
            }
        )


@method_decorator(replica_reads, name="get")
class GroupReportApi(ReportApi):
    @extend_schema(
        parameters=[*FILTERS, OpenApiParameter("by", OpenApiTypes.STR, enum=list(GROUPINGS), description="grouping")],
        responses={200: GroupReportSerializer},
        summary="Triple Draw figures per table, type, pit, dealer, shift or gaming day",
    )
    def get(self, request: Request) -> Response:
        query = _query(request)
        by = grouping(request.query_params.get("by"))
        report = group_report(query, by)
        return Response(
            {
                "by": by,
                "rows": [{"key": _key(row.key), "label": row.label, **row.figures.to_dict()} for row in report.rows],
                "totals": report.totals.to_dict(),
            }
        )


@method_decorator(replica_reads, name="get")
class HoldSeriesApi(ReportApi):
    @extend_schema(
        parameters=[*FILTERS, OpenApiParameter("by", OpenApiTypes.STR, enum=["day", "shift"], description="period")],
        responses={200: HoldSeriesSerializer},
        summary="Triple Draw hold against theoretical hold and its 95 % band, per gaming day or shift",
    )
    def get(self, request: Request) -> Response:
        query = _query(request)
        by = request.query_params.get("by") or "day"
        if by not in ("day", "shift"):
            raise DomainError(f"a series goes by day or shift, not {by!r}", code="bad_grouping", field="by")
        points = hold_series(query, by)
        return Response({"by": by, "points": [{"period": p.label, **p.figures.to_dict()} for p in points]})


@method_decorator(replica_reads, name="get")
class HoursReportApi(ReportApi):
    @extend_schema(
        parameters=FILTERS, responses={200: HoursReportSerializer}, summary="Triple Draw handle by hour of day"
    )
    def get(self, request: Request) -> Response:
        return Response({"hours": hours_of_day(_query(request))})


@method_decorator(replica_reads, name="get")
class HomeReportApi(ReportApi):
    @extend_schema(
        parameters=FILTERS,
        responses={200: HomeReportSerializer},
        summary="Home-game tables: hands, games, pots, rake and time charges, hands per hour",
    )
    def get(self, request: Request) -> Response:
        rows, totals = home_report(_query(request))
        return Response({"rows": [row.to_dict() for row in rows], "totals": totals.to_dict()})
