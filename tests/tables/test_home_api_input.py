"""The home-game API refuses input it would otherwise misread, naming the field and changing nothing: a draw without
its cards (or count), a key the request does not have, a field that does not apply to the action, and money that is
not a JSON integer of cents. A user test found each of these answered 200 with something else recorded."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from tables.models import HomeGame, HomeLedgerEntry, HomeTableConfig, Table
from tests.tables.helpers import ok
from tests.tables.test_home_api import open_game


def _refused(answer: Any, field: str, code: str | None = None) -> dict[str, str]:
    assert answer.status_code == 400, answer.content
    error = dict(answer.json()["error"])
    assert error["field"] == field, error
    if code is not None:
        assert error["code"] == code, error
    return error


def _new_hand(api: APIClient, table: Table) -> tuple[dict[str, Any], str]:
    """A three-seat game's first hand, seat 1 first to act, and the address its actions are posted to."""
    game = open_game(api, table)
    hand = ok(api.post(f"/api/v1/games/{game['id']}/hands/", {"button": 3}, format="json"), 201)
    return hand, f"/api/v1/hands/{hand['id']}/actions/"


def _to_the_draw(api: APIClient, table: Table) -> dict[str, Any]:
    """A three-seat hand, everyone checked: the first draw awaits its seat."""
    hand, url = _new_hand(api, table)
    if hand["manual"]:
        hand = ok(api.post(url, {"action": "dealt"}, format="json"))
    for seat in (1, 2, 3):
        hand = ok(api.post(url, {"seat": seat, "action": "check"}, format="json"))
    assert hand["awaiting"]["kind"] == "draw"
    return hand


def test_a_dealt_hands_draw_without_its_cards_is_refused_and_standing_pat_is_said_outright(
    home_table: Callable[..., Table], dealer_api: APIClient
) -> None:
    hand = _to_the_draw(dealer_api, home_table("five-card-draw"))
    url, seat = f"/api/v1/hands/{hand['id']}/actions/", hand["awaiting"]["seat"]
    error = _refused(dealer_api.post(url, {"seat": seat, "action": "draw"}, format="json"), "cards", "bad_draw")
    assert "[]" in error["message"]  # it says how to stand pat
    _refused(dealer_api.post(url, {"seat": seat, "action": "draw", "cards": None}, format="json"), "cards")
    error = _refused(dealer_api.post(url, {"seat": seat, "action": "draw", "discards": ["5c", "Kc"]},
                                     format="json"), "discards", "unknown_field")
    assert "'discards'" in error["message"]
    assert ok(dealer_api.get(f"/api/v1/hands/{hand['id']}/"))["actions"] == hand["actions"]
    drawn = ok(dealer_api.post(url, {"seat": seat, "action": "draw", "cards": []}, format="json"))
    assert drawn["actions"][-1] == f"{seat} draw"


def test_a_manual_hands_draw_without_its_count_is_refused_and_standing_pat_is_a_count_of_nought(
    home_table: Callable[..., Table], dealer_api: APIClient
) -> None:
    hand = _to_the_draw(dealer_api, home_table("five-card-draw", source="manual"))
    url, seat = f"/api/v1/hands/{hand['id']}/actions/", hand["awaiting"]["seat"]
    _refused(dealer_api.post(url, {"seat": seat, "action": "draw"}, format="json"), "count", "bad_draw")
    _refused(dealer_api.post(url, {"seat": seat, "action": "draw", "count": 1, "cards": ["5c"]}, format="json"),
             "cards", "not_applicable")
    assert ok(dealer_api.get(f"/api/v1/hands/{hand['id']}/"))["actions"] == hand["actions"]
    drawn = ok(dealer_api.post(url, {"seat": seat, "action": "draw", "count": 0}, format="json"))
    assert drawn["actions"][-1] == f"{seat} draw 0"


