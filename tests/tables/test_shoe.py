"""A card-reading shoe posts cards in dealing order with its own device token; its events are audited as a device."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from audit.models import AuditEvent
from paytables.models import Paytable
from tables.models import CardSource, Table
from tables.services.devices import device_create, device_revoke
from tests.tables.conftest import open_table
from tests.tables.helpers import bet, ok, settle_now, start
from tests.tables.shoe_support import device_add_in_admin, shoe_post

pytestmark = pytest.mark.django_db


def test_the_shoe_deals_round_robin_then_lays_the_rows(
    floor_user: User, dealer_user: User, dealer_api: APIClient, jacks_for_1: Paytable
) -> None:
    table = open_table("Shoe 1", CardSource.SHOE, jacks_for_1, floor_user, dealer_user, seats=2)
    _, token = device_create(table=table, name="shoe-a", actor=floor_user)
    round_id = start(dealer_api, table.pk)
    ok(bet(dealer_api, round_id, 1, 1000, 3))
    ok(bet(dealer_api, round_id, 2, 1000, 1))
    ok(dealer_api.post(f"/api/v1/rounds/{round_id}/close-bets/"))
    # One card at a time to each betting seat in turn: seat 1 gets cards 1, 3, 5, 7, 9.
    deal = ["Js", "Ac", "Jh", "Kc", "4c", "Qc", "7d", "Tc", "9s", "2d"]
    assert ok(shoe_post(token, deal[:3]))["phase"] == "dealing"
    assert ok(shoe_post(token, deal[3:]))["phase"] == "holding"
    state = ok(dealer_api.get(f"/api/v1/rounds/{round_id}/"))
    assert [s["dealt"] for s in state["seats"]] == [["Js", "Jh", "4c", "7d", "9s"], ["Ac", "Kc", "Qc", "Tc", "2d"]]
    # DESIGN 5: no row card may be known before the holds are locked.
    response = shoe_post(token, ["Jc"])
    assert response.status_code == 409
    assert "hold" in response.json()["error"]["message"]
    ok(dealer_api.post(f"/api/v1/rounds/{round_id}/holds/", {"seat": 1, "held": ["Js", "Jh"]}, format="json"))
    ok(
        dealer_api.post(
            f"/api/v1/rounds/{round_id}/holds/", {"seat": 2, "held": ["Ac", "Kc", "Qc", "Tc"]}, format="json"
        )
    )
    rows = ["Jc", "2h", "5d", "Qs", "6h", "4d", "4h", "Kh", "2c", "7s", "As", "Ah", "9h", "9d", "Qh"]
    duplicate = shoe_post(token, ["Js"])
    assert duplicate.json()["error"]["code"] == "duplicate_card"
    assert ok(shoe_post(token, rows[:7]))["phase"] == "drawing"
    assert ok(shoe_post(token, rows[7:]))["phase"] == "settling"
    settle_now(round_id)
    state = ok(dealer_api.get(f"/api/v1/rounds/{round_id}/"))
    assert state["rows"] == [rows[:5], rows[5:10], rows[10:]]
    assert state["totals"]["returns_cents"] == 3000 + 2000 + 2000 + 800_000
    events = AuditEvent.objects.filter(round_id=round_id, action="shoe_cards_record")
    assert events.count() == 4
    assert set(events.values_list("actor_kind", flat=True)) == {"device"}


def test_a_bad_or_revoked_token_is_refused(shoe_table: Table, floor_user: User) -> None:
    device, token = device_create(table=shoe_table, name="shoe-b", actor=floor_user)
    assert shoe_post("not-a-token", ["Js"]).json()["error"]["code"] == "bad_device_token"
    assert APIClient().post("/api/v1/shoe/cards/", {"cards": ["Js"]}, format="json").status_code == 403
    device_revoke(device=device, actor=floor_user)
    response = shoe_post(token, ["Js"])
    assert (response.status_code, response.json()["error"]["code"]) == (403, "bad_device_token")


def test_the_floor_issues_a_shoe_token_in_the_admin_and_it_is_shown_once(shoe_table: Table, floor_user: User) -> None:
    from django.contrib.messages import get_messages

    from tables.models import TableDevice

    response = device_add_in_admin(floor_user, shoe_table, "shoe-c")
    assert response.status_code == 302
    device = TableDevice.objects.get(table=shoe_table, name="shoe-c")
    shown = " ".join(str(m) for m in get_messages(response.wsgi_request))
    token = shown.split("Token for ")[1].split(": ")[1].split(" ")[0]
    assert device.token_hash != token
    assert shoe_post(token, ["Js"]).json()["error"]["code"] == "no_round"  # authenticated: the table is idle
    assert AuditEvent.objects.filter(action="device_create", actor_username=floor_user.username).exists()
