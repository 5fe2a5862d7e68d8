"""/healthz reports the database and the broker; 503 when the database is unreachable."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import OperationalError
from django.test import Client, override_settings


@pytest.mark.django_db
@override_settings(REDIS_URL="")
def test_it_reports_ok_database_and_eager_broker_in_embedded_mode(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "database": "ok",
        "broker": "eager",
        "waiting": {"rounds_settling": 0, "jobs": {}, "overdue": 0, "oldest_seconds": 0},
    }


@pytest.mark.django_db
def test_it_pings_the_real_redis_broker(client: Client, require_redis: str) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["broker"] == "ok"


@pytest.mark.django_db
@override_settings(REDIS_URL="redis://127.0.0.1:1/0")
def test_an_unreachable_broker_degrades_but_stays_up(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["status"] == "degraded"
    assert response.json()["broker"].startswith("error")


@pytest.mark.django_db
def test_it_answers_503_when_the_database_is_unreachable(client: Client) -> None:
    with mock.patch("casino.health.connection.cursor", side_effect=OperationalError("connection refused")):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == "error: OperationalError"
    assert response.json()["status"] == "down"


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/healthz", "/healthz/"])
def test_it_answers_with_or_without_the_slash(client: Client, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert response.json()["database"] == "ok"


def test_it_only_allows_get(client: Client) -> None:
    assert client.post("/healthz").status_code == 405


@pytest.mark.parametrize("path", ["/api/v1/nowhere/", "/api/v1/paytables/%0A/", "/api/v1/tables/1%0A/"])
def test_an_unknown_api_path_gets_a_json_404(client: Client, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
