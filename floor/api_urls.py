"""REST API routes of the floor app (mounted under /api/v1/)."""

from django.urls import URLPattern, URLResolver, path

from floor.apis import books, reports, tables

urlpatterns: list[URLPattern | URLResolver] = [
    path("reports/tables/", reports.TablesReportApi.as_view(), name="report-tables"),
    path("reports/groups/", reports.GroupReportApi.as_view(), name="report-groups"),
    path("reports/hold-series/", reports.HoldSeriesApi.as_view(), name="report-hold-series"),
    path("reports/hours/", reports.HoursReportApi.as_view(), name="report-hours"),
    path("reports/home/", reports.HomeReportApi.as_view(), name="report-home"),
    path("floor/shifts/<str:day>/<str:code>/", books.ShiftBooksApi.as_view(), name="shift-books"),
    path("floor/shifts/<str:day>/<str:code>/inventories/", books.InventoryApi.as_view(), name="shift-inventory"),
    path("floor/shifts/<str:day>/<str:code>/slips/", books.SlipApi.as_view(), name="shift-slip"),
    path("floor/shifts/<str:day>/<str:code>/drops/", books.DropApi.as_view(), name="shift-drop"),
    path("floor/shifts/<str:day>/<str:code>/close/", books.ShiftCloseApi.as_view(), name="shift-close"),
    path("floor/shifts/<str:day>/<str:code>/corrections/", books.CorrectionApi.as_view(), name="shift-correction"),
    path("floor/slips/<int:slip_id>/void/", books.SlipVoidApi.as_view(), name="slip-void"),
    path("floor/tables/<int:table_id>/pit/", tables.TablePitApi.as_view(), name="table-pit"),
    path("floor/tables/<int:table_id>/dealer/sign-in/", tables.DealerSignInApi.as_view(), name="dealer-sign-in"),
    path("floor/tables/<int:table_id>/dealer/sign-out/", tables.DealerSignOutApi.as_view(), name="dealer-sign-out"),
]
