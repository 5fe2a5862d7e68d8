"""A manual table's showdown muck through the API: a seat concedes unshown, audited; an illegal muck changes
nothing; the result, the hand's players and the exported record say who mucked."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from audit.models import AuditEvent
from tables.models import HomeHand, Table
from tests.tables.helpers import ok


def _showdown(dealer_api: APIClient, table: Table, draw: int = 1) -> dict[str, Any]:
    """Three players check through one draw of `draw` cards each: the hand waits for the hands shown."""
    game = ok(dealer_api.post(f"/api/v1/tables/{table.pk}/games/", {"players": [
        {"seat": s, "name": name, "buy_in_cents": 10_000} for s, name in ((1, "Ann"), (2, "Bob"), (3, "Cy"))]},
        format="json"), 201)
    hand = ok(dealer_api.post(f"/api/v1/games/{game['id']}/hands/", {"button": 3}, format="json"), 201)
    url = f"/api/v1/hands/{hand['id']}/actions/"
    bodies: list[dict[str, Any]] = [{"action": "dealt"}, *({"seat": s, "action": "check"} for s in (1, 2, 3)),
                                    *({"seat": s, "action": "draw", "count": draw} for s in (1, 2, 3)),
                                    *({"seat": s, "action": "check"} for s in (1, 2, 3))]
    for body in bodies:
        hand = ok(dealer_api.post(url, body, format="json"))
    assert hand["awaiting"]["kind"] == "show"
    return hand


def _unchanged(hand_id: int, answer: Any, status: int, code: str, events_before: int) -> None:
    assert answer.status_code == status
    assert answer.json()["error"]["code"] == code
    row = HomeHand.objects.get(pk=hand_id)
    assert "muck" not in " ".join(row.record["actions"])
    assert AuditEvent.objects.count() == events_before


def test_a_seat_mucks_at_the_showdown_and_the_shown_hand_wins(
    home_table: Callable[..., Table], dealer_api: APIClient, assert_audited: Any, compliance_user: User
) -> None:
    hand = _showdown(dealer_api, home_table("freak-of-nature", source="manual"))
    muck_url, cards_url = f"/api/v1/hands/{hand['id']}/muck/", f"/api/v1/hands/{hand['id']}/cards/"
    hand = ok(dealer_api.post(muck_url, {"seat": 3}, format="json"))
    assert hand["players"][2]["mucked"] is True
    assert hand["players"][2]["live"] is False
    assert hand["awaiting"]["seats"] == [1, 2]
    assert hand["awaiting"]["text"] == "the hands shown or mucked by seat 1 and 2"
    assert_audited("home_hand_action", seat_number=3, after={"action": "3 muck", "amount_cents": 0})
    ok(dealer_api.post(cards_url, {"seat": 2, "cards": ["Qs", "Qd", "Qc", "4h", "7d"]}, format="json"))
    hand = ok(dealer_api.post(cards_url, {"seat": 1, "cards": ["5h", "5d", "9c", "9s", "Kh"]}, format="json"))
    assert hand["status"] == "settled"
    assert hand["summary"]["wild_rank"] == "5"  # the hands shown fix it: the mucked one is not among them
    assert hand["summary"]["pots"] == [{"amount_cents": 300, "winners": [1]}]
    assert "Cy mucked: conceded without showing" in hand["result"]["lines"]
    record = ok(dealer_api.get(f"/api/v1/games/{hand['game_id']}/export/"))
    assert record["hands"][0]["actions"][-3:] == ["3 muck", "2 show Qs Qd Qc 4h 7d", "1 show 5h 5d 9c 9s Kh"]
    compliance = Client()
    compliance.force_login(compliance_user)
    page = compliance.get(f"/compliance/home/hands/{hand['id']}/").content.decode()
    assert "Seat 3 · Cy mucks (concedes, hand not shown)" in page  # the recorded actions, in words
    assert "Cy mucked: conceded without showing" in page  # the result
    assert "Consistent" in page  # the record with its muck replays to the stored result


def test_the_actions_endpoint_takes_a_muck_and_the_last_seat_wins_unshown(
    home_table: Callable[..., Table], dealer_api: APIClient
) -> None:
    hand = _showdown(dealer_api, home_table("five-card-draw", source="manual"))
    url = f"/api/v1/hands/{hand['id']}/actions/"
    ok(dealer_api.post(url, {"seat": 1, "action": "muck"}, format="json"))
    hand = ok(dealer_api.post(url, {"seat": 2, "action": "muck"}, format="json"))
    assert hand["status"] == "settled"
    assert hand["result"]["headline"] == "Cy wins uncontested"
    assert [player["stack_cents"] for player in hand["players"]] == [9_900, 9_900, 10_200]


@pytest.mark.parametrize(
    ("setup", "seat", "status", "code"),
    [
        ("betting", 1, 409, "wrong_phase"),
        ("shown", 1, 400, "already_shown"),
        ("forced", 1, 400, "muck_not_allowed"),
        ("showdown", 9, 400, "not_in_hand"),
    ],
)
def test_an_illegal_muck_is_refused_and_changes_nothing(
    home_table: Callable[..., Table], dealer_api: APIClient, setup: str, seat: int, status: int, code: str
) -> None:
    if setup == "forced":
        table = home_table("three-legged-race", source="manual", rules={"forced_play": True})
        hand = _showdown(dealer_api, table, draw=3)
    elif setup == "betting":
        table = home_table("five-card-draw", source="manual")
        game = ok(dealer_api.post(f"/api/v1/tables/{table.pk}/games/", {"players": [
            {"seat": s, "name": f"P{s}", "buy_in_cents": 10_000} for s in (1, 2)]}, format="json"), 201)
        hand = ok(dealer_api.post(f"/api/v1/games/{game['id']}/hands/", {"button": 2}, format="json"), 201)
        hand = ok(dealer_api.post(f"/api/v1/hands/{hand['id']}/actions/", {"action": "dealt"}, format="json"))
    else:
        hand = _showdown(dealer_api, home_table("five-card-draw", source="manual"))
    if setup == "shown":
        ok(dealer_api.post(f"/api/v1/hands/{hand['id']}/cards/", {"seat": 1, "cards": ["As", "Ad", "Kc", "Kd", "2h"]},
                           format="json"))
    events_before = AuditEvent.objects.count()
    answer = dealer_api.post(f"/api/v1/hands/{hand['id']}/muck/", {"seat": seat}, format="json")
    _unchanged(hand["id"], answer, status, code, events_before)


def test_a_muck_on_a_table_the_system_deals_is_refused(
    home_table: Callable[..., Table], dealer_api: APIClient
) -> None:
    table = home_table("five-card-draw")
    game = ok(dealer_api.post(f"/api/v1/tables/{table.pk}/games/", {"players": [
        {"seat": s, "name": f"P{s}", "buy_in_cents": 10_000} for s in (1, 2)]}, format="json"), 201)
    hand = ok(dealer_api.post(f"/api/v1/games/{game['id']}/hands/", {"button": 2}, format="json"), 201)
    events_before = AuditEvent.objects.count()
    answer = dealer_api.post(f"/api/v1/hands/{hand['id']}/muck/", {"seat": 1}, format="json")
    _unchanged(hand["id"], answer, 400, "cards_dealt_by_system", events_before)


def test_the_openapi_schema_documents_the_muck(dealer_api: APIClient) -> None:
    schema = ok(dealer_api.get("/api/schema/?format=json"))
    operation = schema["paths"]["/api/v1/hands/{hand_id}/muck/"]["post"]
    assert operation["tags"] == ["Home games"]
    assert "concede" in operation["summary"]
    body = schema["paths"]["/api/v1/hands/{hand_id}/actions/"]["post"]["requestBody"]["content"]["application/json"]
    name = body["schema"]["$ref"].rsplit("/", 1)[1]
    enum = schema["components"]["schemas"][name]["properties"]["action"]["$ref"].rsplit("/", 1)[1]
    assert "muck" in schema["components"]["schemas"][enum]["enum"]
