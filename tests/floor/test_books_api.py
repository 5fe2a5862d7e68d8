"""The shift books API and the shift sheet: each write is one service call, bad input gets a clear error and
changes nothing, and every endpoint checks its role."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from audit.models import AuditEvent
from floor.demo import played_at
from floor.models import ChipCount, ChipSlip, Drop, Shift
from tables.models import Table
from tests.floor.conftest import api_for, local
from tests.floor.test_books import DAY

pytestmark = pytest.mark.django_db
BOOKS = f"/api/v1/floor/shifts/{DAY}/day/"


def fill(table: Table, **signature: str) -> dict[str, Any]:
    return {"table_id": table.pk, "kind": "fill", "chips": {"10000": 10}, **signature}


def test_a_fill_is_signed_by_the_floor_caller_and_the_dealers_password(
    rng_tables: list[Table], floor_user: User, dealer_user: User
) -> None:
    api = api_for(floor_user)
    table = rng_tables[0]
    response = api.post(f"{BOOKS}slips/", fill(table, dealer_username="dave", dealer_password="pw-dave"), format="json")
    assert response.status_code == 201, response.content
    [books] = response.json()["tables"]
    assert (books["fills_cents"], books["slips"][0]["dealer"], books["slips"][0]["floor"]) == (100_000, "dave", "fiona")


@pytest.mark.parametrize(
    ("signature", "code"),
    [
        ({}, "second_signature_required"),
        ({"dealer_username": "dave", "dealer_password": "wrong"}, "bad_signature"),
        ({"dealer_username": "dave"}, "bad_signature"),
        ({"dealer_username": "fiona", "dealer_password": "pw-fiona"}, "same_signer"),
        ({"dealer_username": "carl", "dealer_password": "pw-carl"}, "signer_not_dealer"),
    ],
)
def test_a_fill_without_a_valid_second_signature_changes_nothing(
    rng_tables: list[Table],
    floor_user: User,
    dealer_user: User,
    compliance_user: User,
    signature: dict[str, str],
    code: str,
) -> None:
    before = AuditEvent.objects.order_by("-id").values_list("id", flat=True).first() or 0
    response = api_for(floor_user).post(f"{BOOKS}slips/", fill(rng_tables[0], **signature), format="json")
    assert (response.status_code, response.json()["error"]["code"]) == (400, code)
    assert not ChipSlip.objects.exists()
    assert not Shift.objects.exists()
    # A wrong password is a failed sign-in, which the audit trail records; nothing else is written.
    assert set(AuditEvent.objects.filter(id__gt=before).values_list("action", flat=True)) <= {"user_login_failed"}


@pytest.mark.parametrize(
    ("path", "body", "code", "field"),
    [
        ("inventories/", {"kind": "opening", "chips": {"500": -1}}, "negative_count", "chips"),
        ("inventories/", {"kind": "opening", "chips": {"3": 1}}, "bad_denomination", "chips"),
        ("inventories/", {"kind": "middle", "chips": {}}, "invalid_choice", "kind"),
        ("inventories/", {"kind": "opening", "chips": {}}, "no_chips_entered", "chips"),
        ("drops/", {"cash_cents": -5, "markers_cents": 0}, "negative_amount", "cash_cents"),
        # A number sent as JSON text was read as the number: refused, naming the field.
        ("drops/", {"cash_cents": "5000", "markers_cents": 0}, "bad_amount", "cash_cents"),
        ("inventories/", {"table_id": "1", "kind": "opening", "chips": {"500": 1}}, "not_whole_number", "table_id"),
    ],
)
def test_bad_books_input_is_refused_and_changes_nothing(
    rng_tables: list[Table], floor_user: User, path: str, body: dict[str, Any], code: str, field: str
) -> None:
    response = api_for(floor_user).post(f"{BOOKS}{path}", {"table_id": rng_tables[0].pk, **body}, format="json")
    assert response.status_code == 400
    assert (response.json()["error"]["code"], response.json()["error"]["field"]) == (code, field)
    assert not ChipCount.objects.exists()
    assert not Drop.objects.exists()


@pytest.mark.parametrize(
    ("url", "code"),
    [
        (f"/api/v1/floor/shifts/{DAY}/brunch/inventories/", "unknown_shift"),
        ("/api/v1/floor/shifts/17-03-2025/day/inventories/", "bad_date"),
    ],
)
def test_an_unknown_shift_or_day_is_refused(rng_tables: list[Table], floor_user: User, url: str, code: str) -> None:
    body = {"table_id": rng_tables[0].pk, "kind": "opening", "chips": {"500": 0}}
    response = api_for(floor_user).post(url, body, format="json")
    assert (response.status_code, response.json()["error"]["code"]) == (400, code)


def test_an_unknown_table_is_refused(floor_user: User) -> None:
    response = api_for(floor_user).post(
        f"{BOOKS}inventories/", {"table_id": 987654, "kind": "opening", "chips": {"500": 0}}, format="json"
    )
    assert (response.status_code, response.json()["error"]["code"]) == (400, "unknown_table")
    assert not Shift.objects.exists()


def test_closing_an_unstarted_or_running_shift_is_a_conflict(rng_tables: list[Table], floor_user: User) -> None:
    api = api_for(floor_user)
    response = api.post(f"{BOOKS}close/")
    assert (response.status_code, response.json()["error"]["code"]) == (409, "shift_not_started")
    opening = {"table_id": rng_tables[0].pk, "kind": "opening", "chips": {"500": 0}}
    api.post(f"{BOOKS}inventories/", opening, format="json")
    response = api.post(f"{BOOKS}close/")
    assert (response.status_code, response.json()["error"]["code"]) == (409, "shift_incomplete")


def test_the_books_are_read_by_floor_compliance_and_count_and_written_by_their_roles(
    rng_tables: list[Table],
    floor_user: User,
    compliance_user: User,
    count_user: User,
    dealer_user: User,
    stranger: User,
) -> None:
    for reader in (floor_user, compliance_user, count_user):
        assert api_for(reader).get(BOOKS).status_code == 200
    for outsider in (dealer_user, stranger):
        assert api_for(outsider).get(BOOKS).status_code == 403
    assert APIClient().get(BOOKS).status_code == 401
    table = rng_tables[0].pk
    drop = {"table_id": table, "cash_cents": 5_000, "markers_cents": 0}
    assert api_for(count_user).post(f"{BOOKS}drops/", drop, format="json").status_code == 200
    inventory = {"table_id": table, "kind": "opening", "chips": {"500": 0}}
    for writer, expected in ((count_user, "floor_only"), (compliance_user, "read_only"), (dealer_user, "floor_only")):
        response = api_for(writer).post(f"{BOOKS}inventories/", inventory, format="json")
        assert (response.status_code, response.json()["error"]["code"]) == (403, expected)
    response = api_for(compliance_user).post(f"{BOOKS}drops/", drop, format="json")
    assert (response.status_code, response.json()["error"]["code"]) == (403, "read_only")
    assert not ChipCount.objects.exists()


def test_a_pit_is_set_by_the_floor_only(rng_tables: list[Table], floor_user: User, dealer_user: User) -> None:
    table = rng_tables[0]
    response = api_for(floor_user).post(f"/api/v1/floor/tables/{table.pk}/pit/", {"pit": "  Pit  7 "}, format="json")
    assert response.json() == {"table_id": table.pk, "table": table.name, "pit": "Pit 7"}
    assert (
        api_for(dealer_user).post(f"/api/v1/floor/tables/{table.pk}/pit/", {"pit": "x"}, format="json").status_code
        == 403
    )
    too_long = api_for(floor_user).post(f"/api/v1/floor/tables/{table.pk}/pit/", {"pit": "p" * 41}, format="json")
    assert (too_long.status_code, too_long.json()["error"]["code"]) == (400, "bad_pit")
    assert Table.objects.get(pk=table.pk).pit == "Pit 7"


def page_client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_shift_sheet_records_through_its_forms_and_shows_errors_beside_them(
    rng_tables: list[Table], floor_user: User, count_user: User
) -> None:
    table = rng_tables[0]
    sheet = f"/floor/shifts/?day={DAY}&shift=day"
    action = f"/floor/shifts/{DAY}/day/"
    floor = page_client(floor_user)
    with played_at(local(DAY, 7)):
        done = floor.post(f"{action}inventory/", {"table_id": table.pk, "kind": "opening", "chips-10000": "20"})
    assert done.status_code == 302
    assert ChipCount.objects.get(kind="opening").total_cents == 200_000
    refused = floor.post(f"{action}inventory/", {"table_id": table.pk, "kind": "closing", "chips-500": "-4"})
    assert refused.status_code == 400
    assert "cannot be negative" in refused.content.decode()
    assert not ChipCount.objects.filter(kind="closing").exists()
    unsigned = floor.post(f"{action}slip/", {"table_id": table.pk, "kind": "fill", "chips-500": "4"})
    assert unsigned.status_code == 400
    assert "needs a second signature" in unsigned.content.decode()
    counted = page_client(count_user).post(f"{action}drop/", {"table_id": table.pk, "cash": "1,250.50", "markers": ""})
    assert counted.status_code == 302
    assert Drop.objects.get().cash_cents == 125_050
    page = floor.get(sheet).content.decode()
    assert "$2,000.00" in page
    assert "$1,250.50" in page
    assert page_client(count_user).post(f"{action}close/").status_code == 403
