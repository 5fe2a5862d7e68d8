"""The paytables API: every staff role reads, only floor staff write, errors in the one JSON shape."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from paytables.models import Paytable
from paytables.selectors import paytable_as_dict
from tests.paytables.conftest import JACKS_9_6, jacks

pytestmark = pytest.mark.django_db


def client_for(user: User | None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.mark.parametrize("persona", ["floor_user", "dealer_user", "compliance_user"])
def test_every_staff_role_reads_the_list_and_the_detail(
    persona: str, approved: Paytable, request: pytest.FixtureRequest
) -> None:
    client = client_for(request.getfixturevalue(persona))
    listed = client.get("/api/v1/paytables/")
    assert listed.status_code == 200
    assert [(row["name"], row["version"], row["status"]) for row in listed.json()] == [
        ("Jacks or Better 9/6", 1, "approved")
    ]
    detail = client.get(f"/api/v1/paytables/{approved.pk}/")
    assert detail.status_code == 200
    body = detail.json()
    assert body["approval_reference"] == "GC-2026-0042"
    assert [{k: v for k, v in line.items() if k != "position"} for line in body["lines"]] == JACKS_9_6
    assert body["analysis"]["status"] == "queued"
    assert body["analysis"]["progress"] == 0


def test_someone_without_a_role_reads_nothing(stranger: User, approved: Paytable) -> None:
    response = client_for(stranger).get("/api/v1/paytables/")
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "permission_denied"
    assert client_for(None).get(f"/api/v1/paytables/{approved.pk}/").status_code in (401, 403)


def test_floor_staff_create_edit_approve_clone_and_retire(floor_user: User, second_floor_user: User) -> None:
    client = client_for(floor_user)
    created = client.post(
        "/api/v1/paytables/",
        {"name": "Table 8/5", "basis": "to_1", "lines": [{"hand": "straight", "pays": "3/2"}, *JACKS_9_6[3:5]]},
        format="json",
    )
    assert created.status_code == 201, created.json()
    paytable_id = created.json()["id"]
    assert created.json()["lines"][0] == {"position": 1, "hand": "straight", "pays": "3/2"}

    edited = client.put(
        f"/api/v1/paytables/{paytable_id}/lines/", {"lines": jacks(full_house=8, flush=5)}, format="json"
    )
    assert edited.status_code == 200, edited.json()
    assert paytable_as_dict(Paytable.objects.get(pk=paytable_id))["lines"] == jacks(full_house=8, flush=5)

    own = client.post(f"/api/v1/paytables/{paytable_id}/approve/", {"approval_reference": "GC-7"}, format="json")
    assert (own.status_code, own.json()["error"]["code"]) == (403, "self_approval")
    approved = client_for(second_floor_user).post(
        f"/api/v1/paytables/{paytable_id}/approve/", {"approval_reference": "GC-7"}, format="json"
    )
    assert approved.status_code == 200
    assert (approved.json()["status"], approved.json()["approved_by"]) == ("approved", "fred")

    cloned = client.post(f"/api/v1/paytables/{paytable_id}/clone/", {}, format="json")
    assert cloned.status_code == 201
    assert (cloned.json()["version"], cloned.json()["status"], cloned.json()["cloned_from"]) == (
        2,
        "draft",
        paytable_id,
    )

    retired = client.post(f"/api/v1/paytables/{paytable_id}/retire/", {"reason": "v2 coming"}, format="json")
    assert retired.status_code == 200
    assert retired.json()["status"] == "retired"


@pytest.mark.parametrize("persona", ["dealer_user", "compliance_user"])
def test_dealers_and_compliance_cannot_write(persona: str, draft: Paytable, request: pytest.FixtureRequest) -> None:
    """DESIGN 9: "Compliance is read-only everywhere"; paytables are the floor's."""
    client = client_for(request.getfixturevalue(persona))
    attempts: list[tuple[str, str, dict[str, Any]]] = [
        ("post", "/api/v1/paytables/", {"name": "Mine", "basis": "for_1", "lines": JACKS_9_6}),
        ("put", f"/api/v1/paytables/{draft.pk}/lines/", {"lines": jacks(flush=5)}),
        ("post", f"/api/v1/paytables/{draft.pk}/approve/", {"approval_reference": "X"}),
        ("post", f"/api/v1/paytables/{draft.pk}/retire/", {}),
        ("post", f"/api/v1/paytables/{draft.pk}/clone/", {}),
        ("post", f"/api/v1/paytables/{draft.pk}/analysis/", {}),
    ]
    for method, url, body in attempts:
        response = getattr(client, method)(url, body, format="json")
        assert response.status_code == 403, (url, response.content)
        assert response.json()["error"]["code"] == "permission_denied"
    assert Paytable.objects.count() == 1
    assert Paytable.objects.get().status == "draft"
    assert paytable_as_dict(draft)["lines"] == JACKS_9_6


