"""Shoe device credentials: the floor issues one for a shoe table through the API (the token shown once) and revokes
it; dealers and compliance may not; a table not dealt from a shoe gets none, through the API or the admin."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from audit.models import AuditEvent
from paytables.models import Paytable
from tables.models import CardSource, Table, TableDevice
from tables.services.devices import token_digest
from tests.tables.conftest import client_for, open_table
from tests.tables.helpers import ok
from tests.tables.shoe_support import device_add_in_admin, shoe_post

pytestmark = pytest.mark.django_db


def test_the_floor_issues_a_device_and_its_token_works_then_revokes_it(
    shoe_table: Table, floor_api: APIClient, floor_user: User
) -> None:
    issued = ok(floor_api.post(f"/api/v1/tables/{shoe_table.pk}/devices/", {"name": "shoe 1"}, format="json"), 201)
    assert (issued["table_id"], issued["name"], issued["active"]) == (shoe_table.pk, "shoe 1", True)
    device = TableDevice.objects.get(pk=issued["id"])
    assert device.token_hash == token_digest(issued["token"]) != issued["token"]
    assert shoe_post(issued["token"], ["Js"]).json()["error"]["code"] == "no_round"  # authenticated: the table is idle
    assert AuditEvent.objects.filter(action="device_create", actor_username=floor_user.username).exists()
    revoked = ok(floor_api.post(f"/api/v1/devices/{device.pk}/revoke/"))
    assert revoked["active"] is False
    assert "token" not in revoked
    assert shoe_post(issued["token"], ["Js"]).json()["error"]["code"] == "bad_device_token"
    again = floor_api.post(f"/api/v1/devices/{device.pk}/revoke/")
    assert (again.status_code, again.json()["error"]["code"]) == (409, "already_revoked")
    assert floor_api.post("/api/v1/devices/999999/revoke/").status_code == 404
    assert AuditEvent.objects.filter(action="device_revoke", actor_username=floor_user.username).exists()


def test_a_second_device_of_the_same_name_or_no_name_is_refused(shoe_table: Table, floor_api: APIClient) -> None:
    url = f"/api/v1/tables/{shoe_table.pk}/devices/"
    ok(floor_api.post(url, {"name": "shoe 1"}, format="json"), 201)
    error = floor_api.post(url, {"name": "shoe 1"}, format="json").json()["error"]
    assert (error["code"], error["field"]) == ("duplicate_name", "name")
    assert floor_api.post(url, {"name": ""}, format="json").status_code == 400
    assert TableDevice.objects.filter(table=shoe_table).count() == 1


@pytest.mark.parametrize("who", ["dealer_user", "compliance_user"])
def test_dealers_and_compliance_may_not_issue_or_revoke_a_device(
    shoe_table: Table, floor_api: APIClient, who: str, request: pytest.FixtureRequest
) -> None:
    issued = ok(floor_api.post(f"/api/v1/tables/{shoe_table.pk}/devices/", {"name": "shoe 1"}, format="json"), 201)
    api = client_for(request.getfixturevalue(who))
    answer = api.post(f"/api/v1/tables/{shoe_table.pk}/devices/", {"name": "shoe 2"}, format="json")
    assert answer.status_code == 403
    assert api.post(f"/api/v1/devices/{issued['id']}/revoke/").status_code == 403
    assert list(TableDevice.objects.filter(table=shoe_table).values_list("name", "active")) == [("shoe 1", True)]
    assert APIClient().post(f"/api/v1/devices/{issued['id']}/revoke/").status_code in (401, 403)


def test_a_table_not_dealt_from_a_shoe_gets_no_device(
    floor_api: APIClient, floor_user: User, dealer_user: User, jacks_for_1: Paytable
) -> None:
    table = open_table("Manual API", CardSource.MANUAL, jacks_for_1, floor_user, dealer_user, seats=1)
    answer = floor_api.post(f"/api/v1/tables/{table.pk}/devices/", {"name": "shoe 1"}, format="json")
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert (error["code"], error["field"]) == ("not_a_shoe_table", "table")
    assert "card source is 'Dealer-entered cards'" in error["message"]
    assert "set its card source to 'Card-reading shoe'" in error["message"]
    assert not TableDevice.objects.filter(table=table).exists()


def test_the_admin_refuses_a_device_for_a_table_not_dealt_from_a_shoe_beside_the_table_field(
    floor_user: User, dealer_user: User, jacks_for_1: Paytable
) -> None:
    table = open_table("Manual admin", CardSource.MANUAL, jacks_for_1, floor_user, dealer_user, seats=1)
    response = device_add_in_admin(floor_user, table, "shoe-c")
    assert response.status_code == 200  # the form again, not a redirect
    errors = response.context["adminform"].form.errors
    assert list(errors) == ["table"]
    assert "a device credential is only for a table dealt from a shoe" in errors["table"][0]
    assert 'value="shoe-c"' in response.content.decode()
    assert not TableDevice.objects.filter(table=table).exists()
