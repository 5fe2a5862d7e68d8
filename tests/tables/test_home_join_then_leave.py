"""A player who sits down after a hand and gets up before the next (a change of mind, a wrong seat) is in the game
record as a join in the hand's `after` and a leave among its actions; the replay puts the leave after the join, so
the export replays (it stopped: "seat 3 cannot have +1000 chips", the leave applied before the join), and play_game
plays it through the services in the same order (it stopped: "nobody is seated at seat 3", the leave before the
join)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from casino.engine.cards import ALL_CARDS
from tables.models import HomeGame, HomeGamePlayer, Table
from tables.selectors.home_records import game_record, game_replay
from tables.services.home_games import game_close, game_open, player_add_chips, player_join, player_leave
from tables.services.home_hands import hand_start
from tests.tables.home_commands import run
from tests.tables.test_home_services import balanced, play, seat_players

DECK = [str(card) for card in ALL_CARDS]


@pytest.mark.parametrize("seat", [3, 2], ids=["a new seat", "a seat its player had just left"])
def test_a_player_who_joins_and_leaves_between_two_hands_replays(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User, seat: int, tmp_path: Path
) -> None:
    game = game_open(table=home_table("five-card-draw"), actor=dealer_user, players=seat_players(3))
    play(hand_start(game=game, actor=dealer_user, button=1, deck=DECK), dealer_user, "2 bet 200", "3 fold", "1 fold")
    if seat == 2:
        player_leave(game=game.pk, actor=dealer_user, seat=2)
    else:
        player_leave(game=game.pk, actor=dealer_user, seat=3)  # seat 3 is free for the newcomer
    player_join(game=game.pk, actor=dealer_user, seat=seat, name="Dee", buy_in_cents=5_000)
    player_add_chips(game=game.pk, actor=dealer_user, seat=seat, amount_cents=1_000)
    player_leave(game=game.pk, actor=dealer_user, seat=seat)
    other = 2 if seat == 3 else 3  # the one player left beside seat 1, first to act after the button
    play(hand_start(game=game, actor=dealer_user, button=1, deck=DECK), dealer_user, f"{other} fold")
    game_close(game=game.pk, actor=floor_user, reason="end of the session")
    game = HomeGame.objects.get(pk=game.pk)
    assert HomeGamePlayer.objects.get(game=game, name="Dee").cashed_out_cents == 6_000
    first = game_record(game)["hands"][0]
    # The join carries what the newcomer brought to the table before the next hand: buy-in and chips added.
    assert first["after"]["joins"] == [{"name": "Dee", "seat": seat, "stack_cents": 6_000}]
    assert first["actions"][-1] == f"{seat} leave"
    verdict = game_replay(game)
    assert verdict["ok"], verdict["differences"]
    balanced(game)
    exported = game_record(game)
    replayed = json.loads(run("replay_game", tmp_path, exported, "--json"))
    assert json.loads(run("play_game", tmp_path, exported, "--json")) == replayed
    again = game_record(HomeGame.objects.order_by("-pk").first())  # type: ignore[arg-type]
    assert again["hands"] == exported["hands"]


@pytest.mark.parametrize("seat", [4, 1], ids=["a new seat", "a seat its player had just left"])
def test_a_seat_taken_by_two_newcomers_in_turn_between_two_hands_replays_and_plays_again(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User, seat: int, tmp_path: Path
) -> None:
    # Between hands 1 and 2 Dee sits down at the seat, adds chips and gets up; Eve sits down there and adds chips.
    game = game_open(table=home_table("five-card-draw"), actor=dealer_user, players=seat_players(3))
    play(hand_start(game=game, actor=dealer_user, button=1, deck=DECK), dealer_user, "2 bet 200", "3 fold", "1 fold")
    if seat == 1:
        player_add_chips(game=game.pk, actor=dealer_user, seat=1, amount_cents=700)  # P1's, before they leave
        player_leave(game=game.pk, actor=dealer_user, seat=1)
    for name, cents in (("Dee", 5_000), ("Eve", 4_000)):
        player_join(game=game.pk, actor=dealer_user, seat=seat, name=name, buy_in_cents=cents)
        player_add_chips(game=game.pk, actor=dealer_user, seat=seat, amount_cents=1_000)
        if name == "Dee":
            player_leave(game=game.pk, actor=dealer_user, seat=seat)
    play(hand_start(game=game, actor=dealer_user, button=2, deck=DECK), dealer_user,
         *(f"{other} fold" for other in (3, 4, 1) if other <= 3 or other == seat))  # seat 2 takes the antes
    game_close(game=game.pk, actor=floor_user, reason="end of the session")
    game = HomeGame.objects.get(pk=game.pk)
    people = {p.name: p for p in HomeGamePlayer.objects.filter(game=game)}
    assert (people["Dee"].bought_in_cents, people["Dee"].cashed_out_cents) == (6_000, 6_000)
    verdict = game_replay(game)
    assert verdict["ok"], verdict["differences"]
    earlier = [{"seat": 1, "occupant": 1, "stack_cents": people["P1"].cashed_out_cents}] if seat == 1 else []
    earlier.append({"seat": seat, "occupant": len(earlier) + 1, "stack_cents": 6_000})
    assert verdict["replay"]["earlier"] == earlier
    balanced(game)
    exported = game_record(game)
    replayed = json.loads(run("replay_game", tmp_path, exported, "--json"))
    assert json.loads(run("play_game", tmp_path, exported, "--json")) == replayed
    again = game_record(HomeGame.objects.order_by("-pk").first())  # type: ignore[arg-type]
    assert again["hands"] == exported["hands"]