def test_a_field_that_does_not_apply_to_the_action_is_refused_by_name(
    home_table: Callable[..., Table], dealer_api: APIClient
) -> None:
    hand, url = _new_hand(dealer_api, home_table("five-card-draw"))
    ok(dealer_api.post(url, {"seat": 1, "action": "bet", "amount_cents": 200}, format="json"))
    entries = HomeLedgerEntry.objects.count()
    cases = [
        ({"seat": 2, "action": "call", "amount_cents": 50}, "amount_cents"),
        ({"seat": 2, "action": "fold", "amount_cents": 999}, "amount_cents"),
        ({"seat": 2, "action": "allin", "amount_cents": 999}, "amount_cents"),
        ({"seat": 2, "action": "raise", "amount_cents": 400, "cards": ["5c"]}, "cards"),
        ({"seat": 2, "action": "call", "keeps_ace": False}, "keeps_ace"),
        ({"seat": 2, "action": "call", "card": "Kd"}, "card"),
        ({"seat": 2, "action": "dealt"}, "seat"),
    ]
    for body, field in cases:
        error = _refused(dealer_api.post(url, body, format="json"), field, "not_applicable")
        assert body["action"] in error["message"], error
    assert ok(dealer_api.get(f"/api/v1/hands/{hand['id']}/"))["actions"] == ["1 bet 200"]
    assert HomeLedgerEntry.objects.count() == entries
    # A field sent as null is one not sent.
    called = ok(dealer_api.post(url, {"seat": 2, "action": "call", "amount_cents": None, "cards": None},
                                format="json"))
    assert called["actions"] == ["1 bet 200", "2 call"]
    _refused(dealer_api.post(url, {"seat": 3, "action": "check", "amount_cents": 500}, format="json"),
             "amount_cents", "not_applicable")


def test_keeps_ace_applies_only_to_a_draw_by_count(home_table: Callable[..., Table], dealer_api: APIClient) -> None:
    hand = _to_the_draw(dealer_api, home_table("five-card-draw"))
    url, seat = f"/api/v1/hands/{hand['id']}/actions/", hand["awaiting"]["seat"]
    _refused(dealer_api.post(url, {"seat": seat, "action": "draw", "cards": [], "keeps_ace": True}, format="json"),
             "keeps_ace", "not_applicable")


@pytest.mark.parametrize("amount", ["3000.00", "3000", 3000.0, True, "30.00"])
def test_a_buy_in_that_is_not_whole_cents_is_refused(
    home_table: Callable[..., Table], dealer_api: APIClient, amount: Any
) -> None:
    table = home_table("five-card-draw")
    answer = dealer_api.post(f"/api/v1/tables/{table.pk}/games/",
                             {"players": [{"seat": 1, "name": "Ann", "buy_in_cents": amount}]}, format="json")
    error = _refused(answer, "players.0.buy_in_cents", "bad_amount")
    assert "whole cents" in error["message"]
    assert not HomeGame.objects.filter(table=table).exists()


def test_money_in_every_home_request_is_whole_cents(
    home_table: Callable[..., Table], dealer_api: APIClient, floor_api: APIClient
) -> None:
    table = home_table("five-card-draw")
    game = open_game(dealer_api, table)
    before = ok(dealer_api.get(f"/api/v1/games/{game['id']}/"))
    _refused(dealer_api.post(f"/api/v1/games/{game['id']}/players/1/chips/", {"amount_cents": "500"},
                             format="json"), "amount_cents", "bad_amount")
    _refused(dealer_api.post(f"/api/v1/games/{game['id']}/players/", {"seat": 4, "buy_in_cents": "3000"},
                             format="json"), "buy_in_cents", "bad_amount")
    config = f"/api/v1/tables/{table.pk}/home-config/"
    _refused(floor_api.patch(config, {"buy_in_min_cents": "2000.00"}, format="json"), "buy_in_min_cents",
             "bad_amount")
    _refused(floor_api.patch(config, {"charge": "time", "time_charge_cents": 5.0}, format="json"),
             "time_charge_cents", "bad_amount")
    assert HomeTableConfig.objects.get(table=table).buy_in_min_cents == 1_000
    hand = ok(dealer_api.post(f"/api/v1/games/{game['id']}/hands/", {"button": 3}, format="json"), 201)
    url = f"/api/v1/hands/{hand['id']}"
    _refused(dealer_api.post(f"{url}/actions/", {"seat": 1, "action": "bet", "amount_cents": "2.00"},
                             format="json"), "amount_cents", "bad_amount")
    ok(dealer_api.post(f"{url}/actions/", {"seat": 1, "action": "bet", "amount_cents": 200}, format="json"))
    _refused(dealer_api.post(f"{url}/actions/", {"seat": 2, "action": "raise", "amount_cents": "4.00"},
                             format="json"), "amount_cents", "bad_amount")
    _refused(floor_api.post(f"{url}/award/", {"amounts": {"1": "300", "2": 200}, "reason": "ruling"},
                            format="json"), "amounts.1", "bad_amount")
    after = ok(dealer_api.get(f"/api/v1/games/{game['id']}/"))
    assert [p["stack_cents"] for p in after["players"]] == [9_700, 9_900, 9_900]
    assert len(after["players"]) == len(before["players"])
    assert ok(dealer_api.get(f"{url}/"))["actions"] == ["1 bet 200"]


