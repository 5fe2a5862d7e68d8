"""Domain errors say what went wrong and its kind; one place turns a kind into an HTTP status or a screen message."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from casino.api_errors import HTTP_STATUS, exception_handler, http_status, screen_error
from casino.engine.errors import DuplicateCardError
from casino.errors import (
    BadInput,
    ConcurrentChange,
    DomainError,
    ErrorKind,
    NotAllowed,
    NotFound,
    WrongPhase,
)
from tables.services.locks import RoundNotFound

ROOT = Path(__file__).resolve().parents[2]

EXPECTED = [
    # (error, kind, default code, HTTP status)
    (DomainError("seat must be 1-7"), ErrorKind.BAD_INPUT, "invalid", 400),
    (BadInput("seat must be 1-7"), ErrorKind.BAD_INPUT, "invalid", 400),
    (WrongPhase("bets are closed"), ErrorKind.WRONG_PHASE, "wrong_phase", 409),
    (ConcurrentChange("changed meanwhile"), ErrorKind.CONFLICT, "concurrent_change", 409),
    (NotAllowed("floor only"), ErrorKind.FORBIDDEN, "permission_denied", 403),
    (NotFound("no such round"), ErrorKind.NOT_FOUND, "not_found", 404),
    (RoundNotFound("round 9 does not exist"), ErrorKind.NOT_FOUND, "not_found", 404),
]


@pytest.mark.parametrize(("error", "kind", "code", "status"), EXPECTED, ids=lambda v: type(v).__name__)
def test_each_error_has_a_kind_a_default_code_and_one_status(
    error: DomainError, kind: ErrorKind, code: str, status: int
) -> None:
    assert (error.kind, error.code, http_status(error)) == (kind, code, status)


def test_every_kind_has_a_status() -> None:
    assert set(HTTP_STATUS) == set(ErrorKind)


def test_a_code_and_field_given_when_raised_are_kept() -> None:
    error = WrongPhase("table Main is closed", code="table_closed", field="table")
    assert (error.code, error.field, error.message, str(error)) == (
        "table_closed",
        "table",
        "table Main is closed",
        "table Main is closed",
    )


def test_the_errors_module_knows_no_http_and_loads_no_django() -> None:
    code = (
        "import json, sys, casino.errors\n"
        "print(json.dumps([sorted({m.split('.')[0] for m in sys.modules}),"
        " hasattr(casino.errors.DomainError, 'status_code')]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    loaded, has_status = json.loads(done.stdout)
    assert not set(loaded) & {"django", "rest_framework", "celery", "http"}
    assert has_status is False


@pytest.mark.parametrize(("error", "kind", "code", "status"), EXPECTED, ids=lambda v: type(v).__name__)
def test_the_api_answers_every_kind_in_the_one_json_shape(
    error: DomainError, kind: ErrorKind, code: str, status: int
) -> None:
    error.field = "seat"
    response = exception_handler(error, {})
    assert response is not None
    assert response.status_code == status
    assert response.data == {"error": {"code": code, "message": error.message, "field": "seat"}}


def test_an_engine_error_reaching_the_api_is_bad_input_not_a_crash() -> None:
    response = exception_handler(DuplicateCardError("card As appears twice", token="As"), {})
    assert response is not None
    assert response.status_code == 400
    assert response.data == {"error": {"code": "duplicate_card", "message": "card As appears twice"}}


def test_a_screen_shows_the_message_next_to_the_field_with_the_kinds_status() -> None:
    shown = screen_error(WrongPhase("cannot deal: round 3 is betting", field="cards"))
    assert (shown.field, shown.message, shown.status) == ("cards", "cannot deal: round 3 is betting", 409)
    no_field = screen_error(NotAllowed("only a floor supervisor may void"))
    assert (no_field.field, no_field.status) == (None, 403)
    engine = screen_error(DuplicateCardError("card As appears twice", token="As"))
    assert (engine.field, engine.message, engine.status) == (None, "card As appears twice", 400)
