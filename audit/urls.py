"""Compliance screens, mounted under /compliance/."""

from django.urls import path

from audit import review_views, views

app_name = "audit"

urlpatterns = [
    path("", views.event_list, name="event-list"),
    path("events/<int:event_id>/", views.event_detail, name="event-detail"),
    path("rounds/<int:round_id>/", views.round_timeline_view, name="round-timeline"),
    path("rounds/<int:round_id>/record.json", views.round_record_download, name="round-record"),
    path("exceptions/", review_views.exception_queue, name="exception-report"),
    path("exceptions/<int:case_id>/", review_views.exception_detail, name="exception-detail"),
    path("exceptions/<int:case_id>/review/", review_views.exception_start, name="exception-start"),
    path("exceptions/<int:case_id>/notes/", review_views.exception_note, name="exception-note"),
    path("exceptions/<int:case_id>/sign-off/", review_views.exception_sign_off, name="exception-sign-off"),
    path("chain/verify/", review_views.chain_verify, name="chain-verify"),
    path("chain/verify/<str:token>/", review_views.chain_verify_status, name="chain-verify-status"),
    path("reports/", review_views.daily_reports, name="daily-reports"),
    path("reports/<str:day>/", review_views.daily_report, name="daily-report"),
    path("reports/<str:day>/csv/", review_views.daily_report_csv, name="daily-report-csv"),
    path("reports/<str:day>/pdf/", review_views.daily_report_pdf, name="daily-report-pdf"),
    path("export.csv", views.event_export, name="event-export"),
]
