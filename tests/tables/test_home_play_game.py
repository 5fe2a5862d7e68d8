"""play_game: a DESIGN 9 record played through the services prints what replay_game prints; the stored game's
export is the record it was played from; an action the services refuse stops it with exit code 1."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from tables.models import HomeGame
from tables.selectors.home_records import game_record
from tests.tables.home_commands import run
from tests.tables.test_replay_game_command import _manual_freak_of_nature, _manual_muck, _three_legged_race


@pytest.mark.parametrize("make", [_three_legged_race, _manual_freak_of_nature, _manual_muck])
def test_play_game_prints_what_replay_game_prints_and_the_export_is_the_record(
    tmp_path: Path, floor_user: User, make: Any
) -> None:
    record = make()
    played = run("play_game", tmp_path, record, "--json")
    assert json.loads(played) == json.loads(run("replay_game", tmp_path, record, "--json"))
    assert run("play_game", tmp_path, record) == run("replay_game", tmp_path, record)
    game = HomeGame.objects.order_by("-pk").first()
    assert game is not None
    exported = game_record(game)
    # The export is the record in its canonical form: a dealt hand lists its (empty) reshuffles, and a manual hand
    # marks the end of its deal with "dealt", which the record left implicit.
    canonical = [{**hand, "actions": [a for a in hand["actions"] if a != "dealt"]} for hand in exported["hands"]]
    assert canonical == [{"reshuffles": [], **hand} if not hand.get("manual") else hand for hand in record["hands"]]
    assert exported["players"] == record["players"]
    assert json.loads(run("replay_game", tmp_path, exported, "--json")) == json.loads(played)


def test_a_refused_action_stops_play_game_with_exit_1_naming_it_and_leaves_nothing(
    tmp_path: Path, floor_user: User
) -> None:
    record = _three_legged_race()
    record["hands"][1]["actions"][2] = "2 check"  # seat 2 faces a bet of 200: checking is refused
    with pytest.raises(SystemExit) as stopped:
        run("play_game", tmp_path, record, "--json")
    assert stopped.value.code == 1
    out = StringIO()
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(SystemExit):
        call_command("play_game", str(path), "--json", stdout=out)
    error = json.loads(out.getvalue())["error"]
    assert (error["hand"], error["index"], error["action"], error["code"]) == (1, 2, "2 check", "cannot_check")
    assert error["rule"]
    assert not HomeGame.objects.exists()


def test_play_game_on_a_named_table_needs_its_announced_rules(
    tmp_path: Path, floor_user: User, home_table: Any
) -> None:
    record = _three_legged_race()
    table = home_table("three-legged-race", rules=record["rules"])
    played = json.loads(run("play_game", tmp_path, record, "--json", "--table", table.name))
    assert played == json.loads(run("replay_game", tmp_path, record, "--json"))
    assert HomeGame.objects.get().table == table
    other = home_table("three-legged-race", rules={"legs_to_win": 3})
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        run("play_game", tmp_path, record, "--json", "--table", other.name)


def test_a_player_who_left_during_a_voided_first_hand_stays_in_the_export_and_round_trips(
    tmp_path: Path, floor_user: User, dealer_user: User
) -> None:
    """The tester's game: seat 1 left during hand 1, the floor voided hand 1, hand 2 was played. The export kept
    seats 2 and 3 only, losing Ann's buy-in and cash-out; now she is a player who leaves before the first hand
    (`before.leave`), and replay_game, play_game and the export agree."""
    from tables.models import HomeGamePlayer
    from tables.services.home_games import game_open, player_leave
    from tables.services.home_hands import hand_act, hand_start
    from tables.services.home_rulings import hand_void
    from tests.tables.conftest import open_home_table

    table = open_home_table("Draw 11", "five-card-draw", floor_user, dealer_user)
    players = [{"seat": seat, "name": name, "buy_in_cents": 10_000} for seat, name in ((1, "Ann"), (2, "Bob"),
                                                                                      (3, "Cy"))]
    game = game_open(table=table, actor=dealer_user, players=players)
    first = hand_start(game=game, actor=dealer_user, button=3)
    player_leave(game=game.pk, actor=dealer_user, seat=1)
    hand_void(hand=first.pk, actor=floor_user, reason="misdeal")
    second = hand_start(game=game, actor=dealer_user)
    for step in ("3 fold",) if second.button == 2 else ("2 fold",):
        seat, verb = step.split()
        hand_act(hand=second.pk, actor=dealer_user, seat=int(seat), action=verb)
    exported = game_record(HomeGame.objects.get(pk=game.pk))
    ann = HomeGamePlayer.objects.get(game=game, seat=1)
    assert {"seat": 1, "name": "Ann", "stack_cents": ann.cashed_out_cents} in exported["players"]
    assert ann.cashed_out_cents == 10_000  # her ante came back with the void, at the cashier
    assert exported["before"]["leave"] == [1]
    from tables.selectors.home_records import game_replay

    assert game_replay(HomeGame.objects.get(pk=game.pk))["ok"]  # compliance's verdict on the stored game
    replayed = json.loads(run("replay_game", tmp_path, exported, "--json"))
    assert replayed["stacks"]["1"] == 10_000
    assert json.loads(run("play_game", tmp_path, exported, "--json")) == replayed
    again = game_record(HomeGame.objects.order_by("-pk").first())  # type: ignore[arg-type]
    assert (again["players"], again["before"]) == (exported["players"], exported["before"])


def test_chips_added_then_a_leave_after_hands_later_voided_play_back_in_that_order(
    tmp_path: Path, floor_user: User, dealer_user: User
) -> None:
    """Found by a property test: seat 1 added chips after hand 1, two hands were voided, then seat 1 left. The
    record keeps the leave with hand 1 (the voided hands are left out) and its chips in hand 1's `after`;
    replay_game added the chips before the leave, play_game left first and then refused the chips ("nobody is
    seated at seat 1")."""
    from tables.services.home_games import game_open, player_add_chips, player_leave
    from tables.services.home_hands import hand_start
    from tables.services.home_rulings import hand_award, hand_void
    from tests.tables.conftest import open_home_table

    table = open_home_table("Leave after voids", "three-legged-race", floor_user, dealer_user,
                            rules={"ante_cents": 50, "legs_to_win": 2})
    game = game_open(table=table, actor=dealer_user, players=[
        {"seat": seat, "name": f"P{seat}", "buy_in_cents": cents} for seat, cents in ((1, 4_766), (2, 1_001),
                                                                                    (3, 2_995))])
    hand_award(hand=hand_start(game=game, actor=dealer_user).pk, actor=floor_user, seats=[3], reason="ruled")
    player_add_chips(game=game, actor=dealer_user, seat=1, amount_cents=500)
    for _ in range(2):
        hand_void(hand=hand_start(game=game, actor=dealer_user).pk, actor=floor_user, reason="misdeal")
    player_leave(game=game, actor=dealer_user, seat=1)
    hand_award(hand=hand_start(game=game, actor=dealer_user).pk, actor=floor_user, seats=[2], reason="ruled")
    exported = game_record(HomeGame.objects.get(pk=game.pk))
    assert exported["hands"][0]["actions"][-1] == "1 leave"
    assert exported["hands"][0]["after"]["chips"] == {"1": 500}
    replayed = json.loads(run("replay_game", tmp_path, exported, "--json"))
    assert replayed["stacks"]["1"] == 4_766 - 50 + 500
    assert json.loads(run("play_game", tmp_path, exported, "--json", "--user", floor_user.username)) == replayed
