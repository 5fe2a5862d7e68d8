"""A pot awarded by the floor's ruling is a line of its hand's record: the export replays it, replay_game and play_game
read it, and the compliance verdict checks the hands after it."""

from __future__ import annotations

import json
from collections.abc import Callable
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from rest_framework.test import APIClient

from casino.engine.home import errors as e
from casino.engine.home.errors import IllegalAction
from casino.engine.home.record import GameRecord
from casino.engine.home.replay import ReplayError, replay
from tables.management.commands.play_game import outcome
from tables.models import HomeGame, HomeHand, Table
from tables.selectors.home_records import game_record, game_replay, hand_verdict
from tables.services.home_engine import game_rules, rebuild
from tables.services.home_games import game_open, player_leave
from tables.services.home_hands import hand_act, hand_start
from tables.services.home_rulings import hand_award, hand_void
from tests.tables.helpers import ok
from tests.tables.home_commands import run
from tests.tables.test_home_services import balanced, deck, play, seat_players

PREGNANT = {"draws": 1, "cards_per_draw": 3, "draw": "optional"}


def awarded_game(home_table: Callable[..., Table], dealer: User, floor: User) -> HomeGame:
    """Three hands of Pregnant Threes: the first awarded by ruling (split 2 ways), two more played to the end."""
    game = game_open(table=home_table("pregnant-threes", rules=PREGNANT), actor=dealer, players=seat_players(3))
    hand = hand_start(game=game, actor=dealer, button=3)
    play(hand, dealer, "1 bet 200", "2 call")
    hand_award(hand=hand.pk, actor=floor, seats=[2, 1], reason="a card exposed, split by ruling")
    hand = hand_start(game=game, actor=dealer, button=1,
                      deck=deck(1, {2: "As Ad 4c 5c 7d", 3: "Kc Kh 4d 5d 8c", 1: "Qc Qh Jd Td 2c"},
                                stock="2h 2d 4h 4s 5s 7s 7c 8d 8h"))
    play(hand, dealer, "2 check", "3 check", "1 check", "2 draw", "3 draw", "1 draw", "2 bet 400", "3 fold",
         "1 call")
    hand = hand_start(game=game, actor=dealer, button=2)
    play(hand, dealer, "3 bet 200", "1 fold")
    hand_award(hand=hand.pk, actor=floor, seats=[3], reason="seat 2's cards were mucked by the dealer")
    return HomeGame.objects.get(pk=game.pk)


def test_the_ruling_is_the_last_line_of_its_hands_record(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User
) -> None:
    game = awarded_game(home_table, dealer_user, floor_user)
    first = HomeHand.objects.get(game=game, number=1)
    assert first.record["actions"] == ["1 bet 200", "2 call", "floor award 1 350 2 350 -- a card exposed, split by "
                                                                "ruling"]
    assert "dealt" not in first.record  # a finished hand: its record is whole
    assert first.result["ruling"] == {"awarded": {"1": 350, "2": 350}, "reason": "a card exposed, split by ruling"}
    assert first.result["pots"] == [{"amount_cents": 700, "winners": [1, 2]}]
    balanced(game)


def test_an_awarded_games_export_replays_to_what_was_stored_and_the_verdict_goes_past_the_ruling(
    tmp_path: Path, home_table: Callable[..., Table], dealer_user: User, floor_user: User
) -> None:
    game = awarded_game(home_table, dealer_user, floor_user)
    exported = game_record(game)
    stored = outcome(game)
    assert len(stored["hands"]) == 3
    assert json.loads(run("replay_game", tmp_path, exported, "--json")) == stored
    verdict = game_replay(game)
    assert verdict["ok"] is True, verdict["differences"]
    assert len(verdict["replay"]["hands"]) == 3
    assert "ruling" in verdict["note"]
    for row in HomeHand.objects.filter(game=game):
        assert hand_verdict(row)["ok"] is True


