"""Chips that would take a stack past the maximum buy-in are refused with what can be added now, and change nothing
(a user test read "Adding $500.00 would take the stack past the maximum buy-in $500.00" and had to do the sum)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User

from casino.errors import DomainError
from tables.models import HomeGamePlayer, Table
from tables.services.home_games import game_open, player_add_chips
from tests.tables.conftest import home_table  # noqa: F401 (a pytest fixture)

pytestmark = pytest.mark.django_db


def test_chips_past_the_maximum_say_how_much_may_be_added(
        home_table: Callable[..., Table], dealer_user: User) -> None:  # noqa: F811
    game = game_open(table=home_table("five-card-draw", buy_in_max_cents=50_000), actor=dealer_user,
                     players=[{"seat": 1, "name": "Ann", "buy_in_cents": 9_400},
                              {"seat": 2, "name": "Bob", "buy_in_cents": 50_000}])
    with pytest.raises(DomainError) as refused:
        player_add_chips(game=game.pk, actor=dealer_user, seat=1, amount_cents=50_000)
    assert refused.value.code == "buy_in_outside_range"
    assert refused.value.message == ("adding $500.00 would take the stack of $94.00 past the maximum buy-in of "
                                     "$500.00: at most $406.00 can be added now")
    with pytest.raises(DomainError) as full:
        player_add_chips(game=game.pk, actor=dealer_user, seat=2, amount_cents=100)
    assert full.value.message.endswith(": no chips can be added now")
    assert dict(HomeGamePlayer.objects.filter(game=game).values_list("seat", "stack_cents")) == {1: 9_400, 2: 50_000}
    player_add_chips(game=game.pk, actor=dealer_user, seat=1, amount_cents=40_600)  # exactly the room: taken
    assert HomeGamePlayer.objects.get(game=game, seat=1).stack_cents == 50_000
