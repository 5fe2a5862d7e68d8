"""One JSON error shape for the whole API: {"error": {"code", "message", "field"?}} (DESIGN 9)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from casino.error_text import shorten, shorten_field


class DomainError(Exception):
    """A business rule refused the request; services raise it, the API turns it into JSON."""

    status_code = status.HTTP_400_BAD_REQUEST
    code = "invalid"

    def __init__(self, message: str, *, code: str | None = None, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.field = field


class WrongPhase(DomainError):
    """The object is not in a state that allows the action (HTTP 409)."""

    status_code = status.HTTP_409_CONFLICT
    code = "wrong_phase"


class ConcurrentChange(DomainError):
    """Someone else changed the object first (HTTP 409)."""

    status_code = status.HTTP_409_CONFLICT
    code = "concurrent_change"


class NotAllowed(DomainError):
    """The actor's role does not allow the action (HTTP 403)."""

    status_code = status.HTTP_403_FORBIDDEN
    code = "permission_denied"


def error_body(code: str, message: str, field: str | None = None) -> dict[str, Any]:
    # Messages and field paths may quote what the client sent: only a short prefix of it comes back.
    error: dict[str, Any] = {"code": code, "message": shorten(message)}
    if field:
        error["field"] = shorten_field(field)
    return {"error": error}


def _first_detail(detail: Any, path: str = "") -> tuple[str | None, str, str]:
    """Flatten DRF's nested validation detail to the first (field, message, code)."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = key if key != "non_field_errors" else ""
            return _first_detail(value, f"{path}.{name}" if path and name else (name or path))
    if isinstance(detail, list) and detail:
        return _first_detail(detail[0], path)
    code = getattr(detail, "code", "invalid") or "invalid"
    return (path or None, str(detail), str(code))


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DomainError):
        return Response(error_body(exc.code, exc.message, exc.field), status=exc.status_code)
    if isinstance(exc, DjangoValidationError):
        messages = exc.message_dict if hasattr(exc, "error_dict") else {"": exc.messages}
        field, texts = next(iter(messages.items()))
        return Response(error_body("invalid", "; ".join(texts), field or None), status=400)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        field, message, code = _first_detail(exc.detail)
        if field:
            message = f"{field}: {message}"
        response.data = error_body(code if code != "invalid" else "invalid", message, field)
    elif isinstance(exc, exceptions.APIException):
        detail = exc.detail
        response.data = error_body(str(getattr(detail, "code", exc.default_code)), str(detail))
    return response
