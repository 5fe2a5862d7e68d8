"""Every app's API routes under /api/v1/."""

from django.urls import include, path

urlpatterns = [
    path("", include("accounts.api_urls")),
    path("", include("audit.api_urls")),
    path("", include("paytables.api_urls")),
    path("", include("tables.api_urls")),
    path("", include("floor.api_urls")),
]
