"""The interactive API docs (Swagger UI, ReDoc): drf-spectacular's pages, kept to the app's own files.

The pages load Swagger UI and ReDoc from drf-spectacular-sidecar's static files. ReDoc's sidebar still asks a CDN
for a logo; this policy makes the browser refuse that and any other outside request, so the docs behave the
same on a casino network without internet as with it.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerView
from rest_framework.response import Response

# Both UIs run inline scripts and styles (their start-up code, ReDoc's styled components) and ReDoc searches
# in a worker it builds from a blob; nothing may come from another origin.
SAME_ORIGIN_ONLY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self' 'unsafe-inline'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self' data:",
        "worker-src 'self' blob:",
        "connect-src 'self'",
    ]
)


class SwaggerDocsView(SpectacularSwaggerView):
    @extend_schema(exclude=True)  # a page about the API, not part of it
    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Response:
        response = super().get(request, *args, **kwargs)
        response["Content-Security-Policy"] = SAME_ORIGIN_ONLY
        return response


class RedocDocsView(SpectacularRedocView):
    @extend_schema(exclude=True)
    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Response:
        response = super().get(request, *args, **kwargs)
        response["Content-Security-Policy"] = SAME_ORIGIN_ONLY
        return response
