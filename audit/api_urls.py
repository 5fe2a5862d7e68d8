"""REST API routes of the audit app (mounted under /api/v1/)."""

from django.urls import URLPattern, URLResolver

urlpatterns: list[URLPattern | URLResolver] = []
