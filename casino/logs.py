"""Log formatting: timestamps in TIME_ZONE with their offset, and each expected client error (4xx) on one line."""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import zoneinfo
from typing import Any

from django.utils.functional import empty


class ZonedFormatter(logging.Formatter):
    """`%(asctime)s` as ISO 8601 in the configured zone, offset included: 2026-11-30T23:15:55.093+00:00."""

    def __init__(self, fmt: str, zone: str) -> None:
        super().__init__(fmt)
        self.zone = zoneinfo.ZoneInfo(zone)

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return dt.datetime.fromtimestamp(record.created, tz=self.zone).isoformat(timespec="milliseconds")


def _escaped(value: object) -> str:
    # Request data in a log line must not start a new line (log injection), as Django does for its own.
    return str(value).encode("unicode_escape").decode("ascii")


def _username(request: Any) -> str:
    """The signed-in user's name if the request already knows it; never a database query from a log call."""
    user = getattr(request, "__dict__", {}).get("user")
    wrapped = getattr(user, "_wrapped", user)  # AuthenticationMiddleware's lazy object, or a plain user
    if wrapped is None or wrapped is empty or not getattr(wrapped, "is_authenticated", False):
        return ""
    return str(wrapped.get_username())


def _client_error_line(record: logging.LogRecord, status: int) -> str:
    """`403 GET /compliance/ Forbidden (Permission denied): <the exception's message> user=dave`."""
    args = record.args if isinstance(record.args, tuple) else ()
    reason, path = record.getMessage(), ""
    if isinstance(record.msg, str) and record.msg.endswith(": %s") and args:
        # Django's request log is "<reason>: <path>" with the path (already escaped) as the last argument.
        with contextlib.suppress(TypeError, ValueError):  # not Django's shape after all: keep the message
            reason, path = record.msg[:-4] % args[:-1], str(args[-1])
    request = getattr(record, "request", None)
    method = getattr(request, "method", "") or ""
    line = " ".join(part for part in (str(status), method, path, reason) if part)
    error = record.exc_info[1] if record.exc_info else None
    if error is not None and str(error):
        line += f": {_escaped(error)}"
    user = _username(request)
    return f"{line} user={_escaped(user)}" if user else line


class ClientErrorsOnOneLine(logging.Filter):
    """An expected 4xx answer is one line: no traceback, and no second line from the development server.

    Django logs every 4xx answer (logger django.request or django.security.*) with the exception's traceback
    when a view raised one (PermissionDenied, Http404); runserver then logs the same request again as an access
    line. A 4xx is the client's mistake, not ours: its status, request, reason, the exception's message and the
    user say all there is. 5xx answers keep their tracebacks.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if not isinstance(status, int) or not 400 <= status < 500:
            return True
        if record.name == "django.server":
            return False  # the application's own line for this request was already written
        record.msg, record.args = _client_error_line(record, status), ()
        record.exc_info, record.exc_text = None, None
        return True
