"""The read-only audit API: same filters as the screens, keyset pages, compliance only, no writes."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test.utils import override_settings
from rest_framework.test import APIClient

from audit.models import AuditEvent
from audit.services import audit_chain_seal, audit_chain_verify, audit_record

URLS = ["/api/v1/audit/events/", "/api/v1/audit/events/1/", "/api/v1/audit/rounds/3/", "/api/v1/audit/chain/"]


def _api(user: User | None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _event(**fields: Any) -> AuditEvent:
    fields.setdefault("action", "seat_join")
    return audit_record(**fields)


def verdict_ok(round_id: int) -> dict[str, Any]:
    return {"ok": True, "differences": []}


@pytest.mark.django_db
def test_the_api_lists_events_with_the_screen_filters(compliance_user: User) -> None:
    wanted = _event(action="round_void", table=2, round=3, reason="misdeal")
    _event(action="round_void", table=2, round=4)
    response = _api(compliance_user).get("/api/v1/audit/events/?table=2&round=3&action=round_void")
    assert response.status_code == 200
    body = response.json()
    assert [e["id"] for e in body["results"]] == [wanted.id]
    assert body["results"][0]["reason"] == "misdeal"
    assert body["results"][0]["exception_kind"] == "void"
    assert (body["results"][0]["action"], body["results"][0]["action_label"]) == ("round_void", "Round voided")
    assert body["next_before"] is None


@pytest.mark.django_db
def test_the_api_pages_with_a_keyset_cursor(compliance_user: User) -> None:
    ids = [_event(object_id=i).id for i in range(7)]
    client, seen, before = _api(compliance_user), [], ""
    while True:
        body = client.get(f"/api/v1/audit/events/?limit=3{before}").json()
        seen += [e["id"] for e in body["results"]]
        if body["next_before"] is None:
            break
        before = f"&before={body['next_before']}"
    assert seen == sorted(ids, reverse=True)


@pytest.mark.django_db
@pytest.mark.parametrize("query", ["limit=0", "limit=501", "limit=x", "before=-3", "date_from=soon"])
def test_the_api_rejects_bad_parameters_with_the_error_shape(compliance_user: User, query: str) -> None:
    response = _api(compliance_user).get(f"/api/v1/audit/events/?{query}")
    assert response.status_code == 400
    assert response.json()["error"]["code"]


@pytest.mark.django_db
def test_a_bad_filter_names_its_field(compliance_user: User) -> None:
    response = _api(compliance_user).get("/api/v1/audit/events/?date_from=soon")
    assert response.json() == {
        "error": {"code": "invalid", "message": "date_from: Enter a valid date.", "field": "date_from"}
    }


@pytest.mark.django_db
def test_a_time_with_any_offset_is_read_in_utc_and_one_out_of_range_is_bad_input(compliance_user: User) -> None:
    # schemathesis found a 500: an offset PostgreSQL cannot store (-19:45) went straight into the query.
    api = _api(compliance_user)
    assert api.get("/api/v1/audit/events/", {"until": "9437-05-05T23:09:44-19:45"}).status_code == 200
    refused = api.get("/api/v1/audit/events/", {"since": "9999-12-31T23:00:00-05:00"})
    assert refused.status_code == 400
    assert refused.json()["error"]["field"] == "since"


@pytest.mark.django_db
def test_the_api_shows_one_event_and_404s_a_missing_one(compliance_user: User) -> None:
    event = _event(before={"a": 1}, after={"a": 2})
    client = _api(compliance_user)
    assert client.get(f"/api/v1/audit/events/{event.id}/").json()["after"] == {"a": 2}
    assert client.get(f"/api/v1/audit/events/{event.id + 1000}/").status_code == 404


@pytest.mark.django_db
@override_settings(AUDIT_ROUND_VERDICT="tests.audit.test_api.verdict_ok")
def test_the_api_gives_a_rounds_timeline_with_its_verdict(compliance_user: User) -> None:
    first, second = _event(action="round_start", round=3), _event(action="bet_place", round=3)
    body = _api(compliance_user).get("/api/v1/audit/rounds/3/").json()
    assert [e["id"] for e in body["events"]] == [first.id, second.id]
    assert body["verdict"] == {"ok": True, "differences": []}


@pytest.mark.django_db
def test_the_api_reports_the_chain_state(compliance_user: User) -> None:
    _event()
    audit_chain_seal()
    audit_chain_verify()
    body = _api(compliance_user).get("/api/v1/audit/chain/").json()
    assert body["sealed"] == 1
    assert body["last_check"]["ok"] is True


@pytest.mark.django_db
@pytest.mark.parametrize("url", URLS)
@pytest.mark.parametrize("persona", ["floor_user", "dealer_user", "stranger"])
def test_only_compliance_reads_the_audit_api(request: pytest.FixtureRequest, persona: str, url: str) -> None:
    _event()
    assert _api(request.getfixturevalue(persona)).get(url).status_code == 403


@pytest.mark.django_db
@pytest.mark.parametrize("url", URLS)
def test_anonymous_callers_are_refused(url: str) -> None:
    assert _api(None).get(url).status_code in {401, 403}


@pytest.mark.django_db
@pytest.mark.parametrize("url", URLS)
@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_the_audit_api_accepts_no_writes(compliance_user: User, url: str, method: str) -> None:
    event = _event()
    response = getattr(_api(compliance_user), method)(url.replace("/1/", f"/{event.id}/"), {}, format="json")
    assert response.status_code == 405
    assert list(AuditEvent.objects.values_list("id", flat=True)) == [event.id]


@pytest.mark.django_db
def test_the_schema_says_what_the_cursor_continues_after(compliance_user: User) -> None:
    """Pages are newest first by time, then id, and an event's id is not in time order: the schema said "events with
    id < before", which an integrator would compute and get the wrong page."""
    import yaml

    schema = yaml.safe_load(_api(compliance_user).get("/api/schema/").content)
    parameters = schema["paths"]["/api/v1/audit/events/"]["get"]["parameters"]
    before = next(p for p in parameters if p["name"] == "before")
    assert "id < before" not in before["description"]
    assert "next_before" in before["description"]
    assert "newest first by time, then id" in before["description"]
