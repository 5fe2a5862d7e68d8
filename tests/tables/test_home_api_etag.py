"""Conditional GETs of home games and hands (as of Triple Draw rounds): a strong ETag from the state's versions, 304
with no body while nothing changed, and a new ETag after every kind of change."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tables.models import Table
from tables.services.home_games import game_floor_call
from tests.tables.conftest import client_for
from tests.tables.helpers import ok
from tests.tables.test_home_api import open_game

pytestmark = pytest.mark.django_db


class Watcher:
    """Polls one URL conditionally, as a client that holds the last state it saw."""

    def __init__(self, api: APIClient, url: str) -> None:
        self.api, self.url, self.seen = api, url, []

    def unchanged(self) -> None:
        response = self.api.get(self.url, HTTP_IF_NONE_MATCH=self.seen[-1])
        assert response.status_code == 304, response.content
        assert response.content == b""
        assert response["ETag"] == self.seen[-1]

    def changed(self) -> dict[str, Any]:
        """The state held is stale: 200 with a new strong ETag (never one seen before), then 304 for it."""
        headers = {"HTTP_IF_NONE_MATCH": self.seen[-1]} if self.seen else {}
        response = self.api.get(self.url, **headers)
        assert response.status_code == 200, response.content
        etag = response["ETag"]
        assert etag.startswith('"')
        assert etag.endswith('"')
        assert etag not in self.seen
        assert response["Cache-Control"] == "private, no-cache"
        self.seen.append(etag)
        self.unchanged()
        return dict(response.json())


def test_every_kind_of_change_gives_the_game_and_the_hand_a_new_etag(
    home_table: Callable[..., Table], dealer_api: APIClient, floor_api: APIClient, dealer_user: User
) -> None:
    table = home_table("five-card-draw")
    game_id = open_game(dealer_api, table, players=3)["id"]
    hand_id = ok(dealer_api.post(f"/api/v1/games/{game_id}/hands/", {"button": 3}, format="json"), 201)["id"]
    game, hand = Watcher(dealer_api, f"/api/v1/games/{game_id}/"), Watcher(dealer_api, f"/api/v1/hands/{hand_id}/")
    both = (game, hand)
    for watcher in both:
        watcher.changed()
        watcher.unchanged()  # polling again changes nothing

    ok(dealer_api.post(f"/api/v1/hands/{hand_id}/actions/", {"seat": 1, "action": "bet", "amount_cents": 200},
                       format="json"))
    assert hand.changed()["actions"] == ["1 bet 200"]
    assert game.changed()["pot_cents"] == 500  # three antes and the bet

    game_floor_call(game=game_id, actor=dealer_user, reason="seat 1 says he checked")
    for watcher in both:
        watcher.changed()

    ok(floor_api.post(f"/api/v1/hands/{hand_id}/correct/", {"index": 0, "action": "1 check", "reason": "he checked"},
                      format="json"))
    assert hand.changed()["corrected"] is True
    assert game.changed()["pot_cents"] == 300

    ok(floor_api.post(f"/api/v1/hands/{hand_id}/void/", {"reason": "misdeal"}, format="json"))
    assert hand.changed()["status"] == "voided"
    assert game.changed()["current_hand"] is None

    ok(dealer_api.post(f"/api/v1/games/{game_id}/players/", {"seat": 4, "name": "P4", "buy_in_cents": 10_000},
                       format="json"))
    assert [p["seat"] for p in game.changed()["players"]] == [1, 2, 3, 4]
    hand.changed()  # the seats' names a hand shows are its game's

    second_id = ok(dealer_api.post(f"/api/v1/games/{game_id}/hands/", {}, format="json"), 201)["id"]
    assert game.changed()["current_hand"]["id"] == second_id
    second = Watcher(dealer_api, f"/api/v1/hands/{second_id}/")
    second.changed()
    ok(floor_api.post(f"/api/v1/hands/{second_id}/award/", {"seats": [2], "reason": "a card exposed"}, format="json"))
    assert second.changed()["ruling"]["reason"] == "a card exposed"
    game.changed()

    ok(floor_api.patch(f"/api/v1/tables/{table.pk}/", {"name": "Draw by the window"}, format="json"))
    assert game.changed()["table_name"] == "Draw by the window"


def test_one_games_etag_never_matches_anothers_nor_a_hands(
    home_table: Callable[..., Table], dealer_api: APIClient
) -> None:
    # Two games played alike: the same versions, numbers and players; only their ids differ.
    games = [open_game(dealer_api, home_table("five-card-draw"), players=2)["id"] for _ in range(2)]
    hands = [ok(dealer_api.post(f"/api/v1/games/{g}/hands/", {"button": 2}, format="json"), 201)["id"] for g in games]
    game_tags = [dealer_api.get(f"/api/v1/games/{g}/")["ETag"] for g in games]
    hand_tags = [dealer_api.get(f"/api/v1/hands/{h}/")["ETag"] for h in hands]
    assert len(set(game_tags + hand_tags)) == 4
    # Holding one game's ETag, a poll of the other gets the other's state.
    other = dealer_api.get(f"/api/v1/games/{games[1]}/", HTTP_IF_NONE_MATCH=game_tags[0])
    assert (other.status_code, other["ETag"], other.json()["id"]) == (200, game_tags[1], games[1])
    assert dealer_api.get(f"/api/v1/hands/{hands[1]}/", HTTP_IF_NONE_MATCH=hand_tags[0]).status_code == 200
    # A hand's ETag is no game's, even where the ids coincide.
    assert dealer_api.get(f"/api/v1/games/{games[0]}/", HTTP_IF_NONE_MATCH=hand_tags[0]).status_code == 200


def test_an_unchanged_poll_skips_building_the_state_but_not_the_access_check(
    home_table: Callable[..., Table], dealer_api: APIClient, other_dealer: User
) -> None:
    game_id = open_game(dealer_api, home_table("five-card-draw"), players=3)["id"]
    hand_id = ok(dealer_api.post(f"/api/v1/games/{game_id}/hands/", {}, format="json"), 201)["id"]
    for url in (f"/api/v1/games/{game_id}/", f"/api/v1/hands/{hand_id}/"):
        with CaptureQueriesContext(connection) as full:
            etag = dealer_api.get(url)["ETag"]
        with CaptureQueriesContext(connection) as unchanged:
            assert dealer_api.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
        # The row read and the dealer's assignment, not the players, hands and ledger the state is built from.
        assert len(unchanged) <= 2 < len(full), [q["sql"] for q in unchanged.captured_queries]
        refused = client_for(other_dealer).get(url, HTTP_IF_NONE_MATCH=etag)
        assert refused.status_code == 403  # a dealer elsewhere learns nothing, not even "unchanged"
        assert "ETag" not in refused


def test_the_schema_documents_the_conditional_gets(dealer_api: APIClient) -> None:
    schema = dealer_api.get("/api/schema/", {"format": "json"}).json()
    for path in ("/api/v1/games/{game_id}/", "/api/v1/hands/{hand_id}/"):
        operation = schema["paths"][path]["get"]
        assert "304" in operation["responses"]
        assert any(p["name"] == "If-None-Match" and p["in"] == "header" for p in operation["parameters"])
