"""Quiet, useful logs: an expected 4xx is one line, 5xx keep their tracebacks, times carry TIME_ZONE's offset."""

from __future__ import annotations

import io
import logging
import sys
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.test import Client

from casino.logs import ClientErrorsOnOneLine, ZonedFormatter


@pytest.fixture
def log_output() -> Iterator[io.StringIO]:
    """What the product's log handler (stdout in production) writes during the test."""
    handler = next(h for h in logging.getLogger("django").handlers if isinstance(h, logging.StreamHandler))
    buffer = io.StringIO()
    previous = handler.setStream(buffer)
    try:
        yield buffer
    finally:
        handler.setStream(previous)


def record(name: str, status: int, *, error: Exception | None = None, msg: str = "%s: %s") -> logging.LogRecord:
    exc_info = None
    if error is not None:
        try:
            raise error
        except Exception:
            exc_info = sys.exc_info()
    entry = logging.LogRecord(name, logging.WARNING, __file__, 1, msg, ("Forbidden", "/x/"), exc_info)
    entry.status_code = status
    return entry


def test_a_permission_denied_page_is_one_line_naming_the_request_the_reason_and_the_user(
    dealer_user: User, log_output: io.StringIO
) -> None:
    client = Client()
    client.force_login(dealer_user)
    assert client.get("/compliance/").status_code == 403
    lines = log_output.getvalue().splitlines()
    assert len(lines) == 1, log_output.getvalue()
    assert lines[0].endswith(
        "WARNING django.request 403 GET /compliance/ Forbidden (Permission denied): "
        "The compliance screens need the compliance role. user=dave"
    )


@pytest.mark.django_db
def test_an_api_refusal_is_one_line(client: Client, log_output: io.StringIO) -> None:
    assert client.get("/api/v1/tables/").status_code == 401
    lines = log_output.getvalue().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].endswith("WARNING django.request 401 GET /api/v1/tables/ Unauthorized")


def test_a_server_error_keeps_its_traceback() -> None:
    entry = record("django.request", 500, error=RuntimeError("boom"))
    assert ClientErrorsOnOneLine().filter(entry)
    assert "Traceback" in logging.Formatter().format(entry)


def test_a_client_error_loses_its_traceback_but_keeps_the_exception_message() -> None:
    entry = record("django.request", 404, error=LookupError("no table 7\nfake line"))
    assert ClientErrorsOnOneLine().filter(entry)
    text = logging.Formatter().format(entry)
    assert text == "404 /x/ Forbidden: no table 7\\nfake line"  # a newline in the data cannot forge a log line


def test_the_development_servers_second_line_for_a_client_error_is_dropped() -> None:
    assert not ClientErrorsOnOneLine().filter(record("django.server", 404, msg='"%s" %s'))
    assert ClientErrorsOnOneLine().filter(record("django.server", 200, msg='"%s" %s'))


@pytest.mark.parametrize(
    ("zone", "expected"),
    [("UTC", "2026-01-15T12:00:00.250+00:00"), ("Europe/Malta", "2026-01-15T13:00:00.250+01:00")],
)
def test_log_times_are_iso_8601_in_the_configured_zone_with_the_offset(zone: str, expected: str) -> None:
    entry = logging.LogRecord("x", logging.INFO, __file__, 1, "hello", (), None)
    entry.created = 1768478400.25  # 2026-01-15 12:00:00.25 UTC
    assert ZonedFormatter("%(asctime)s %(message)s", zone).format(entry) == f"{expected} hello"
