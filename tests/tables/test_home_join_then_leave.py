"""A player who sits down after a hand and gets up before the next (a change of mind, a wrong seat) is in the game
record as a join in the hand's `after` and a leave among its actions; the replay puts the leave after the join, so
the export replays (it stopped: "seat 3 cannot have +1000 chips", the leave applied before the join), and play_game
plays it through the services in the same order (it stopped: "nobody is seated at seat 3", the leave before the
join)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from casino.engine.cards import ALL_CARDS
from tables.models import HomeGame, HomeGamePlayer, Table
from tables.selectors.home_records import game_record, game_replay
from tables.services.home_games import game_close, game_open, player_add_chips, player_join, player_leave
from tables.services.home_hands import hand_start
from tests.tables.home_commands import plays_again
from tests.tables.test_home_services import balanced, play, seat_players

DECK = [str(card) for card in ALL_CARDS]


def after_one_hand(table: Table, dealer: User) -> HomeGame:
    """A game of three whose first hand seat 2 won with a bet the others folded to."""
    game = game_open(table=table, actor=dealer, players=seat_players(3))
    play(hand_start(game=game, actor=dealer, button=1, deck=DECK), dealer, "2 bet 200", "3 fold", "1 fold")
    return game


def closed_and_replayed(game: HomeGame, floor: User, tmp_path: Path) -> tuple[HomeGame, dict[str, Any]]:
    """The floor closes the game; it replays clean, balances, and its export plays again to the same result."""
    game_close(game=game.pk, actor=floor, reason="end of the session")
    game = HomeGame.objects.get(pk=game.pk)
    verdict = game_replay(game)
    assert verdict["ok"], verdict["differences"]
    balanced(game)
    plays_again(game_record(game), tmp_path)
    return game, verdict


@pytest.mark.parametrize("seat", [3, 2], ids=["a new seat", "a seat its player had just left"])
def test_a_player_who_joins_and_leaves_between_two_hands_replays(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User, seat: int, tmp_path: Path
) -> None:
    game = after_one_hand(home_table("five-card-draw"), dealer_user)
    player_leave(game=game.pk, actor=dealer_user, seat=seat)  # seat 3 is free for the newcomer, or seat 2 again
    player_join(game=game.pk, actor=dealer_user, seat=seat, name="Dee", buy_in_cents=5_000)
    player_add_chips(game=game.pk, actor=dealer_user, seat=seat, amount_cents=1_000)
    player_leave(game=game.pk, actor=dealer_user, seat=seat)
    other = 2 if seat == 3 else 3  # the one player left beside seat 1, first to act after the button
    play(hand_start(game=game, actor=dealer_user, button=1, deck=DECK), dealer_user, f"{other} fold")
    game, _ = closed_and_replayed(game, floor_user, tmp_path)
    assert HomeGamePlayer.objects.get(game=game, name="Dee").cashed_out_cents == 6_000
    first = game_record(game)["hands"][0]
    # The join carries what the newcomer brought to the table before the next hand: buy-in and chips added.
    assert first["after"]["joins"] == [{"name": "Dee", "seat": seat, "stack_cents": 6_000}]
    assert first["actions"][-1] == f"{seat} leave"


@pytest.mark.parametrize("seat", [4, 1], ids=["a new seat", "a seat its player had just left"])
def test_a_seat_taken_by_two_newcomers_in_turn_between_two_hands_replays_and_plays_again(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User, seat: int, tmp_path: Path
) -> None:
    # Between hands 1 and 2 Dee sits down at the seat, adds chips and gets up; Eve sits down there and adds chips.
    game = after_one_hand(home_table("five-card-draw"), dealer_user)
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
    game, verdict = closed_and_replayed(game, floor_user, tmp_path)
    people = {p.name: p for p in HomeGamePlayer.objects.filter(game=game)}
    assert (people["Dee"].bought_in_cents, people["Dee"].cashed_out_cents) == (6_000, 6_000)
    earlier = [{"seat": 1, "occupant": 1, "stack_cents": people["P1"].cashed_out_cents}] if seat == 1 else []
    earlier.append({"seat": seat, "occupant": len(earlier) + 1, "stack_cents": 6_000})
    assert verdict["replay"]["earlier"] == earlier
