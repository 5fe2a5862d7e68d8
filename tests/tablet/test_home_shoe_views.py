"""A shoe table's screen through Django's test client when the stock runs out during a draw: the dealer is told to
shuffle the discards except the drawing player's own (DESIGN 7) and how many of the draw's cards the shoe has read."""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tables.screens.home import home_token
from tables.services.devices import device_revoke
from tests.tables.conftest import open_home_table
from tests.tables.helpers import ok
from tests.tables.home_shoe import Shoe, start, state


def test_a_stock_run_out_at_a_draw_tells_the_dealer_to_reshuffle_the_discards_but_the_drawers_own(
    floor_user: User, dealer_user: User
) -> None:
    table = open_home_table("shoe threes", "pregnant-threes", floor_user, dealer_user, source="shoe",
                            rules={"draws": 2, "cards_per_draw": 3, "draw": "mandatory"})
    dealer_api = APIClient()
    dealer_api.force_authenticate(dealer_user)
    shoe = Shoe(table, floor_user)
    hand = start(dealer_api, table, [{"seat": s, "name": f"P{s}", "buy_in_cents": 10_000} for s in range(1, 6)])
    url = f"/api/v1/hands/{hand['id']}/actions/"
    while hand["awaiting"]["kind"] != "reshuffle":
        awaiting = hand["awaiting"]
        if awaiting["kind"] == "card":
            ok(shoe.post(shoe.next(hand["card_progress"]["of"] - hand["card_progress"]["received"])))
        elif awaiting["kind"] == "action":
            ok(dealer_api.post(url, {"seat": awaiting["seat"], "action": "check"}, format="json"))
        else:
            held = next(p["cards"] for p in hand["players"] if p["seat"] == awaiting["seat"])
            ok(dealer_api.post(url, {"seat": awaiting["seat"], "action": "draw", "cards": held[:3]}, format="json"))
        hand = state(dealer_api, hand)
    seat = hand["awaiting"]["seat"]
    received, total = hand["card_progress"]["received"], hand["card_progress"]["of"]
    assert received < total
    client = Client()
    client.force_login(dealer_user)
    page = client.get(reverse("tablet:table", args=[table.pk])).content.decode()
    assert f"The stock has run out: Seat {seat} · P{seat}&#x27;s draw" in page
    assert f"Shuffle the discards, except Seat {seat} · P{seat}&#x27;s own, into a new stock" in page
    assert f"{received} of {total} cards read (Seat {seat} · P{seat} gets {total})" in page
    # The shoe reads the reshuffled discards: the draw goes on.
    muck = reshuffled(state(dealer_api, hand))
    random.Random(5).shuffle(muck)
    ok(shoe.post(muck[:total - received]))
    assert state(dealer_api, hand)["awaiting"]["kind"] in ("draw", "action")


def reshuffled(view: dict[str, Any]) -> list[str]:
    """The first reshuffle's stock: every card discarded so far except the drawing player's latest discards."""
    draws = [action.split() for action in view["actions"] if action.split()[1] == "draw"]
    own = next(words[2:] for words in reversed(draws) if int(words[0]) == view["awaiting"]["seat"])
    return [card for words in draws for card in words[2:] if card not in own]


def test_a_shoe_hand_without_an_active_shoe_says_so_and_the_poll_shows_a_shoe_issued_or_revoked(
    floor_user: User, dealer_user: User
) -> None:
    table = open_home_table("shoe draw", "five-card-draw", floor_user, dealer_user, source="shoe")
    dealer_api = APIClient()
    dealer_api.force_authenticate(dealer_user)
    start(dealer_api, table)
    client = Client()
    client.force_login(dealer_user)
    page = client.get(reverse("tablet:table", args=[table.pk])).content.decode()
    assert "No card-reading shoe is registered for this table, or its token was revoked" in page
    token = home_token(table)
    shoe = Shoe(table, floor_user)
    assert home_token(table) != token  # the poll brings the news without a tap
    page = client.get(reverse("tablet:table", args=[table.pk])).content.decode()
    assert "No card-reading shoe is registered" not in page
    token = home_token(table)
    device_revoke(device=shoe.device, actor=floor_user)
    assert home_token(table) != token
    assert "No card-reading shoe is registered" in client.get(reverse("tablet:table", args=[table.pk])).content.decode()