def test_a_stored_result_that_disagrees_after_a_ruling_is_listed(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User
) -> None:
    game = awarded_game(home_table, dealer_user, floor_user)
    second = HomeHand.objects.get(game=game, number=2)
    HomeHand.objects.filter(pk=second.pk).update(result={**second.result, "pots": []})
    verdict = game_replay(game)
    assert verdict["ok"] is False
    assert [line.split(":")[0] for line in verdict["differences"]] == ["hand 2"]
    third = HomeHand.objects.get(game=game, number=3)
    HomeHand.objects.filter(pk=third.pk).update(result={**third.result, "ruling": {"awarded": {"3": 1}}})
    assert hand_verdict(HomeHand.objects.get(pk=third.pk))["ok"] is False


def test_play_game_plays_the_ruling_through_the_ruling_service_and_round_trips(
    tmp_path: Path, home_table: Callable[..., Table], dealer_user: User, floor_user: User
) -> None:
    exported = game_record(awarded_game(home_table, dealer_user, floor_user))
    played = json.loads(run("play_game", tmp_path, exported, "--json", "--user", floor_user.username))
    assert played == json.loads(run("replay_game", tmp_path, exported, "--json"))
    assert run("play_game", tmp_path, exported) == run("replay_game", tmp_path, exported)
    again = HomeGame.objects.order_by("-pk").first()
    assert again is not None
    assert game_record(again)["hands"] == exported["hands"]
    assert HomeHand.objects.filter(game=again, ruling__reason="a card exposed, split by ruling").count() == 1


def test_play_game_as_a_dealer_is_refused_the_ruling_and_names_it(
    tmp_path: Path, home_table: Callable[..., Table], dealer_user: User, floor_user: User
) -> None:
    exported = game_record(awarded_game(home_table, dealer_user, floor_user))
    table = home_table("pregnant-threes", rules=PREGNANT)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(exported), encoding="utf-8")
    out = StringIO()
    with pytest.raises(SystemExit) as stopped:
        call_command("play_game", str(path), "--json", "--user", dealer_user.username, "--table", table.name,
                     stdout=out)
    assert stopped.value.code == 1
    error = json.loads(out.getvalue())["error"]
    assert (error["hand"], error["index"], error["code"]) == (0, 2, "floor_only")
    assert "floor supervisor awards a pot by ruling" in error["rule"]
    assert error["action"].startswith("floor award 1 350 2 350")
    assert not HomeGame.objects.filter(table=table).exists()


def test_a_ruling_line_must_award_everything_in_the_middle_to_players_in_the_hand(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User
) -> None:
    exported = game_record(awarded_game(home_table, dealer_user, floor_user))
    exported["hands"][0]["actions"][2] = "floor award 1 350 2 349 -- short by a chip"
    with pytest.raises(ReplayError) as refused:
        replay(GameRecord.from_dict(exported))
    assert (refused.value.code, refused.value.hand, refused.value.index) == (e.AWARD_NOT_THE_POT, 0, 2)
    exported["hands"][0]["actions"][2] = "floor award 1 350 4 350 -- seat 4 was never dealt in"
    with pytest.raises(ReplayError) as refused:
        replay(GameRecord.from_dict(exported))
    assert refused.value.code == e.NOT_IN_HAND
    exported["hands"][0]["actions"][2] = "floor award 1 700"
    with pytest.raises(ReplayError) as refused:
        replay(GameRecord.from_dict(exported))
    assert refused.value.code == "bad_action"
    exported["hands"][0]["actions"][2:] = ["floor award 1 700 -- first", "floor award 1 700 -- twice"]
    with pytest.raises(ReplayError) as refused:
        replay(GameRecord.from_dict(exported))
    assert (refused.value.code, refused.value.index) == ("hand_over", 3)