def test_a_bad_schedule_is_a_400_naming_the_problem(floor_user: User) -> None:
    response = client_for(floor_user).post(
        "/api/v1/paytables/",
        {"name": "Bad", "basis": "for_1", "lines": [{"hand": "two_pair", "min_rank": "J", "pays": 2}]},
        format="json",
    )
    assert response.status_code == 400
    assert response.json() == {
        "error": {
            "code": "bad_paytable",
            "message": "Line 1 (two_pair): min_rank applies only to one_pair",
            "field": "lines",
        }
    }
    assert not Paytable.objects.exists()


def test_malformed_input_is_a_400_with_the_field(floor_user: User) -> None:
    response = client_for(floor_user).post(
        "/api/v1/paytables/", {"name": "Bad", "basis": "for_3", "lines": JACKS_9_6}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "basis"
    response = client_for(floor_user).post(
        "/api/v1/paytables/",
        {"name": "Bad", "basis": "for_1", "lines": [{"hand": "flush", "pays": True}]},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "lines.pays"


def test_editing_an_approved_version_is_a_409(floor_user: User, approved: Paytable) -> None:
    response = client_for(floor_user).put(
        f"/api/v1/paytables/{approved.pk}/lines/", {"lines": JACKS_9_6[:2]}, format="json"
    )
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "paytable_not_draft"
    assert paytable_as_dict(approved)["lines"] == JACKS_9_6


def test_approving_without_a_reference_is_a_400(floor_user: User, draft: Paytable) -> None:
    response = client_for(floor_user).post(
        f"/api/v1/paytables/{draft.pk}/approve/", {"approval_reference": ""}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["error"] == {
        "code": "approval_reference_required",
        "message": "Approving a paytable needs the regulator's approval reference.",
        "field": "approval_reference",
    }


def test_an_unknown_paytable_is_a_json_404(floor_user: User) -> None:
    response = client_for(floor_user).get("/api/v1/paytables/999999/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_the_analysis_endpoint_shows_status_and_progress(compliance_user: User, draft: Paytable) -> None:
    response = client_for(compliance_user).get(f"/api/v1/paytables/{draft.pk}/analysis/")
    assert response.status_code == 200
    assert (response.json()["status"], response.json()["progress"]) == ("queued", 0)


def test_the_schema_documents_every_paytable_endpoint_with_its_errors() -> None:
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.validation import validate_schema

    schema = SchemaGenerator().get_schema(request=None, public=True)
    validate_schema(schema)
    paths = schema["paths"]
    writes = {
        ("/api/v1/paytables/", "post"): "201",
        ("/api/v1/paytables/{paytable_id}/lines/", "put"): "200",
        ("/api/v1/paytables/{paytable_id}/approve/", "post"): "200",
        ("/api/v1/paytables/{paytable_id}/retire/", "post"): "200",
        ("/api/v1/paytables/{paytable_id}/clone/", "post"): "201",
        ("/api/v1/paytables/{paytable_id}/analysis/", "post"): "202",
    }
    for (path, method), success in writes.items():
        operation = paths[path][method]
        read_before_parsing = {"413", "415"} if "requestBody" in operation else set()  # a body too large, not JSON
        assert set(operation["responses"]) == {success, "400", "401", "403", "404", "409", *read_before_parsing}, path
    for path, method in (("/api/v1/paytables/", "post"), ("/api/v1/paytables/{paytable_id}/lines/", "put")):
        assert {"413", "415"} <= set(paths[path][method]["responses"]), path
    for path in ("/api/v1/paytables/", "/api/v1/paytables/{paytable_id}/", "/api/v1/paytables/{paytable_id}/analysis/"):
        assert set(paths[path]["get"]["responses"]) == {"200", "400", "401", "403", "404"}, path


def test_the_list_filters_by_status_and_name(dealer_user: User, approved: Paytable, floor_user: User) -> None:
    from paytables.services import paytable_clone

    paytable_clone(paytable=approved, actor=floor_user)
    client = client_for(dealer_user)
    rows = client.get("/api/v1/paytables/", {"status": "approved"}).json()
    assert [(row["version"], row["status"]) for row in rows] == [(1, "approved")]
    rows = client.get("/api/v1/paytables/", {"name": "Jacks or Better 9/6"}).json()
    assert [row["version"] for row in rows] == [2, 1]
    bad = client.get("/api/v1/paytables/", {"status": "pending"})
    assert bad.status_code == 400
    assert bad.json()["error"]["field"] == "status"
