"""A whole number in an API body (a seat, a count, an id, cents) sent as JSON text ("3") is refused naming the field,
and nothing changes: DRF's IntegerField read "3" as seat 3, hiding a client's bug. The API parses JSON only, so a
form-encoded body (all text) is refused before any field is read."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from tables.models import HomeGame, HomeHand, Round, Table
from tests.tables.helpers import ok, start
from tests.tables.test_home_api import open_game


def _refused(answer: Any, field: str) -> dict[str, str]:
    assert answer.status_code == 400, answer.content
    error = dict(answer.json()["error"])
    assert error["field"] == field, error
    assert "whole number" in error["message"], error
    assert "text" in error["message"], error
    return error


@pytest.mark.parametrize("seat", ["1", "1.0"])
def test_a_bet_for_a_seat_sent_as_text_is_refused(manual_table: Table, dealer_api: APIClient, seat: str) -> None:
    round_id = start(dealer_api, manual_table.pk)
    _refused(dealer_api.post(f"/api/v1/rounds/{round_id}/bets/", {"seat": seat, "amount_cents": 500},
                             format="json"), "seat")
    assert not Round.objects.get(pk=round_id).bets.exists()
    # The same seat as a number is taken.
    ok(dealer_api.post(f"/api/v1/rounds/{round_id}/bets/", {"seat": 1, "amount_cents": 500}, format="json"))


def test_home_game_seats_and_counts_sent_as_text_are_refused(
    home_table: Callable[..., Table], dealer_api: APIClient
) -> None:
    table = home_table("five-card-draw")
    _refused(dealer_api.post(f"/api/v1/tables/{table.pk}/games/",
                             {"players": [{"seat": "1", "name": "Ann", "buy_in_cents": 10_000}]}, format="json"),
             "players.0.seat")
    assert not HomeGame.objects.filter(table=table).exists()
    game = open_game(dealer_api, table)
    _refused(dealer_api.post(f"/api/v1/games/{game['id']}/players/", {"seat": "4", "buy_in_cents": 10_000},
                             format="json"), "seat")
    _refused(dealer_api.post(f"/api/v1/games/{game['id']}/hands/", {"button": "3"}, format="json"), "button")
    assert not HomeHand.objects.filter(game_id=game["id"]).exists()
    hand = ok(dealer_api.post(f"/api/v1/games/{game['id']}/hands/", {"button": 3}, format="json"), 201)
    url = f"/api/v1/hands/{hand['id']}/actions/"
    _refused(dealer_api.post(url, {"seat": str(hand["awaiting"]["seat"] or 1), "action": "check"}, format="json"),
             "seat")
    assert [player["seat"] for player in ok(dealer_api.get(f"/api/v1/games/{game['id']}/"))["players"]] == [1, 2, 3]
    assert ok(dealer_api.get(f"/api/v1/hands/{hand['id']}/"))["actions"] == hand["actions"]


def test_a_table_setting_sent_as_text_is_refused(manual_table: Table, floor_api: APIClient) -> None:
    before = manual_table.min_bet_cents
    answer = floor_api.patch(f"/api/v1/tables/{manual_table.pk}/", {"min_bet_cents": "700"}, format="json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["error"]["field"] == "min_bet_cents"
    assert "whole cents" in answer.json()["error"]["message"]
    manual_table.refresh_from_db()
    assert manual_table.min_bet_cents == before


def test_a_form_encoded_body_is_refused_before_any_field_is_read(manual_table: Table, dealer_api: APIClient) -> None:
    round_id = start(dealer_api, manual_table.pk)
    answer = dealer_api.post(f"/api/v1/rounds/{round_id}/bets/", {"seat": "1", "amount_cents": "500"})
    assert answer.status_code == 415, answer.content
    assert "error" in answer.json()
    assert not Round.objects.get(pk=round_id).bets.exists()
