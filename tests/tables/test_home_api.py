"""The home-game API: a whole hand over HTTP, roles, 409 for the wrong moment, 4xx that change nothing, concurrent
taps acting once (PostgreSQL), the house rules' field errors, export and replay."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from rest_framework.test import APIClient

from tables.models import HomeHand, HomeLedgerEntry, Table
from tests.tables.conftest import client_for
from tests.tables.helpers import ok


def open_game(api: APIClient, table: Table, players: int = 3) -> dict[str, Any]:
    body = {"players": [{"seat": s, "name": f"P{s}", "buy_in_cents": 10_000} for s in range(1, players + 1)]}
    return ok(api.post(f"/api/v1/tables/{table.pk}/games/", body, format="json"), 201)


def play_to_the_end(api: APIClient, hand: dict[str, Any]) -> dict[str, Any]:
    """Check or call every betting turn and stand pat (or discard the fewest allowed) at every draw."""
    while hand["status"] == "in_play":
        seat = hand["awaiting"]["seat"]
        if hand["legal"] is not None:
            action = "check" if "check" in hand["legal"]["actions"] else "call"
            body: dict[str, Any] = {"seat": seat, "action": action}
        else:
            held = next(p["cards"] for p in hand["players"] if p["seat"] == seat)
            body = {"seat": seat, "action": "draw", "cards": held[: hand["draw"]["minimum"]]}
        hand = ok(api.post(f"/api/v1/hands/{hand['id']}/actions/", body, format="json"))
    return hand


@pytest.mark.parametrize("variant", ["five-card-draw", "pregnant-threes", "three-legged-race", "freak-of-nature"])
def test_a_dealer_plays_a_hand_of_each_variant_over_http(
    home_table: Callable[..., Table], dealer_api: APIClient, variant: str
) -> None:
    extra = {"draws": 2, "cards_per_draw": 3, "draw": "mandatory"} if variant == "pregnant-threes" else {}
    table = home_table(variant, rules=extra)
    game = open_game(dealer_api, table)
    assert game["announcement"]
    assert game["status"] == "open"
    hand = ok(dealer_api.post(f"/api/v1/games/{game['id']}/hands/", {}, format="json"), 201)
    assert hand["phase"] == "betting"
    assert hand["legal"]["seat"] == hand["awaiting"]["seat"]
    assert hand["legal"]["bet"] == {"minimum_cents": 200, "maximum_cents": 200}  # fixed limit: the small bet
    assert all(len(p["cards"]) == 5 for p in hand["players"])
    hand = play_to_the_end(dealer_api, hand)
    assert hand["status"] == "settled"
    assert hand["result"]["headline"]
    game = ok(dealer_api.get(f"/api/v1/games/{game['id']}/"))
    assert sum(p["stack_cents"] for p in game["players"]) + game["pot_cents"] == 30_000
    record = ok(dealer_api.get(f"/api/v1/games/{game['id']}/export/"))
    assert record["variant"] == variant
    assert len(record["hands"]) == 1
    verdict = ok(dealer_api.get(f"/api/v1/games/{game['id']}/replay/"))
    assert verdict["ok"] is True, verdict["differences"]
    assert verdict["replay"]["hands"][0] == hand["summary"]


def test_wrong_moments_are_409_and_bad_input_400_and_neither_changes_anything(
    home_table: Callable[..., Table], dealer_api: APIClient
) -> None:
    game = open_game(dealer_api, home_table("five-card-draw"))
    hand = ok(dealer_api.post(f"/api/v1/games/{game['id']}/hands/", {"button": 3}, format="json"), 201)
    url = f"/api/v1/hands/{hand['id']}/actions/"
    entries = HomeLedgerEntry.objects.count()
    cases = [
        ({"seat": 2, "action": "check"}, 409, "out_of_turn", None),
        ({"seat": 1, "action": "draw", "cards": []}, 409, "wrong_phase", None),
        ({"seat": 1, "action": "bet", "amount_cents": 300}, 400, "bet_above_limit", "amount_cents"),
        ({"seat": 1, "action": "bet"}, 400, "bad_amount", "amount_cents"),
        ({"seat": 1, "action": "juggle"}, 400, None, "action"),
        ({"seat": 1, "action": "killed", "card": "Kd"}, 400, "bad_action", "action"),
    ]
    for body, code, error, field in cases:
        answer = dealer_api.post(url, body, format="json")
        assert answer.status_code == code, (body, answer.content)
        if error:
            assert answer.json()["error"]["code"] == error
        if field:
            assert answer.json()["error"]["field"] == field
    assert ok(dealer_api.get(f"/api/v1/hands/{hand['id']}/"))["actions"] == []
    # The amounts are cents in the request and the code; the message says dollars, as the API's other refusals do.
    refused = dealer_api.post(url, {"seat": 1, "action": "bet", "amount_cents": 300}, format="json").json()["error"]
    assert refused["message"].startswith("bet $3.00 is above the fixed limit of $2.00 (rule: ")
    assert HomeLedgerEntry.objects.count() == entries
    assert dealer_api.post(f"/api/v1/games/{game['id']}/hands/", {}, format="json").status_code == 409


def test_roles(home_table: Callable[..., Table], dealer_api: APIClient, other_dealer: User, compliance_user: User,
               stranger: User, floor_api: APIClient) -> None:
    table = home_table("freak-of-nature")
    game = open_game(dealer_api, table)
    hand = ok(dealer_api.post(f"/api/v1/games/{game['id']}/hands/", {}, format="json"), 201)
    body = {"seat": hand["awaiting"]["seat"], "action": "check"}
    compliance = client_for(compliance_user)
    assert compliance.get(f"/api/v1/hands/{hand['id']}/").status_code == 200
    assert compliance.post(f"/api/v1/hands/{hand['id']}/actions/", body, format="json").status_code == 403
    assert client_for(other_dealer).get(f"/api/v1/games/{game['id']}/").status_code == 403
    assert client_for(other_dealer).post(f"/api/v1/hands/{hand['id']}/actions/", body,
                                         format="json").status_code == 403
    assert client_for(stranger).get(f"/api/v1/hands/{hand['id']}/").status_code == 403
    assert dealer_api.post(f"/api/v1/hands/{hand['id']}/void/", {"reason": "misdeal"},
                           format="json").status_code == 403
    assert dealer_api.patch(f"/api/v1/tables/{table.pk}/home-config/", {"buy_in_min_cents": 500},
                            format="json").status_code == 403
    voided = ok(floor_api.post(f"/api/v1/hands/{hand['id']}/void/", {"reason": "misdeal"}, format="json"))
    assert voided["status"] == "voided"
    game = ok(dealer_api.get(f"/api/v1/games/{game['id']}/"))
    assert [p["stack_cents"] for p in game["players"]] == [10_000, 10_000, 10_000]
    assert dealer_api.post(f"/api/v1/games/{game['id']}/close/", {}, format="json").status_code == 403
    closed = ok(floor_api.post(f"/api/v1/games/{game['id']}/close/", {"reason": "end of shift"}, format="json"))
    assert closed["status"] == "closed"
    assert closed["cash_outs_cents"] == 30_000


def test_house_rules_over_the_api_name_the_field(home_table: Callable[..., Table], floor_api: APIClient) -> None:
    table = home_table("three-legged-race")
    url = f"/api/v1/tables/{table.pk}/home-config/"
    answer = floor_api.patch(url, {"rules": {"legs_to_win": 9}}, format="json")
    assert answer.status_code == 400
    assert answer.json()["error"]["field"] == "rules.legs_to_win"
    answer = floor_api.patch(url, {"charge": "rake", "rake_basis_points": 500}, format="json")
    assert answer.status_code == 400
    assert answer.json()["error"]["field"] == "rake_cap_cents"
    config = ok(floor_api.patch(url, {"rules": {"legs_to_win": 3}, "charge": "time", "time_charge_cents": 500},
                                format="json"))
    assert config["rules"]["legs_to_win"] == 3
    assert config["charge"] == "time"
    assert any("3 legs" in line or "three legs" in line.lower() for line in config["announcement"])
    config = ok(floor_api.post(url, {"rules": {"ante_cents": 50, "betting": "no_limit", "min_bet_cents": 100},
                                     "buy_in_min_cents": 1_000, "buy_in_max_cents": 5_000}, format="json"))
    assert config["rules"]["betting"] == "no_limit"
    assert config["charge"] == "none"
    # A buy-in outside that range is refused in dollars, naming the field.
    answer = floor_api.post(f"/api/v1/tables/{table.pk}/games/",
                            {"players": [{"seat": 1, "name": "Ann", "buy_in_cents": 9_000}]}, format="json")
    assert answer.status_code == 400
    assert answer.json()["error"] == {"code": "buy_in_outside_range", "field": "players.0.buy_in_cents",
                                      "message": "the buy-in must be $10.00 to $50.00"}


@pytest.mark.django_db(transaction=True)
def test_concurrent_taps_on_one_hand_act_once(require_postgres: None, home_table: Callable[..., Table],
                                              dealer_user: User) -> None:
    table = home_table("five-card-draw")
    game = open_game(client_for(dealer_user), table)
    hand = ok(client_for(dealer_user).post(f"/api/v1/games/{game['id']}/hands/", {"button": 3}, format="json"),
              201)
    start, answers = threading.Barrier(4), []

    def tap() -> None:
        try:
            api = client_for(dealer_user)
            start.wait(10)
            answers.append(api.post(f"/api/v1/hands/{hand['id']}/actions/", {"seat": 1, "action": "bet",
                                                                           "amount_cents": 200},
                                    format="json").status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=tap) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(answers) == [200, 409, 409, 409]
    assert HomeHand.objects.get(pk=hand["id"]).record["actions"] == ["1 bet 200"]


def test_the_floors_rulings_over_the_api(home_table: Callable[..., Table], dealer_api: APIClient,
                                         floor_api: APIClient) -> None:
    game = open_game(dealer_api, home_table("five-card-draw"))
    hand = ok(dealer_api.post(f"/api/v1/games/{game['id']}/hands/", {"button": 3}, format="json"), 201)
    url = f"/api/v1/hands/{hand['id']}"
    ok(dealer_api.post(f"{url}/actions/", {"seat": 1, "action": "bet", "amount_cents": 200}, format="json"))
    answer = floor_api.post(f"{url}/correct/", {"index": 0, "action": "1 check", "reason": ""}, format="json")
    assert answer.status_code == 400
    answer = floor_api.post(f"{url}/correct/", {"index": 0, "action": "1 bet 300", "reason": "misheard"},
                            format="json")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "bad_correction"
    assert answer.json()["error"]["message"] == (
        "action 0 ('1 bet 300') no longer applies: bet $3.00 is above the fixed limit of $2.00")
    corrected = ok(floor_api.post(f"{url}/correct/", {"index": 0, "action": "1 check", "reason": "misheard"},
                                  format="json"))
    assert corrected["actions"] == ["1 check"]
    assert corrected["corrected"] is True
    awarded = ok(floor_api.post(f"{url}/award/", {"seats": [2], "reason": "exposed cards"}, format="json"))
    assert awarded["status"] == "settled"
    assert awarded["ruling"]["seats"] == [2]
    assert floor_api.post(f"{url}/void/", {"reason": "late"}, format="json").status_code == 409
    game = ok(dealer_api.get(f"/api/v1/games/{game['id']}/"))
    assert [p["stack_cents"] for p in game["players"]] == [9_900, 10_200, 9_900]
    verdict = ok(dealer_api.get(f"/api/v1/games/{game['id']}/replay/"))
    assert verdict["ok"] is True
    assert "ruling" in verdict["note"]


def test_the_hand_state_shows_no_side_pot_for_a_bet_not_yet_answered(
    home_table: Callable[..., Table], dealer_api: APIClient
) -> None:
    # Antes $1, seat 1 bets $2, seat 2 calls, seat 3 has not acted: nobody is all in, so one pot of $7.
    game = open_game(dealer_api, home_table("five-card-draw"))
    hand = ok(dealer_api.post(f"/api/v1/games/{game['id']}/hands/", {"button": 3}, format="json"), 201)
    url = f"/api/v1/hands/{hand['id']}/actions/"
    ok(dealer_api.post(url, {"seat": 1, "action": "bet", "amount_cents": 200}, format="json"))
    hand = ok(dealer_api.post(url, {"seat": 2, "action": "call"}, format="json"))
    assert hand["pots"] == [{"amount_cents": 700, "eligible": [1, 2, 3]}]
    assert ok(dealer_api.get(f"/api/v1/hands/{hand['id']}/"))["pots"] == hand["pots"]
    hand = ok(dealer_api.post(url, {"seat": 3, "action": "raise", "amount_cents": 400}, format="json"))
    assert hand["pots"] == [{"amount_cents": 1_100, "eligible": [1, 2, 3]}]
    assert hand["pot_cents"] == 1_100
    # Seat 1 has $2 in this round and faces a raise to $4: a call puts in $2 more.
    legal = hand["legal"]
    assert (legal["seat"], legal["in_round_cents"], legal["call_cents"]) == (1, 200, 200)


def test_an_id_beyond_any_row_is_not_found_not_a_server_error(dealer_user: User) -> None:
    """Found by the API fuzzing test: a game or hand id past the 64-bit range reached the hand-written row lock,
    which SQLite cannot bind (a 500); it matches no row, as the ORM's lookups treat it."""
    api = client_for(dealer_user)
    huge = 2**70
    for url, body in ((f"/api/v1/games/{huge}/hands/", {}), (f"/api/v1/hands/{huge}/actions/",
                                                             {"seat": 1, "action": "check"})):
        answer = api.post(url, body, format="json")
        assert answer.status_code == 404, (url, answer.content)