def test_a_ruling_can_share_the_pot_unevenly_when_the_floor_says_so(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User
) -> None:
    game = game_open(table=home_table("five-card-draw"), actor=dealer_user, players=seat_players(2))
    hand = hand_start(game=game, actor=dealer_user, button=2)
    hand_act(hand=hand.pk, actor=dealer_user, seat=1, action="bet", amount_cents=200)
    hand = hand_award(hand=hand.pk, actor=floor_user, seats=[1, 2], amounts={2: 100, 1: 300},
                      reason="seat 1's bet stands, seat 2 keeps the ante")
    assert hand.record["actions"][-1] == "floor award 2 100 1 300 -- seat 1's bet stands, seat 2 keeps the ante"
    assert dict(game.players.values_list("seat", "stack_cents")) == {1: 10_000, 2: 10_000}
    assert game_replay(HomeGame.objects.get(pk=game.pk))["ok"] is True
    with pytest.raises(IllegalAction):
        rebuild(hand, game_rules(game)).award({1: 400}, "again")


def test_a_player_who_left_during_a_voided_hand_has_left_in_the_export(
    tmp_path: Path, home_table: Callable[..., Table], dealer_user: User, floor_user: User
) -> None:
    game = game_open(table=home_table("five-card-draw"), actor=dealer_user, players=seat_players(3))
    hand = hand_start(game=game, actor=dealer_user, button=3)
    play(hand, dealer_user, "1 bet 200", "2 fold", "3 fold")
    hand = hand_start(game=game, actor=dealer_user)
    play(hand, dealer_user, "2 bet 200")
    player_leave(game=game.pk, actor=dealer_user, seat=2)
    hand_void(hand=hand.pk, actor=floor_user, reason="misdeal")
    hand = hand_start(game=game, actor=dealer_user)  # dealt again with the voided hand's button, seat 1
    play(hand, dealer_user, "3 check", "1 bet 200", "3 fold")
    game = HomeGame.objects.get(pk=game.pk)
    exported = game_record(game)
    assert exported["hands"][0]["actions"][-1] == "2 leave"
    assert json.loads(run("replay_game", tmp_path, exported, "--json")) == outcome(game)
    assert game_replay(game)["ok"] is True
    balanced(game)


def test_the_api_awards_the_exact_shares_the_floor_rules_and_refuses_shares_that_are_not_the_pot(
    home_table: Callable[..., Table], dealer_user: User, floor_api: APIClient
) -> None:
    """README: "exact shares per seat are the API's `amounts`". Sent and not read, the pot was split evenly instead of
    as the floor ruled."""
    game = game_open(table=home_table("five-card-draw"), actor=dealer_user, players=seat_players(2))
    hand = hand_start(game=game, actor=dealer_user, button=2)
    hand_act(hand=hand.pk, actor=dealer_user, seat=1, action="bet", amount_cents=200)
    url = f"/api/v1/hands/{hand.pk}/award/"
    reason = "seat 1's bet stands, seat 2 keeps the ante"
    for amounts, field in (({"1": 300, "2": 200}, "amounts"), ({"1": -100, "2": 500}, "amounts"),
                           ({"one": 400}, "amounts"), ({"3": 400}, "amounts")):
        refused = floor_api.post(url, {"amounts": amounts, "reason": reason}, format="json")
        assert refused.status_code == 400, (amounts, refused.json())
        assert refused.json()["error"]["field"].startswith(field), refused.json()  # "amounts.1": that seat's
    assert HomeHand.objects.get(pk=hand.pk).status == "in_play"
    awarded = ok(floor_api.post(url, {"amounts": {"2": 100, "1": 300}, "reason": reason}, format="json"))
    assert awarded["ruling"]["awarded"] == {"2": 100, "1": 300}
    assert dict(game.players.values_list("seat", "stack_cents")) == {1: 10_000, 2: 10_000}
    assert HomeHand.objects.get(pk=hand.pk).record["actions"][-1] == f"floor award 2 100 1 300 -- {reason}"
    assert game_replay(HomeGame.objects.get(pk=game.pk))["ok"] is True
