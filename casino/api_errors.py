"""How a refused request reaches people: one map from error kinds to HTTP statuses, the API's JSON error shape
{"error": {"code", "message", "field"?}} (DESIGN 9) and, for the screens, the (field, message) to show.

Services raise `casino.errors` types, which know nothing of HTTP; only this module turns a kind into a status.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from casino.engine.errors import EngineError
from casino.error_text import shorten, shorten_field
from casino.errors import DomainError, ErrorKind

HTTP_STATUS: Mapping[ErrorKind, int] = {
    ErrorKind.BAD_INPUT: status.HTTP_400_BAD_REQUEST,
    ErrorKind.WRONG_PHASE: status.HTTP_409_CONFLICT,
    ErrorKind.CONFLICT: status.HTTP_409_CONFLICT,
    ErrorKind.FORBIDDEN: status.HTTP_403_FORBIDDEN,
    ErrorKind.NOT_FOUND: status.HTTP_404_NOT_FOUND,
}


def error_kind(exc: DomainError | EngineError) -> ErrorKind:
    """An engine error is always bad input: the engine refuses cards and options, never a moment or a person."""
    return exc.kind if isinstance(exc, DomainError) else ErrorKind.BAD_INPUT


def http_status(exc: DomainError | EngineError) -> int:
    """The HTTP status an API answer (or a screen's reply) carries for this error."""
    return HTTP_STATUS[error_kind(exc)]


@dataclass(frozen=True)
class ScreenError:
    """What a screen shows for a refusal: the message, next to the input named by `field` (None: the form)."""

    field: str | None
    message: str
    status: int


def _field(exc: DomainError | EngineError) -> str | None:
    """The input at fault; an engine error names its offending token, not a form field."""
    return (exc.field or None) if isinstance(exc, DomainError) else None


def screen_error(exc: DomainError | EngineError) -> ScreenError:
    """Turn a refusal into what a screen shows next to its cause, and the status its reply carries.

    The message is the error's own, as the API sends it (it names the problem); the kind decides the status.
    """
    return ScreenError(field=_field(exc), message=shorten(exc.message), status=http_status(exc))


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
    """DRF's EXCEPTION_HANDLER: every error the API answers has the one JSON shape."""
    if isinstance(exc, DomainError | EngineError):
        return Response(error_body(exc.code, exc.message, _field(exc)), status=http_status(exc))
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
        where, message, code = _first_detail(exc.detail)
        if where:
            message = f"{where}: {message}"
        response.data = error_body(code, message, where)
    elif isinstance(exc, exceptions.APIException):
        detail = exc.detail
        response.data = error_body(str(getattr(detail, "code", exc.default_code)), str(detail))
    return response
