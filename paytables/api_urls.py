"""REST API routes of the paytables app (mounted under /api/v1/)."""

from django.urls import URLPattern, URLResolver

urlpatterns: list[URLPattern | URLResolver] = []