@pytest.mark.parametrize(("path", "body", "unknown"), [
    ("games/{game}/close/", {"reason": "end of shift", "award": 2}, "award"),
    ("games/{game}/hands/", {"dealer_button": 2}, "dealer_button"),
    ("games/{game}/players/", {"seat": 4, "buy_in_cents": 3_000, "stack_cents": 3_000}, "stack_cents"),
    ("games/{game}/players/1/chips/", {"amount_cents": 500, "seat": 2}, "seat"),
    ("games/{game}/floor-call/", {"reason": "misdeal", "seat": 3}, "seat"),
    ("hands/{hand}/void/", {"reason": "misdeal", "seat": 2}, "seat"),
    ("hands/{hand}/award/", {"seats": [1], "reason": "ruling", "amount_cents": 300}, "amount_cents"),
    ("hands/{hand}/correct/", {"index": 0, "action": "1 check", "reason": "r", "seat": 1}, "seat"),
    ("hands/{hand}/cards/", {"seat": 1, "cards": ["2c", "3c", "4c", "5c", "7d"], "hand": 1}, "hand"),
    ("hands/{hand}/muck/", {"seat": 1, "reason": "conceded"}, "reason"),
    ("hands/{hand}/correct-card/", {"card": "5c", "replacement": "6c", "reason": "r", "index": 0}, "index"),
])
def test_a_key_the_request_does_not_have_is_refused_by_name(
    home_table: Callable[..., Table], dealer_api: APIClient, floor_api: APIClient, path: str, body: dict[str, Any],
    unknown: str,
) -> None:
    game = open_game(dealer_api, home_table("five-card-draw"))
    hand = ok(dealer_api.post(f"/api/v1/games/{game['id']}/hands/", {"button": 3}, format="json"), 201)
    before = ok(dealer_api.get(f"/api/v1/games/{game['id']}/"))
    answer = floor_api.post(f"/api/v1/{path.format(game=game['id'], hand=hand['id'])}", body, format="json")
    error = _refused(answer, unknown, "unknown_field")
    assert repr(unknown) in error["message"]
    assert ok(dealer_api.get(f"/api/v1/games/{game['id']}/")) == before
    players = {"players": [{"seat": 1, "buy_in_cents": 3_000, "buy_in": 30}]}
    _refused(dealer_api.post(f"/api/v1/tables/{game['table_id']}/games/", players, format="json"),
             "players.0.buy_in", "unknown_field")


def test_the_openapi_schema_documents_the_hand_state_and_what_each_action_takes(dealer_api: APIClient) -> None:
    schema = ok(dealer_api.get("/api/schema/?format=json"))
    components = schema["components"]["schemas"]
    hand = components["HomeHandState"]["properties"]
    assert "card_progress" in hand
    legal = components["LegalActions"]["properties"]
    assert "in_round_cents" in legal
    assert "round" in legal["all_in_cents"]["description"]
    assert "now" in legal["call_cents"]["description"]
    action = components["ActionInputRequest"]
    for words in ("raise: `amount_cents`", "`[]` stands pat", "`0` stands pat", "not_applicable"):
        assert words in action["description"], words
    assert action["properties"]["amount_cents"]["type"] == "integer"
    for path, method in [("/api/v1/hands/{hand_id}/actions/", "post"), ("/api/v1/hands/{hand_id}/cards/", "post"),
                         ("/api/v1/hands/{hand_id}/void/", "post"), ("/api/v1/hands/{hand_id}/award/", "post"),
                         ("/api/v1/hands/{hand_id}/correct/", "post"), ("/api/v1/games/{game_id}/close/", "post"),
                         ("/api/v1/games/{game_id}/hands/", "get"), ("/api/v1/games/{game_id}/hands/", "post")]:
        assert len(schema["paths"][path][method].get("description", "")) > 100, (path, method)
