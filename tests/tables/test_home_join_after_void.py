"""A player who sits down at a new seat after the game's first hand was voided is in the record as one of the starting
players, not as a join: the voided hand is not in the record (every chip went back where it was), so nothing
happened between the game's opening and that join that the record could place it after. The presentation loses
nothing: their name, their buy-in (with chips added before the first hand), their cash-out, the house's time charge
before the first hand; played again through the services the game has the same people with the same figures."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db.models import QuerySet

from tables.models import HomeGame, HomeGamePlayer, Table
from tables.selectors.home_records import game_record, game_replay
from tables.services.home_games import game_close, game_open, player_add_chips, player_join
from tables.services.home_hands import hand_start
from tables.services.home_rulings import hand_void
from tests.tables.home_commands import run
from tests.tables.test_home_before_first_hand import TIME, _fold_to_one
from tests.tables.test_home_services import balanced, seat_players


def _people(game: HomeGame) -> list[tuple[int, str, int, int]]:
    players: QuerySet[HomeGamePlayer] = HomeGamePlayer.objects.filter(game=game).order_by("seat", "id")
    return [(p.seat, p.name, p.bought_in_cents, p.cashed_out_cents) for p in players]


@pytest.mark.parametrize("charge", [{}, TIME], ids=["no charge", "time charge"])
def test_a_join_after_a_voided_first_hand_is_a_starting_player_and_nothing_is_lost(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User, tmp_path: Path, charge: dict[str, Any]
) -> None:
    game = game_open(table=home_table("five-card-draw", **charge), actor=dealer_user, players=seat_players(2))
    hand_void(hand=hand_start(game=game.pk, actor=dealer_user, button=2).pk, actor=floor_user, reason="misdeal")
    player_join(game=game.pk, actor=dealer_user, seat=3, name="Dee", buy_in_cents=5_000)
    player_add_chips(game=game.pk, actor=dealer_user, seat=3, amount_cents=1_000)
    _fold_to_one(hand_start(game=game.pk, actor=dealer_user, button=2), dealer_user)
    game_close(game=game.pk, actor=floor_user, reason="end of the session")
    game = HomeGame.objects.get(pk=game.pk)
    balanced(game)
    exported = game_record(game)
    assert exported["players"][2] == {"seat": 3, "name": "Dee", "stack_cents": 6_000}
    assert "joins" not in exported.get("before", {})
    # The time charge taken as the first recorded hand began is Dee's as much as the others'.
    assert exported.get("before", {}).get("house", {}) == ({"1": 300, "2": 300, "3": 300} if charge else {})
    verdict = game_replay(game)
    assert verdict["ok"], verdict["differences"]
    replayed = json.loads(run("replay_game", tmp_path, exported, "--json"))
    assert json.loads(run("play_game", tmp_path, exported, "--json")) == replayed
    played = HomeGame.objects.order_by("-pk").first()
    assert played is not None
    assert played.pk != game.pk
    # The same people with the same buy-ins and cash-outs, and the same totals for the cashier and the house.
    assert _people(played) == _people(game)
    assert (played.buy_ins_cents, played.cash_outs_cents, played.house_cents) == (
        game.buy_ins_cents, game.cash_outs_cents, game.house_cents)
