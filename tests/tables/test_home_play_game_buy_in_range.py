"""play_game makes a table whose buy-in range admits exactly what the record needs: its smallest buy-in, and its
largest stack after a buy-in or chips added (the services refuse chips that take a stack past the maximum buy-in;
a buy-in outside the range). It used to guess the maximum as the largest starting stack plus every chip added, which
forgets what a player won before adding chips: a record any table with a $20 maximum plays was refused."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from django.contrib.auth.models import User

from tables.models import HomeGame, HomeTableConfig, Table
from tables.selectors.home_records import game_record, game_replay
from tables.services.home_games import game_close, game_open, player_add_chips, player_join
from tables.services.home_hands import hand_start
from tests.tables.home_commands import run
from tests.tables.test_home_services import play, seat_players


def test_play_game_admits_a_stack_that_won_before_its_player_added_chips(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User, tmp_path: Path
) -> None:
    table = home_table("five-card-draw")
    game = game_open(table=table, actor=dealer_user, players=seat_players(2, cents=1_000))
    play(hand_start(game=game.pk, actor=dealer_user, button=1), dealer_user, "2 fold")  # seat 1 wins the antes: $11
    player_add_chips(game=game.pk, actor=dealer_user, seat=1, amount_cents=100)  # $12: more than $10 + $1
    player_join(game=game.pk, actor=dealer_user, seat=3, name="Dee", buy_in_cents=1_050)
    play(hand_start(game=game.pk, actor=dealer_user, button=1), dealer_user, "2 fold", "3 fold")
    game_close(game=game.pk, actor=floor_user, reason="end of the session")
    exported = game_record(HomeGame.objects.get(pk=game.pk))
    assert exported["hands"][0]["after"]["chips"] == {"1": 100}
    verdict = game_replay(HomeGame.objects.get(pk=game.pk))
    assert verdict["ok"], verdict["differences"]
    replayed = json.loads(run("replay_game", tmp_path, exported, "--json"))
    assert json.loads(run("play_game", tmp_path, exported, "--json")) == replayed
    # The new table's range is the record's need, no wider: the smallest buy-in ($10) to the largest stack a buy-in
    # or chips added made ($12: seat 1's $11 and the dollar added).
    made = HomeTableConfig.objects.filter(table__name__startswith="play_game").get()
    assert (made.buy_in_min_cents, made.buy_in_max_cents) == (1_000, 1_200)
