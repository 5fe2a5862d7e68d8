"""Finding a game's hands over the API: GET /games/{id}/hands/ lists them (it was 405; a game named only its current
and last hand, so an integrator or compliance tool could not reach a voided or an earlier hand but by guessing ids)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tables.models import Table
from tests.tables.conftest import client_for
from tests.tables.helpers import ok
from tests.tables.test_home_api import open_game, play_to_the_end

pytestmark = pytest.mark.django_db


def test_a_games_hands_are_listed_in_order_with_their_ids(
    home_table: Callable[..., Table], dealer_api: APIClient, floor_api: APIClient, compliance_user: User,
    other_dealer: User,
) -> None:
    game = open_game(dealer_api, home_table("five-card-draw"))
    url = f"/api/v1/games/{game['id']}/hands/"
    empty = dealer_api.get(url)
    assert (empty.status_code, empty.json()) == (200, [])
    first = play_to_the_end(dealer_api, ok(dealer_api.post(url, {}, format="json"), 201))
    second = ok(dealer_api.post(url, {}, format="json"), 201)
    ok(floor_api.post(f"/api/v1/hands/{second['id']}/void/", {"reason": "misdeal"}, format="json"))
    third = ok(dealer_api.post(url, {}, format="json"), 201)

    listed = client_for(compliance_user).get(url)
    assert listed.status_code == 200
    hands = listed.json()
    assert [(h["id"], h["number"], h["status"]) for h in hands] == [
        (first["id"], 1, "settled"), (second["id"], 2, "voided"), (third["id"], 3, "in_play")]
    assert (hands[1]["void_reason"], hands[1]["ended_at"] is not None) == ("misdeal", True)
    assert hands[2]["ended_at"] is None
    assert [(h["ruled"], h["corrected"]) for h in hands] == [(False, False)] * 3
    assert hands[0]["button"] == first["button"]

    assert client_for(other_dealer).get(url).status_code == 403  # a dealer elsewhere
    assert APIClient().get(url).status_code == 401
    assert dealer_api.get("/api/v1/games/999999999/hands/").status_code == 404


def test_a_tables_games_page_on_past_twenty_with_a_link_to_the_next(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User, dealer_api: APIClient
) -> None:
    """The list stopped at the newest 20 games with no sign of older ones and no way to page to them."""
    from tables.services.home_games import game_close, game_open

    table = home_table("five-card-draw")
    ids = []
    for _ in range(23):
        game = game_open(table=table, actor=dealer_user)
        game_close(game=game, actor=floor_user, reason="end of the session")
        ids.append(game.pk)
    url = f"/api/v1/tables/{table.pk}/games/"
    first = dealer_api.get(url)
    assert first.status_code == 200
    assert [g["id"] for g in first.json()] == ids[::-1][:20]
    assert first["Link"] == f'<http://testserver{url}?before={ids[3]}>; rel="next"'
    second = dealer_api.get(f"{url}?before={ids[3]}")
    assert [g["id"] for g in second.json()] == [ids[2], ids[1], ids[0]]
    assert not second.has_header("Link")
    refused = dealer_api.get(f"{url}?before=soon")
    assert refused.status_code == 400
    assert refused.json()["error"]["field"] == "before"


def test_the_export_leaves_out_the_hand_in_play_whose_deck_tells_the_cards_to_come(
    home_table: Callable[..., Table], dealer_api: APIClient, compliance_user: User
) -> None:
    """GET /games/{id}/export/ during a hand gave that hand's whole deck, top first: anyone who may read the table
    (its dealer among them) knew every draw before it was made."""
    from tables.models import HomeHand

    game = open_game(dealer_api, home_table("five-card-draw"))
    hands = f"/api/v1/games/{game['id']}/hands/"
    first = play_to_the_end(dealer_api, ok(dealer_api.post(hands, {}, format="json"), 201))
    in_play = ok(dealer_api.post(hands, {}, format="json"), 201)
    deck = HomeHand.objects.get(pk=in_play["id"]).record["deck"]
    assert len(deck) == 52
    for reader in (dealer_api, client_for(compliance_user)):
        record = ok(reader.get(f"/api/v1/games/{game['id']}/export/"))
        assert [h["deck"] for h in record["hands"]] == [HomeHand.objects.get(pk=first["id"]).record["deck"]]
        assert deck not in [h["deck"] for h in record["hands"]]
    verdict = ok(dealer_api.get(f"/api/v1/games/{game['id']}/replay/"))
    assert verdict["ok"] is True
    assert verdict["note"] == "hand 2 is in play: the replay checks the 1 hands before it"
