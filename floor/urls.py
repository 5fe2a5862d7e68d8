"""Floor pages (mounted under /floor/): the live floor view, pits, shift books, reports, the tablet's dealer control."""

from django.urls import path

from floor.views import books, floor_view, reports, tablet

app_name = "floor"

urlpatterns = [
    path("", floor_view.floor_home, name="home"),
    path("tiles/", floor_view.floor_tiles, name="tiles"),
    path("calls/<int:call_id>/answer/", floor_view.answer_call, name="answer-call"),
    path("pits/", floor_view.pits, name="pits"),
    path("shifts/", books.shift_sheet, name="shift"),
    path("shifts/<str:day>/<str:code>/<slug:action>/", books.shift_action, name="shift-action"),
    path("reports/", reports.reports_page, name="reports"),
    path("reports/export.csv", reports.reports_csv, name="reports-csv"),
    path("tablet/<int:table_id>/dealer/", tablet.dealer_panel, name="tablet-dealer"),
    path("tablet/<int:table_id>/dealer/<slug:action>/", tablet.dealer_panel_action, name="tablet-dealer-action"),
]
