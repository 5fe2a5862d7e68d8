"""AuditContextMiddleware: every request acts as its user, with a correlation id and the client address."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from audit.context import Actor, acting_as, new_correlation_id

# Accept a caller's X-Request-ID only if it looks like an id, so logs and CSVs cannot be injected into.
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")


def client_address(request: HttpRequest) -> str | None:
    """REMOTE_ADDR, or with AUDIT_TRUST_X_FORWARDED_FOR the last X-Forwarded-For hop: the address our own proxy
    appended (deploy/nginx.conf); hops before it come from the client and could be forged."""
    if getattr(settings, "AUDIT_TRUST_X_FORWARDED_FOR", False):
        hops = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
        if hops:
            return str(hops[-1])
    address = request.META.get("REMOTE_ADDR")
    return str(address) if address else None


def request_correlation_id(request: HttpRequest) -> str:
    given = request.META.get("HTTP_X_REQUEST_ID", "").strip()
    return given if _REQUEST_ID.match(given) else new_correlation_id()


class AuditContextMiddleware:
    """Place after AuthenticationMiddleware; echoes the correlation id in the X-Request-ID response header."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        correlation_id = request_correlation_id(request)
        # request.user stays lazy: it is resolved only if something is audited.
        actor = Actor(
            user=getattr(request, "user", None),
            kind="user",
            name="anonymous",
            correlation_id=correlation_id,
            client_address=client_address(request),
        )
        request.correlation_id = correlation_id  # type: ignore[attr-defined]
        with acting_as(actor):
            response = self.get_response(request)
        response["X-Request-ID"] = correlation_id
        return response
