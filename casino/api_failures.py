"""JSON instead of Django's HTML pages for failures on /api/ paths: database outage (503), crash (500), CSRF (403).

DRF's exception handler covers what a view raises on purpose; these cover the rest. The middleware catches a
view's uncaught exception (in DEBUG too), `server_error` (handler500) one raised in a middleware, and
`csrf_failure` (CSRF_FAILURE_VIEW) Django's own CSRF check, which runs before any view.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import csrf, defaults

from casino.api_errors import error_body

logger = logging.getLogger("django.request")

API_PREFIX = "/api/"
RETRY_AFTER_SECONDS = "5"
# What a lost or refused database connection raises (psycopg and sqlite3 both map to these).
OUTAGE = (OperationalError, InterfaceError)


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def _json_failure(request: HttpRequest, exc: BaseException | None) -> JsonResponse:
    if isinstance(exc, OUTAGE):
        # One line, no traceback: an outage fails every request the same way and would flood the log.
        logger.error("database unavailable: %s %s: %s", request.method, request.path, str(exc).strip()[:200])
        response = JsonResponse(
            error_body("database_unavailable", "The database is unavailable; try again in a few seconds."),
            status=503,
        )
        response["Retry-After"] = RETRY_AFTER_SECONDS
        return response
    return JsonResponse(error_body("server_error", "The server failed to handle the request."), status=500)


class ApiFailureMiddleware:
    """Turns a view's uncaught exception on an /api/ path into the JSON error shape (logged with its traceback)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not is_api(request):
            return None
        if not isinstance(exception, OUTAGE):
            # Returning a response skips Django's own "Internal Server Error" log line, so write it here.
            logger.error("Internal Server Error: %s", request.path, exc_info=exception)
        return _json_failure(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: Django calls it inside its except block, so the exception is still at hand."""
    if is_api(request):
        return _json_failure(request, sys.exc_info()[1])
    return defaults.server_error(request)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    if is_api(request):
        return JsonResponse(error_body("csrf_failed", f"CSRF check failed: {reason}"), status=403)
    return csrf.csrf_failure(request, reason)
