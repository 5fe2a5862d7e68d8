"""No 500 on input: body size and nesting limits before parsing, short error quotes, and JSON for every failure."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import OperationalError, connection
from django.test import Client, RequestFactory, override_settings
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from casino.api_failures import csrf_failure, server_error
from casino.error_text import shorten
from casino.parsers import nesting_exceeds
from tests.paytables.conftest import JACKS_9_6

pytestmark = pytest.mark.django_db

DEEP = "[" * 990 + "]" * 990


def api(user: User | None = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _error(response: Any) -> dict[str, Any]:
    assert response["Content-Type"].startswith("application/json"), response.content[:200]
    return dict(response.json()["error"])


@pytest.mark.parametrize(
    "path", ["/api/v1/tables/1/rounds/", "/api/v1/shoe/cards/", "/api/v1/paytables/", "/api/v1/rounds/1/deal/"]
)
def test_json_nested_990_levels_is_a_400_before_anything_else(path: str, floor_user: User) -> None:
    for client in (api(), api(floor_user)):
        response = client.post(path, DEEP, content_type="application/json", HTTP_AUTHORIZATION="Device x")
        # Refused one way or another (bad body, no credentials, no such table), never a 500.
        assert response.status_code in (400, 401, 403, 404), response.content[:200]
        assert response["Content-Type"].startswith("application/json")


def test_deep_nesting_is_refused_with_its_own_code(floor_user: User) -> None:
    response = api(floor_user).post("/api/v1/paytables/", DEEP, content_type="application/json")
    assert response.status_code == 400
    assert _error(response)["code"] == "too_deeply_nested"


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    assert not nesting_exceeds(json.dumps({"name": "[" * 500, "lines": [[1]]}).encode(), 32)
    assert nesting_exceeds(b'{"a": ' + b"[" * 33 + b"]" * 33 + b"}", 32)
    assert not nesting_exceeds(b'{"a": "\\"[[[[", "b": [[[]]]}', 4)


@override_settings(API_MAX_BODY_BYTES=4096)
def test_a_body_over_the_limit_is_a_413(floor_user: User) -> None:
    body = json.dumps({"name": "x" * 5000, "basis": "for_1", "lines": JACKS_9_6})
    response = api(floor_user).post("/api/v1/paytables/", body, content_type="application/json")
    assert response.status_code == 413
    assert _error(response)["code"] == "request_too_large"


def test_an_error_quotes_only_a_short_prefix_of_a_huge_value(floor_user: User) -> None:
    # DRF echoes a bad choice; the engine echoes a bad card (tests/tables/test_error_echo.py).
    huge = "Q" * 200_000
    response = api(floor_user).post("/api/v1/paytables/", {"name": "Big", "basis": huge, "lines": []}, format="json")
    assert response.status_code == 400
    assert len(response.content) < 1000
    assert "QQQQQQQQQQ" in _error(response)["message"]


def test_shorten_keeps_short_words_and_cuts_long_tokens() -> None:
    assert shorten("bad card 'Zz' in row 2") == "bad card 'Zz' in row 2"
    short = shorten(f"bad card '{'X' * 10_000}' in row 2")
    assert short.startswith("bad card 'XXXX")
    assert short.endswith("… in row 2")
    assert len(short) < 60
    assert len(shorten("word " * 1000)) == 500


@pytest.mark.parametrize("before", ["²", "١٢", "-1", "1e3", "99999999999999999999999"])
def test_a_bad_before_cursor_is_a_400_on_the_api_and_a_message_on_the_screen(
    before: str, compliance_user: User
) -> None:
    response = api(compliance_user).get("/api/v1/audit/events/", {"before": before})
    assert response.status_code == 400
    assert _error(response)["field"] == "before"
    client = Client()
    client.force_login(compliance_user)
    page = client.get("/compliance/", {"before": before})
    assert page.status_code == 200
    assert "not an event id" in page.content.decode()


@pytest.mark.parametrize("pays", [2**31, 2**40, f"1/{2**31}", f"{2**31}/3"])
def test_pays_too_large_for_the_database_is_a_400(pays: object, floor_user: User) -> None:
    lines = [{"hand": "royal_flush", "pays": pays}, *JACKS_9_6[1:]]
    created = api(floor_user).post(
        "/api/v1/paytables/", {"name": "Huge", "basis": "for_1", "lines": lines}, format="json"
    )
    assert created.status_code == 400
    assert _error(created)["code"] == "pays_too_large"
    draft = api(floor_user).post(
        "/api/v1/paytables/", {"name": "Ok", "basis": "for_1", "lines": JACKS_9_6}, format="json"
    )
    assert draft.status_code == 201
    edited = api(floor_user).put(f"/api/v1/paytables/{draft.json()['id']}/lines/", {"lines": lines}, format="json")
    assert edited.status_code == 400
    assert _error(edited)["code"] == "pays_too_large"


def test_the_largest_pays_the_database_holds_is_accepted(floor_user: User) -> None:
    lines = [{"hand": "royal_flush", "pays": 2**31 - 1}, *JACKS_9_6[1:]]
    response = api(floor_user).post(
        "/api/v1/paytables/", {"name": "Max", "basis": "for_1", "lines": lines}, format="json"
    )
    assert response.status_code == 201, response.json()


@pytest.fixture
def database_down(require_postgres: None) -> Iterator[None]:
    """Point the connection at a PostgreSQL port nobody listens on, as when the server goes away.

    (SQLite's in-memory test database cannot be taken away from an open connection.)
    """
    saved = dict(connection.settings_dict)
    connection.close()
    connection.settings_dict.update(HOST="127.0.0.1", PORT="1")
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(saved)


@pytest.mark.django_db(transaction=True)
def test_a_database_outage_is_a_json_503_on_the_api(floor_user: User, database_down: None) -> None:
    client = api(floor_user)
    client.raise_request_exception = False
    for response in (client.get("/api/v1/tables/"), client.post("/api/v1/paytables/", {}, format="json")):
        assert response.status_code == 503
        assert _error(response)["code"] == "database_unavailable"
        assert response["Retry-After"] == "5"


def test_a_crash_in_an_api_view_is_a_json_500(compliance_user: User, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr("audit.apis.event_page", broken)
    client = api(compliance_user)
    client.raise_request_exception = False
    response = client.get("/api/v1/audit/events/")
    assert response.status_code == 500
    assert _error(response)["code"] == "server_error"
    assert "a bug" not in response.content.decode()


def test_handler500_answers_json_on_api_paths_and_html_elsewhere() -> None:
    factory = RequestFactory()
    try:
        raise OperationalError("connection refused")
    except OperationalError:
        assert server_error(factory.get("/api/v1/tables/")).status_code == 503
        assert server_error(factory.get("/tablet/")).status_code == 500
        assert b"<" in server_error(factory.get("/tablet/")).content


def test_an_unknown_api_post_is_json_not_a_csrf_page(floor_user: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(floor_user)
    response = client.post("/api/v1/no-such-thing/", {"x": 1})
    assert response.status_code == 404
    assert _error(response)["code"] == "not_found"
    response = client.post("/api/v1/paytables/", {"name": "x"}, content_type="application/json")
    assert response.status_code == 403
    assert "CSRF" in _error(response)["message"]


def test_a_csrf_failure_on_an_api_path_is_json() -> None:
    factory = RequestFactory()
    response = csrf_failure(factory.post("/api/v1/anything/"), reason="CSRF cookie not set.")
    assert response.status_code == 403
    assert json.loads(response.content)["error"] == {
        "code": "csrf_failed",
        "message": "CSRF check failed: CSRF cookie not set.",
    }
    assert b"<html" in csrf_failure(factory.post("/tablet/login/"), reason="x").content.lower()


def test_a_body_that_is_not_json_is_a_415_in_the_error_shape(floor_user: User) -> None:
    response = api(floor_user).post("/api/v1/paytables/", "name=Big", content_type="text/plain")
    assert response.status_code == 415
    assert _error(response)["code"] == "unsupported_media_type"


def test_the_schema_documents_413_and_415_where_a_body_is_read_and_only_there() -> None:
    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    create = paths["/api/v1/paytables/"]["post"]["responses"]
    assert {"413", "415"} <= set(create)
    assert create["415"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
    read = paths["/api/v1/paytables/"]["get"]["responses"]
    assert not {"413", "415"} & set(read)
