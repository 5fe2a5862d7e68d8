"""A game record carries the house's charge (`house`, and each hand's `after.house`), so play_game without --table
makes a table that charges the same and any exported record plays back; older records stay readable."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from audit.models import AuditEvent
from audit.presentation import show_value
from tables.management.commands.play_game import outcome
from tables.models import HomeGame, HomeGamePlayer, HomeHand, HomeTableConfig, Table
from tables.selectors.home import hand_view
from tables.selectors.home_records import game_record, game_replay
from tables.services.home_games import game_close, game_open, player_add_chips, player_leave
from tables.services.home_hands import hand_start
from tables.services.home_rulings import hand_void
from tests.tables.home_commands import run
from tests.tables.test_home_services import balanced, deck, play, seat_players


def raked_game(home_table: Callable[..., Table], dealer: User) -> HomeGame:
    """Five-card draw with a 10 % rake capped at 1.50: a hand of antes only (no rake), chips added, a raked hand."""
    table = home_table("five-card-draw", charge="rake", rake_basis_points=1_000, rake_cap_cents=150)
    game = game_open(table=table, actor=dealer, players=seat_players(2))
    hand = hand_start(game=game, actor=dealer, button=2, deck=deck(2, {1: "As Ad 4c 5c 7d", 2: "Kc Kh 4d 5d 8c"}))
    play(hand, dealer, "1 check", "2 check", "1 draw", "2 draw", "1 check", "2 check")
    player_add_chips(game=game.pk, actor=dealer, seat=2, amount_cents=1_000)
    hand = hand_start(game=game, actor=dealer, deck=deck(1, {1: "As Ad 4c 5c 7d", 2: "Kc Kh 4d 5d 8c"}))
    play(hand, dealer, "2 bet 200", "1 raise 400", "2 call", "2 draw", "1 draw", "2 bet 400", "1 call")
    hand = hand_start(game=game, actor=dealer, deck=deck(2, {1: "Qs Qd 4c 5c 7d", 2: "Jc Jh 4d 5d 8c"}))
    play(hand, dealer, "1 bet 200", "2 call", "1 draw", "2 draw", "1 check", "2 check")
    return HomeGame.objects.get(pk=game.pk)


def timed_game(home_table: Callable[..., Table], dealer: User) -> HomeGame:
    """Freak of Nature with 5.00 per seat per half hour: a half hour passes after the first hand, chips are added."""
    table = home_table("freak-of-nature", charge="time", time_charge_cents=500)
    game = game_open(table=table, actor=dealer, players=seat_players(3))
    for number in range(3):
        if number == 1:
            player_add_chips(game=game.pk, actor=dealer, seat=3, amount_cents=2_000)
            HomeGamePlayer.objects.filter(game=game).update(time_paid_until=timezone.now() - timedelta(seconds=1))
        hand = hand_start(game=game, actor=dealer)
        # The system deals; everyone folds to the button.
        seats = sorted(int(seat) for seat in hand.stacks_before)
        order = seats[seats.index(hand.button) + 1:] + seats[:seats.index(hand.button) + 1]
        play(hand, dealer, *(f"{seat} fold" for seat in order[:-1]))
    return HomeGame.objects.get(pk=game.pk)


@pytest.mark.parametrize("make", [raked_game, timed_game])
def test_an_exported_game_with_house_charges_plays_back_without_a_table(
    tmp_path: Path, home_table: Callable[..., Table], dealer_user: User, floor_user: User, make: Any
) -> None:
    game = make(home_table, dealer_user)
    assert game.house_cents > 0
    balanced(game)
    exported = game_record(game)
    assert exported["house"]["charge"] == game.charge
    assert any("house" in hand.get("after", {}) for hand in exported["hands"])
    assert game_replay(game)["ok"] is True
    stored = outcome(game)
    assert json.loads(run("replay_game", tmp_path, exported, "--json")) == stored
    played = json.loads(run("play_game", tmp_path, exported, "--json"))
    assert played == stored
    again = HomeGame.objects.order_by("-pk").first()
    assert again is not None
    assert again.pk != game.pk
    config = HomeTableConfig.objects.get(table=again.table)
    assert (config.charge, config.rake_basis_points, config.rake_cap_cents, config.time_charge_cents) == (
        game.charge, game.rake_basis_points, game.rake_cap_cents, game.time_charge_cents)
    assert game_record(again)["hands"] == exported["hands"]
    assert again.house_cents == game.house_cents  # the first hand's time charge too (the record's `before`)
    assert game_record(again).get("before") == exported.get("before")


def test_a_time_charge_before_the_first_hand_is_in_the_record_and_plays_back(
    tmp_path: Path, home_table: Callable[..., Table], dealer_user: User, floor_user: User
) -> None:
    game = timed_game(home_table, dealer_user)
    exported = game_record(game)
    # The players as seated (their buy-ins), and what the house took from each before the first hand.
    assert [player["stack_cents"] for player in exported["players"]] == [10_000, 10_000, 10_000]
    assert exported["before"] == {"house": {"1": 500, "2": 500, "3": 500}}
    first = HomeGame.objects.get(pk=game.pk).hands.order_by("number").first()
    assert first is not None
    assert first.stacks_before == {"1": 9_500, "2": 9_500, "3": 9_500}
    # A table whose minimum buy-in is the players' buy-in takes the record (their stacks after the charge would not).
    table = home_table("freak-of-nature", charge="time", time_charge_cents=500, buy_in_min_cents=10_000)
    assert json.loads(run("play_game", tmp_path, exported, "--json", "--table", table.name)) == outcome(game)
    again = HomeGame.objects.get(table=table)
    assert again.house_cents == game.house_cents
    # A table that charges nothing cannot take it: refused, naming `before`, and nothing is left behind.
    games = HomeGame.objects.count()
    no_charge = {key: value for key, value in exported.items() if key != "house"}
    path = tmp_path / "no-charge.json"
    path.write_text(json.dumps(no_charge), encoding="utf-8")
    out = StringIO()
    with pytest.raises(SystemExit):
        call_command("play_game", str(path), "--json", stdout=out)
    error = json.loads(out.getvalue())["error"]
    assert (error["code"], error["hand"], error["action"]) == ("house_charge", 0, "before")
    assert HomeGame.objects.count() == games
    # An older record (no `before`, the stacks after the charge) still replays to the same end.
    older = {**exported, "players": [{**player, "stack_cents": 9_500} for player in exported["players"]]}
    del older["before"]
    assert json.loads(run("replay_game", tmp_path, older, "--json")) == outcome(game)


def test_a_seat_the_first_time_charge_leaves_without_chips_is_still_a_player_of_the_record(
    tmp_path: Path, home_table: Callable[..., Table], dealer_user: User
) -> None:
    table = home_table("five-card-draw", charge="time", time_charge_cents=1_000)
    game = game_open(table=table, actor=dealer_user, players=[*seat_players(2), {"seat": 3, "buy_in_cents": 1_000}])
    hand = hand_start(game=game, actor=dealer_user, button=2, deck=deck(2, {1: "As Ad 4c 5c 7d", 2: "Kc Kh 4d 5d 8c"}))
    play(hand, dealer_user, "1 bet 200", "2 fold")
    exported = game_record(HomeGame.objects.get(pk=game.pk))
    assert {player["seat"]: player["stack_cents"] for player in exported["players"]} == {1: 10_000, 2: 10_000,
                                                                                        3: 1_000}
    assert exported["before"] == {"house": {"1": 1_000, "2": 1_000, "3": 1_000}}
    stored = outcome(HomeGame.objects.get(pk=game.pk))
    assert stored["stacks"] == {"1": 9_100, "2": 8_900, "3": 0}
    assert json.loads(run("replay_game", tmp_path, exported, "--json")) == stored
    assert json.loads(run("play_game", tmp_path, exported, "--json")) == stored


def test_a_record_written_before_house_is_still_read_and_needs_a_charging_table(
    tmp_path: Path, home_table: Callable[..., Table], dealer_user: User
) -> None:
    game = raked_game(home_table, dealer_user)
    old = game_record(game)
    del old["house"]
    for hand in old["hands"]:
        after = hand.get("after", {})
        for seat, cents in after.pop("house", {}).items():
            after.setdefault("chips", {})[seat] = after.get("chips", {}).get(seat, 0) - cents
    assert json.loads(run("replay_game", tmp_path, old, "--json")) == outcome(game)
    out = StringIO()
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old), encoding="utf-8")
    with pytest.raises(SystemExit):
        call_command("play_game", str(path), "--json", stdout=out)
    assert json.loads(out.getvalue())["error"]["code"] == "house_charge"
    table = home_table("five-card-draw", charge="rake", rake_basis_points=1_000, rake_cap_cents=150)
    assert json.loads(run("play_game", tmp_path, old, "--json", "--table", table.name)) == outcome(game)


def test_play_game_refuses_a_table_whose_charge_is_not_the_records(
    tmp_path: Path, home_table: Callable[..., Table], dealer_user: User
) -> None:
    exported = game_record(raked_game(home_table, dealer_user))
    other = home_table("five-card-draw", charge="rake", rake_basis_points=500, rake_cap_cents=150)
    with pytest.raises(CommandError, match="charges"):
        run("play_game", tmp_path, exported, "--json", "--table", other.name)


def test_a_bad_house_is_refused_naming_it(tmp_path: Path, home_table: Callable[..., Table],
                                          dealer_user: User) -> None:
    exported = game_record(raked_game(home_table, dealer_user))
    exported["house"] = {"charge": "time"}
    out = StringIO()
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(exported), encoding="utf-8")
    with pytest.raises(SystemExit):
        call_command("replay_game", str(path), "--json", stdout=out)
    assert "house.time_charge_cents" in json.loads(out.getvalue())["error"]["message"]


@pytest.mark.parametrize("then", ["next hand", "closed", "left during it"])
def test_a_voided_hand_gives_back_the_time_charge_taken_as_it_started_and_the_record_still_replays(
    tmp_path: Path, home_table: Callable[..., Table], dealer_user: User, floor_user: User, then: str
) -> None:
    """DESIGN 7: the floor "can void a hand"; README: a void puts "every chip back where it was before the hand", and
    a time charge is "taken before the first hand of each half hour". A hand voided is no hand: the charge taken as it
    started goes back with its antes and is taken again before the half hour's first real hand. Kept, it stood in
    the record as a charge after the last hand, which no hand followed, and the game's own export did not replay."""
    table = home_table("freak-of-nature", charge="time", time_charge_cents=500)
    game = game_open(table=table, actor=dealer_user, players=seat_players(3))
    hand = hand_start(game=game, actor=dealer_user, button=2)
    play(hand, dealer_user, "3 fold", "1 fold")
    after_first = dict(game.players.values_list("seat", "stack_cents"))
    HomeGamePlayer.objects.filter(game=game).update(time_paid_until=timezone.now() - timedelta(seconds=1))
    hand = hand_start(game=game, actor=dealer_user)
    assert dict(game.players.values_list("seat", "stack_cents")) == {seat: cents - 500 - 100
                                                                     for seat, cents in after_first.items()}
    if then == "left during it":
        player_leave(game=game.pk, actor=dealer_user, seat=1)
    hand_void(hand=hand.pk, actor=floor_user, reason="two cards exposed on the deal")
    if then == "left during it":  # everything they had before the hand, at the cashier
        assert game.players.get(seat=1).cashed_out_cents == after_first.pop(1)
    assert dict(game.players.exclude(left_at__isnull=False).values_list("seat", "stack_cents")) == after_first
    game.refresh_from_db()
    assert game.house_cents == 1_500  # the first hand's charge only
    returned = AuditEvent.objects.filter(action="home_hand_void").latest("id").after["time_charge_returned_cents"]
    assert show_value(returned, name="time_charge_returned_cents") == "seat 1: $5.00; seat 2: $5.00; seat 3: $5.00"
    voided = hand_view(HomeHand.objects.get(pk=hand.pk), game)
    assert voided["house"]["time_charge"] is None
    # The hand's view (the compliance page's "Stack after") shows the stacks the void left, the charge back too.
    assert {p["seat"]: p["stack_cents"] for p in voided["players"] if not p["left"]} == after_first
    balanced(game)
    if then != "next hand":
        game_close(game=game.pk, actor=floor_user, reason="the players went home")
        game.refresh_from_db()
    else:  # the next hand is the half hour's first: the charge is taken again, before it
        play(hand_start(game=game, actor=dealer_user, button=2), dealer_user, "3 fold", "1 fold")
        game.refresh_from_db()
        assert game.house_cents == 3_000
    assert game_replay(game)["ok"] is True, game_replay(game)["differences"]
    assert json.loads(run("replay_game", tmp_path, game_record(game), "--json")) == outcome(game)
    balanced(game)
