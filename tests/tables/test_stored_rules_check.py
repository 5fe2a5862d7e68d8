"""After an upgrade that refuses more: `manage.py check --database default` names every table whose stored house
rules, and every open game whose announced rules, today's rules would refuse (a big bet below the small bet)."""

from __future__ import annotations

from collections.abc import Callable
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from tables.models import HomeGame, HomeTableConfig, Table
from tables.services.home_games import game_close, game_open
from tests.tables.test_home_services import seat_players

pytestmark = pytest.mark.django_db

REFUSED = {"small_bet_cents": 400, "big_bet_cents": 200}  # refused since 2026-12-02; an older release stored it


def check_output() -> str:
    out = StringIO()
    call_command("check", databases=["default"], stdout=out, stderr=out)
    return out.getvalue()


def test_the_check_is_quiet_when_everything_stored_is_accepted(
    home_table: Callable[..., Table], dealer_user: User
) -> None:
    game_open(table=home_table("five-card-draw"), actor=dealer_user, players=seat_players(2))
    text = check_output()
    assert "tables.W00" not in text
    assert "no issues" in text


def test_stored_rules_refused_now_are_named_with_the_table_and_the_field(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User
) -> None:
    table = home_table("five-card-draw")
    game = game_open(table=table, actor=dealer_user, players=seat_players(2))
    # What an older release stored (written past the services on purpose: they refuse it today).
    config = HomeTableConfig.objects.get(table=table)
    HomeTableConfig.objects.filter(pk=config.pk).update(rules={**config.rules, **REFUSED})
    HomeGame.objects.filter(pk=game.pk).update(rules={**game.rules, **REFUSED})
    text = check_output()
    assert f"table {table.name}: its stored house rules are refused now" in text
    assert "(field rules.big_bet_cents)" in text
    assert f"table {table.name}, game {game.number}: the rules it was announced with are refused now" in text
    assert "tables.W001" in text
    assert "tables.W002" in text
    # The hint holds: the floor can still close such a game, its players cashed out, and the warning goes.
    game_close(game=game.pk, actor=floor_user, reason="announced with rules refused since the upgrade")
    assert "tables.W002" not in check_output()
