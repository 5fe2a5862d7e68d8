"""The home-game screen's guards for a dealer at speed, through Django's test client: a fold asks first, a hand shown
or a draw the rules refuse is refused beside its button with nothing changed, a hand's result names the players who
played it, and each game's pages answer for their own tables only."""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tables.models import HomeGame, HomeHand, Table
from tables.services.home_games import player_leave
from tables.services.home_hands import hand_act, hand_start
from tests.tablet.home_support import home_game, stacked_deck

HTMX = {"HTTP_HX_REQUEST": "true"}


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _page(client: Client, table: Table) -> str:
    return client.get(reverse("tablet:table", args=[table.pk])).content.decode()


def _record(hand: HomeHand) -> list[str]:
    return list(HomeHand.objects.get(pk=hand.pk).record["actions"])


def _heads_up(floor: User, dealer: User) -> tuple[Table, HomeGame, HomeHand]:
    """Ann (seat 1, king high) and Bob (seat 2, a pair of kings) dealt five-card draw, Ann first to act."""
    table, game = home_game("five-card-draw", floor, dealer, players=[(1, "Ann"), (2, "Bob")])
    deck = stacked_deck([1, 2], {1: "Kd Jc 9h 6s 3d", 2: "Ks Kh 8c 5d 2s"})
    hand = hand_start(game=game.pk, actor=dealer, button=2, deck=[str(card) for card in deck])
    return table, game, hand


def test_a_hand_result_still_names_a_player_who_cashed_out_after_it(floor_user: User, dealer_user: User) -> None:
    table, game, hand = _heads_up(floor_user, dealer_user)
    for request in ({"seat": 1, "action": "check"}, {"seat": 2, "action": "check"},
                    {"seat": 1, "action": "draw", "cards": []}, {"seat": 2, "action": "draw", "cards": []},
                    {"seat": 1, "action": "check"}, {"seat": 2, "action": "check"}):
        hand_act(hand=hand.pk, actor=dealer_user, **request)
    client = _client(dealer_user)
    player_leave(game=game.pk, actor=dealer_user, seat=1)
    page = _page(client, table)
    rows = re.findall(r'<tr class="shown-hand" data-seat="(\d)"><th scope="row">([^<]+)</th><td>([^<]+)</td>', page)
    # Her seat is free again, but the hand she played is read from its own record: her row and her name stay.
    assert rows == [("1", "Seat 1 · Ann", "King high"), ("2", "Seat 2 · Bob", "Pair of kings")]
    assert 'id="seat-1"' not in page
