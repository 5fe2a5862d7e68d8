"""POST /api/v1/tables/ and PATCH /api/v1/tables/<id>/: the floor sets up tables of every type through the
services (audited); bad input is a JSON error that changes nothing; other roles are refused."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from audit.models import AuditEvent
from paytables.models import Paytable, PaytableStatus
from tables.models import Table, TableType
from tables.services.tables import table_create
from tests.tables.conftest import client_for

pytestmark = pytest.mark.django_db

LIST = "/api/v1/tables/"


def error(response: Any) -> dict[str, Any]:
    body = response.json()
    assert set(body) == {"error"}, body
    return dict(body["error"])


def test_the_floor_creates_a_triple_draw_table_with_limits_paytable_and_dealer(
    floor_user: User, dealer_user: User, jacks_for_1: Paytable
) -> None:
    response = client_for(floor_user).post(
        LIST,
        {
            "name": "TD 9",
            "card_source": "rng",
            "min_bet_cents": 2500,
            "max_bet_cents": 100_000,
            "max_payout_per_seat_cents": 5_000_000,
            "supervisor_approval_threshold_cents": 250_000,
            "paytable_id": jacks_for_1.pk,
            "dealers": ["dave"],
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    state = response.json()
    assert (state["name"], state["table_type"], state["card_source"]) == ("TD 9", "triple-draw", "rng")
    assert (state["min_bet_cents"], state["max_bet_cents"]) == (2500, 100_000)
    assert state["paytable"]["id"] == jacks_for_1.pk
    assert state["paytable"]["status"] == "active"
    assert state["dealers"] == ["dave"]
    assert len(state["seats"]) == 7
    table = Table.objects.get(name="TD 9")
    for action in ("table_create", "table_assign_dealer", "paytable_mark_active"):
        assert AuditEvent.objects.filter(action=action).exists(), action
    assert AuditEvent.objects.get(action="table_create").object_id == str(table.pk)


@pytest.mark.parametrize("table_type", [kind.value for kind in TableType])
def test_every_table_type_can_be_created(floor_user: User, table_type: str) -> None:
    response = client_for(floor_user).post(LIST, {"name": f"T {table_type}", "table_type": table_type}, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["table_type"] == table_type


def test_a_home_game_table_takes_no_paytable(floor_user: User, jacks_for_1: Paytable) -> None:
    response = client_for(floor_user).post(
        LIST, {"name": "Home", "table_type": "pregnant-threes", "paytable_id": jacks_for_1.pk}, format="json"
    )
    assert response.status_code == 400
    assert error(response)["code"] == "paytable_not_used"
    assert not Table.objects.exists()


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"name": "X", "min_bet_cents": 5000, "max_bet_cents": 2500}, "bad_limits", "max_bet_cents"),
        ({"name": "X", "min_bet_cents": 0}, "min_value", "min_bet_cents"),
        ({"name": "X", "max_payout_per_seat_cents": -1}, "min_value", "max_payout_per_seat_cents"),
        ({"name": "X", "table_type": "roulette"}, "invalid_choice", "table_type"),
        ({"name": "X", "card_source": "telepathy"}, "invalid_choice", "card_source"),
        ({"name": "X", "paytable_id": 999_999}, "unknown_paytable", "paytable_id"),
        ({"name": "X", "dealers": ["nobody"]}, "unknown_user", "dealers"),
        ({"name": "X", "dealers": ["fiona"]}, "not_a_dealer", "dealer"),
        ({"name": "   "}, "blank", "name"),
        ({"min_bet_cents": 500}, "required", "name"),
    ],
)
def test_bad_input_is_a_json_error_and_creates_nothing(
    floor_user: User, dealer_user: User, body: dict[str, Any], code: str, field: str
) -> None:
    response = client_for(floor_user).post(LIST, body, format="json")
    assert response.status_code == 400, response.json()
    assert (error(response)["code"], error(response).get("field")) == (code, field)
    assert not Table.objects.exists()
    assert not AuditEvent.objects.filter(action__startswith="table_").exists()


def test_an_unapproved_or_retired_paytable_is_refused(floor_user: User, jacks_for_1: Paytable) -> None:
    Paytable.objects.filter(pk=jacks_for_1.pk).update(status=PaytableStatus.RETIRED)
    response = client_for(floor_user).post(LIST, {"name": "X", "paytable_id": jacks_for_1.pk}, format="json")
    assert response.status_code == 400
    assert error(response)["code"] == "paytable_not_approved"
    assert not Table.objects.exists()


def test_a_duplicate_name_is_refused(floor_user: User) -> None:
    table_create(name="Dup", actor=floor_user)
    response = client_for(floor_user).post(LIST, {"name": "Dup"}, format="json")
    assert response.status_code == 400
    assert error(response)["code"] == "duplicate_name"
    assert Table.objects.count() == 1


def test_a_name_differing_only_in_case_is_a_duplicate_but_a_table_may_recase_its_own(floor_user: User) -> None:
    """"pit 1" and "Pit 1" are one name to the floor: two tables so named would be told apart by nobody."""
    table = table_create(name="Pit 1", actor=floor_user)
    response = client_for(floor_user).post(LIST, {"name": " pit 1 "}, format="json")
    assert response.status_code == 400
    assert (error(response)["code"], error(response)["field"]) == ("duplicate_name", "name")
    assert "'Pit 1' exists" in error(response)["message"]
    assert Table.objects.count() == 1
    renamed = client_for(floor_user).patch(f"{LIST}{table.pk}/", {"name": "PIT 1"}, format="json")
    assert renamed.status_code == 200
    table.refresh_from_db()
    assert table.name == "PIT 1"


@pytest.mark.parametrize("who", ["dealer_user", "compliance_user", "stranger"])
def test_only_the_floor_creates_or_changes_tables(request: pytest.FixtureRequest, floor_user: User, who: str) -> None:
    table = table_create(name="Mine", actor=floor_user)
    client = client_for(request.getfixturevalue(who))
    assert client.post(LIST, {"name": "Theirs"}, format="json").status_code == 403
    if who == "dealer_user":
        Table.objects.get(pk=table.pk).dealers.add(request.getfixturevalue(who))
    response = client.patch(f"{LIST}{table.pk}/", {"min_bet_cents": 100}, format="json")
    assert response.status_code == 403
    assert not Table.objects.filter(name="Theirs").exists()
    assert Table.objects.get(pk=table.pk).min_bet_cents == 500


def test_patch_changes_what_is_given_through_the_services(
    floor_user: User, dealer_user: User, other_dealer: User, jacks_for_1: Paytable, house_to_1: Paytable
) -> None:
    table = table_create(name="Edit me", actor=floor_user, paytable=jacks_for_1)
    response = client_for(floor_user).patch(
        f"{LIST}{table.pk}/",
        {
            "name": "Edited",
            "card_source": "shoe",
            "max_bet_cents": 20_000,
            "paytable_id": house_to_1.pk,
            "dealers": ["dave", "olga"],
        },
        format="json",
    )
    assert response.status_code == 200, response.json()
    state = response.json()
    assert (state["name"], state["card_source"], state["min_bet_cents"], state["max_bet_cents"]) == (
        "Edited",
        "shoe",
        500,
        20_000,
    )
    assert state["paytable"]["id"] == house_to_1.pk
    assert state["dealers"] == ["dave", "olga"]
    assert Paytable.objects.get(pk=jacks_for_1.pk).status == "approved"  # no table uses it any more
    actions = set(AuditEvent.objects.values_list("action", flat=True))
    assert {"table_update", "table_update_limits", "table_set_paytable", "table_assign_dealer"} <= actions
    response = client_for(floor_user).patch(f"{LIST}{table.pk}/", {"dealers": ["olga"]}, format="json")
    assert response.json()["dealers"] == ["olga"]
    assert AuditEvent.objects.filter(action="table_unassign_dealer").count() == 1


def test_a_refused_patch_changes_nothing_at_all(floor_user: User, dealer_user: User) -> None:
    table = table_create(name="Whole", actor=floor_user)
    before = AuditEvent.objects.count()
    response = client_for(floor_user).patch(
        f"{LIST}{table.pk}/",
        {"name": "Renamed", "min_bet_cents": 1000, "dealers": ["dave", "fiona"]},
        format="json",
    )
    assert response.status_code == 400
    assert error(response)["code"] == "not_a_dealer"
    table.refresh_from_db()
    assert (table.name, table.min_bet_cents, list(table.dealers.all())) == ("Whole", 500, [])
    assert AuditEvent.objects.count() == before


def test_the_type_of_a_table_is_fixed(floor_user: User) -> None:
    table = table_create(name="Fixed", actor=floor_user)
    response = client_for(floor_user).patch(f"{LIST}{table.pk}/", {"table_type": "freak-of-nature"}, format="json")
    assert response.status_code == 400
    assert error(response)["code"] == "table_type_fixed"
    same = client_for(floor_user).patch(f"{LIST}{table.pk}/", {"table_type": "triple-draw"}, format="json")
    assert same.status_code == 200


def test_patch_of_an_unknown_table_is_404(floor_user: User) -> None:
    response = client_for(floor_user).patch(f"{LIST}999999/", {"name": "X"}, format="json")
    assert response.status_code == 404
    assert "error" in response.json()
