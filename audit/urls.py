"""Compliance screens, mounted under /compliance/."""

from django.urls import path

from audit import views

app_name = "audit"

urlpatterns = [
    path("", views.event_list, name="event-list"),
    path("events/<int:event_id>/", views.event_detail, name="event-detail"),
    path("rounds/<int:round_id>/", views.round_timeline_view, name="round-timeline"),
    path("exceptions/", views.exception_report, name="exception-report"),
    path("export.csv", views.event_export, name="event-export"),
]
