"""The interactive API docs (Swagger UI, ReDoc) kept to the app's own files by a Content-Security-Policy.

drf-spectacular's pages load Swagger UI and ReDoc from drf-spectacular-sidecar's static files (settings). ReDoc's
sidebar still asks a CDN for a logo; this policy makes the browser refuse that and any other outside request, so
the docs behave the same on a casino network without internet as with it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse

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


def same_origin_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The view's pages may load and contact nothing outside the app."""

    @wraps(view)  # keeps the DRF view's attributes, so the schema generator still recognises (and skips) it
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        response["Content-Security-Policy"] = SAME_ORIGIN_ONLY
        return response

    return wrapped
