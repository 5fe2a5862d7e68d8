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
