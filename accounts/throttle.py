"""Glue for django-axes: which username and address count, what a locked-out client sees, and the lockout's audit.

Axes counts failed sign-ins per username and per client address (AXES_LOCKOUT_PARAMETERS) in its own table and
refuses further attempts during the cool-off. The audit trail gets one event when a lockout starts, not one row
per failure: failures below the limit stay in axes' counters.
"""

from __future__ import annotations

from typing import Any

from axes.helpers import get_cool_off, get_failure_limit
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from accounts.services import login_lockout_record
from audit.middleware import client_address
from casino.api_errors import error_body

USERNAME_MAX = 150  # Django's own limit; longer input cannot name an account


def attempted_username(request: HttpRequest, credentials: dict[str, Any] | None) -> str:
    """AXES_USERNAME_CALLABLE: the attempted username, cut to what a username can be (axes stores it)."""
    value = (credentials or {}).get("username")
    if value is None:
        value = request.POST.get("username", "") if request is not None else ""
    return str(value)[:USERNAME_MAX]


def _cooloff_minutes(request: HttpRequest | None = None) -> int:
    cool_off = get_cool_off(request)
    return int(cool_off.total_seconds() // 60) if cool_off else 0


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: dict[str, Any] | None = None
) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: 429 with Retry-After; the API error shape on /api/, a page elsewhere."""
    minutes = _cooloff_minutes(request)
    message = f"Too many failed sign-ins: try again in {minutes} minutes."
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse(error_body("too_many_attempts", message), status=429)
    else:
        response = render(request, "accounts/locked_out.html", {"message": message}, status=429)
    response["Retry-After"] = str(minutes * 60)
    return response


def on_user_locked_out(sender: Any, request: HttpRequest, username: str, ip_address: str | None, **kwargs: Any) -> None:
    """axes sends this when a lockout starts and again for every attempt refused during it: audit only the start."""
    failures = getattr(request, "axes_failures_since_start", None)
    if failures is None or failures != get_failure_limit(request, getattr(request, "axes_credentials", None)):
        return
    login_lockout_record(
        username=username or "",
        client_address=ip_address or client_address(request),
        failures=failures,
        cooloff_minutes=_cooloff_minutes(request),
    )
