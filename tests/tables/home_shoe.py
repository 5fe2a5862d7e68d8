"""A card-reading shoe for home-game tests: the device posting cards, and a hand started through the dealer's API."""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth.models import User
from rest_framework.test import APIClient

from casino.engine.cards import ALL_CARDS
from tables.models import Table
from tables.services.devices import device_create
from tests.tables.helpers import ok
from tests.tables.test_home_services import seat_players

# Fifteen cards in dealing order for three players: seat 1 gets 2♣ 5♦ 8♥ J♣ 5♠, seat 2 Q♠ 6♠ 9♦ 3♥ 6♣, seat 3 the rest.
DEAL = ["2c", "Qs", "4h", "5d", "6s", "7c", "8h", "9d", "Ts", "Jc", "3h", "4d", "5s", "6c", "7h"]


class Shoe:
    """A shoe for one table: posts cards with its device token, and deals from its own shuffled deck."""

    def __init__(self, table: Table, floor: User, name: str = "shoe 1", seed: int = 7) -> None:
        self.device, self.token = device_create(table=table, name=name, actor=floor)
        self.client = APIClient()
        self.deck = [str(card) for card in ALL_CARDS]
        random.Random(seed).shuffle(self.deck)

    def post(self, cards: list[str], **extra: Any) -> Any:
        return self.client.post("/api/v1/shoe/cards/", {"cards": cards, **extra}, format="json",
                                HTTP_AUTHORIZATION=f"Device {self.token}")

    def next(self, count: int) -> list[str]:
        taken, self.deck = self.deck[:count], self.deck[count:]
        return taken


def start(dealer_api: APIClient, table: Table, players: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Opens a game (three players of $100 unless told) and starts its first hand, the button on the last seat."""
    players = players or seat_players(3)
    game = ok(dealer_api.post(f"/api/v1/tables/{table.pk}/games/", {"players": players}, format="json"), 201)
    return ok(dealer_api.post(f"/api/v1/games/{game['id']}/hands/", {"button": len(players)}, format="json"), 201)


def state(dealer_api: APIClient, hand: dict[str, Any]) -> dict[str, Any]:
    return ok(dealer_api.get(f"/api/v1/hands/{hand['id']}/"))


def act(dealer_api: APIClient, hand: dict[str, Any], seat: int, action: str, **more: Any) -> dict[str, Any]:
    return ok(dealer_api.post(f"/api/v1/hands/{hand['id']}/actions/", {"seat": seat, "action": action, **more},
                              format="json"))


def check_or_call(dealer_api: APIClient, hand: dict[str, Any]) -> dict[str, Any]:
    """The seat the hand awaits checks if it may, else calls."""
    seat = hand["awaiting"]["seat"]
    return act(dealer_api, hand, seat, "check" if "check" in hand["legal"]["actions"] else "call")


def seat_one_draws_two_aces(dealer_api: APIClient, shoe: Shoe, hand: dict[str, Any]) -> None:
    """The shoe deals DEAL, seats 1–3 check, seat 1 throws 2♣ 5♦ and the shoe deals A♣ A♦ to them."""
    ok(shoe.post(DEAL))
    for seat in (1, 2, 3):
        act(dealer_api, hand, seat, "check")
    act(dealer_api, hand, 1, "draw", cards=["2c", "5d"])
    ok(shoe.post(["Ac", "Ad"]))
