"""The tablet's 1 s poll brings the floor's answer to a call, and takes its line away once it is old, on both
screens: the table's latest call is part of the change token the poll compares (before, the answered line stayed up
until something else at the table changed)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tables.models import FloorCall, Table
from tables.screens.home import home_token
from tables.screens.triple_draw import screen_for
from tables.selectors.floor_calls import ANSWER_SHOWN
from tables.services.floor_calls import floor_call_answer
from tables.services.home_games import game_floor_call
from tables.services.rounds import round_floor_call, round_start
from tests.tablet.home_support import home_game

HTMX = {"HTTP_HX_REQUEST": "true"}
ANSWERED = "Floor answered (fiona, "

# A screen with a call open: its table, its poll's address, and the token the page it last rendered holds.
Called = tuple[Table, str, Callable[[], str]]


@pytest.fixture
def triple_draw_call(make_table: Any, dealer_user: User) -> Called:
    table = make_table("Table One", seated=(1, 3))
    round_floor_call(round=round_start(table=table, actor=dealer_user), actor=dealer_user, reason="dispute")
    return table, reverse("tablet:state", args=[table.pk]), (
        lambda: screen_for(Table.objects.get(pk=table.pk)).poll_token)


@pytest.fixture
def home_call(floor_user: User, dealer_user: User) -> Called:
    table, game = home_game("five-card-draw", floor_user, dealer_user, players=[(1, "Ann"), (2, "Bob")])
    game_floor_call(game=game.pk, actor=dealer_user, reason="a card face up")
    return table, reverse("tablet:home-state", args=[table.pk]), lambda: home_token(Table.objects.get(pk=table.pk))


@pytest.fixture(params=["triple_draw_call", "home_call"])
def called(request: pytest.FixtureRequest) -> Called:
    return request.getfixturevalue(request.param)


def _poll(user: User, url: str, token: str) -> Any:
    client = Client()
    client.force_login(user)
    return client.get(url, {"v": token}, **HTMX)


def test_the_poll_shows_the_floors_answer_at_once(called: Called, dealer_user: User, floor_user: User) -> None:
    table, url, token = called
    waiting = token()
    assert _poll(dealer_user, url, waiting).status_code == 204
    floor_call_answer(call=FloorCall.objects.get(table=table), actor=floor_user, note="two minutes")
    response = _poll(dealer_user, url, waiting)
    assert response.status_code == 200
    assert ANSWERED in response.content.decode()
    assert "two minutes" in response.content.decode()
    assert _poll(dealer_user, url, token()).status_code == 204


def test_the_poll_takes_an_old_answer_away(called: Called, dealer_user: User, floor_user: User) -> None:
    table, url, token = called
    call = floor_call_answer(call=FloorCall.objects.get(table=table), actor=floor_user, note="two minutes")
    answered = token()
    assert ANSWERED in _poll(dealer_user, url, "").content.decode()
    # The dealer read the answer ANSWER_SHOWN ago and nothing else happened at the table since.
    FloorCall.objects.filter(pk=call.pk).update(answered_at=call.answered_at - ANSWER_SHOWN)
    response = _poll(dealer_user, url, answered)
    assert response.status_code == 200
    assert ANSWERED not in response.content.decode()
    assert _poll(dealer_user, url, token()).status_code == 204
