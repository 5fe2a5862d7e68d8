"""The floor closing a game is the game record's `close` line: a Three Legged Race closed with a carried pot (back to
each player's own chips, or by ruling to one seat) exports, replays and plays again to the same stacks; a refused
close changes nothing."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from audit.models import AuditEvent
from casino.engine.cards import ALL_CARDS
from casino.errors import DomainError, NotAllowed
from tables.management.commands.play_game import outcome
from tables.models import HomeGame, Table
from tables.selectors.home_records import game_record, game_replay
from tables.services.home_games import game_close, game_open, player_join, player_leave
from tables.services.home_hands import hand_start
from tables.services.home_rulings import hand_void
from tests.tables.conftest import client_for
from tests.tables.home_commands import refused, run
from tests.tables.test_home_services import balanced, deck, play, seat_players


def carried_game(home_table: Callable[..., Table], dealer: User, *, second: bool = True) -> HomeGame:
    """Three Legged Race, three players of $100. Hand 1: seat 2 bets, 3 calls, 1 folds; seat 2's jacks win a leg and
    $7 stays in the middle (seat 1 put in $1, seats 2 and 3 $3 each). Hand 2: seat 3 bets and is left alone (the
    bet goes back): a leg, and $10 stays ($2, $4 and $4 of it each player's own)."""
    game = game_open(table=home_table("three-legged-race"), actor=dealer, players=seat_players(3))
    hand = hand_start(game=game, actor=dealer, button=1, deck=deck(
        1, {1: "Qs Qd 9c 4c 5c", 2: "Jc Jh 4d 5d 7c", 3: "Tc 9d 4s 5s 7h"}, stock="Js 6d 2c 2d 3d 8d 8c 8h 3s"))
    play(hand, dealer, "2 bet 200", "3 call", "1 fold", "2 draw 4d 5d 7c", "3 draw 4s 5s 7h", "2 check", "3 check")
    if second:
        hand = hand_start(game=game, actor=dealer, button=2, deck=[str(card) for card in ALL_CARDS])
        play(hand, dealer, "3 bet 200", "1 fold", "2 fold")
    return HomeGame.objects.get(pk=game.pk)


def round_trip(tmp_path: Path, game: HomeGame, floor: User) -> dict[str, Any]:
    """Export the closed game; replay_game on the export gives what was stored, and play_game plays it again to the
    same result and the same record. Returns the stored result."""
    exported = game_record(game)
    stored = outcome(game)
    assert json.loads(run("replay_game", tmp_path, exported, "--json")) == stored
    verdict = game_replay(game)
    assert verdict["ok"] is True, verdict["differences"]
    played = json.loads(run("play_game", tmp_path, exported, "--json", "--user", floor.username))
    assert played == stored
    assert run("play_game", tmp_path, exported) == run("replay_game", tmp_path, exported)
    again = HomeGame.objects.order_by("-pk").first()
    assert again is not None
    assert again.status == "closed"
    assert game_record(again)["hands"] == exported["hands"]
    assert game_record(again)["close"] == exported["close"]
    balanced(again)
    return stored


def test_closing_returns_each_players_chips_in_the_carried_pot_and_the_export_round_trips(
    tmp_path: Path, home_table: Callable[..., Table], dealer_user: User, floor_user: User
) -> None:
    game = carried_game(home_table, dealer_user)
    assert game.pot_cents == 1_000
    player_leave(game=game, actor=dealer_user, seat=1)  # cashed out with $98; their $2 stays in the middle
    game_close(game=game, actor=floor_user, reason="end of the session")
    game = HomeGame.objects.get(pk=game.pk)
    assert dict(game.players.values_list("seat", "cashed_out_cents")) == {1: 10_000, 2: 10_000, 3: 10_000}
    balanced(game)
    assert game_record(game)["close"] == "floor close -- end of the session"
    stored = round_trip(tmp_path, game, floor_user)
    assert stored["close"] == {"reason": "end of the session", "award_seat": None, "carried_pot_cents": 1_000,
                               "paid": {"1": 200, "2": 400, "3": 400}}
    assert stored["stacks"] == {"1": 10_000, "2": 10_000, "3": 10_000}
    assert stored["carried_pot_cents"] == 0
    text = run("replay_game", tmp_path, game_record(game))
    assert "Closed by the floor: end of the session" in text
    assert "carried pot $10.00 back to its contributors: seat 1 $2.00, seat 2 $4.00, seat 3 $4.00" in text


def test_closing_by_ruling_awards_the_carried_pot_to_one_seat_and_the_export_round_trips(
    tmp_path: Path, home_table: Callable[..., Table], dealer_user: User, floor_user: User
) -> None:
    game = carried_game(home_table, dealer_user)
    game_close(game=game, actor=floor_user, award_seat=3, reason="seat 2 conceded the race")
    game = HomeGame.objects.get(pk=game.pk)
    assert game_record(game)["close"] == "floor close award 3 -- seat 2 conceded the race"
    stored = round_trip(tmp_path, game, floor_user)
    assert stored["close"] == {"reason": "seat 2 conceded the race", "award_seat": 3, "carried_pot_cents": 1_000,
                               "paid": {"3": 1_000}}
    assert stored["stacks"] == {"1": 9_800, "2": 9_600, "3": 10_600}
    assert "carried pot $10.00 awarded by ruling to seat 3" in run("replay_game", tmp_path, game_record(game))


def test_a_close_without_a_reason_is_refused_and_changes_nothing(
    tmp_path: Path, home_table: Callable[..., Table], dealer_user: User, floor_user: User
) -> None:
    """Every close carries the floor's reason (the record's `close` line): the API, like the tablet and play_game,
    refuses a blank one naming it, and the game stays open with its players' chips where they were."""
    game = carried_game(home_table, dealer_user, second=False)
    for body in ({}, {"reason": "   "}):
        answer = client_for(floor_user).post(f"/api/v1/games/{game.pk}/close/", body, format="json")
        assert answer.status_code == 400
        assert answer.json()["error"] == {"code": "reason_required", "message": "closing a game needs a reason",
                                          "field": "reason"}
    game = HomeGame.objects.get(pk=game.pk)
    assert game.status == HomeGame.Status.OPEN
    assert game.pot_cents > 0
    assert not game.players.filter(cashed_out_cents__gt=0).exists()
    game_close(game=game.pk, actor=floor_user, reason="end of the session")
    game = HomeGame.objects.get(pk=game.pk)
    assert game_record(game)["close"] == "floor close -- end of the session"
    stored = round_trip(tmp_path, game, floor_user)
    assert stored["stacks"] == {"1": 10_000, "2": 10_000, "3": 10_000}


def test_a_refused_close_changes_nothing(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User
) -> None:
    game = carried_game(home_table, dealer_user)

    def state() -> object:
        fresh = HomeGame.objects.get(pk=game.pk)
        return (fresh.status, fresh.pot_cents, fresh.cash_outs_cents,
                sorted(fresh.players.values_list("seat", "stack_cents", "carried_contribution_cents", "left_at")))

    before = state()
    with pytest.raises(NotAllowed) as no:
        game_close(game=game, actor=dealer_user, reason="the dealer tries")
    assert no.value.code == "floor_only"
    with pytest.raises(DomainError) as no:
        game_close(game=game, actor=floor_user, award_seat=3, reason="")
    assert no.value.field == "reason"
    with pytest.raises(DomainError) as no:
        game_close(game=game, actor=floor_user, award_seat=9, reason="nobody sat there")
    assert no.value.code == "no_player"
    assert state() == before
    assert "close" not in game_record(game)
    assert not AuditEvent.objects.filter(action="home_game_close", object_id=str(game.pk)).exists()


def test_play_game_as_a_dealer_is_refused_the_close_and_names_it(
    tmp_path: Path, home_table: Callable[..., Table], dealer_user: User, floor_user: User
) -> None:
    game = carried_game(home_table, dealer_user)
    game_close(game=game, actor=floor_user, award_seat=3, reason="seat 2 conceded the race")
    exported = game_record(HomeGame.objects.get(pk=game.pk))
    table = home_table("three-legged-race")
    code, out = refused("play_game", tmp_path, exported, "--json", "--user", dealer_user.username,
                        "--table", table.name)
    assert code == 1
    error = json.loads(out)["error"]
    assert (error["hand"], error["index"], error["code"], error["action"]) == (
        2, 0, "floor_only", "floor close award 3 -- seat 2 conceded the race")
    assert error["rule"]
    assert not HomeGame.objects.filter(table=table).exists()


@pytest.mark.parametrize(
    ("line", "code"),
    [("floor close award 9 -- seat 9 never played", "no_player"), ("floor close -- ", "reason_required"),
     ("floor close award 3", "bad_action")],
)
def test_a_bad_close_line_stops_replay_game_and_play_game_naming_it(
    tmp_path: Path, home_table: Callable[..., Table], dealer_user: User, floor_user: User, line: str, code: str
) -> None:
    game = carried_game(home_table, dealer_user)
    game_close(game=game, actor=floor_user, reason="end of the session")
    exported = {**game_record(HomeGame.objects.get(pk=game.pk)), "close": line}
    games = HomeGame.objects.count()
    for command in ("replay_game", "play_game"):
        status, out = refused(command, tmp_path, exported, "--json", "--user", floor_user.username) \
            if command == "play_game" else refused(command, tmp_path, exported, "--json")
        assert status == 1
        error = json.loads(out)["error"]
        assert (error["code"], error["hand"], error["index"], error["action"]) == (code, 2, 0, line), command
        status, out = refused(command, tmp_path, exported)
        assert f"illegal action close = {line!r}" in out
    assert HomeGame.objects.count() == games  # play_game left nothing behind


def test_a_game_closed_with_every_hand_voided_keeps_its_players_buy_ins_and_cash_outs_in_the_record(
    tmp_path: Path, home_table: Callable[..., Table], dealer_user: User, floor_user: User
) -> None:
    """README: a player who left before the first hand "is one of the `players`, with what they were paid as
    `stack_cents`, and leaves at once: `"before": {"leave": [1]}`, so the export keeps their buy-in and cash-out".
    With no hand left in the record (the only one voided) the closed game's export named no player at all, and a
    close awarding to a seat did not replay ("nobody played seat 1")."""
    game = game_open(table=home_table("three-legged-race", charge="time", time_charge_cents=200),
                     actor=dealer_user, players=seat_players(3))
    player_leave(game=game.pk, actor=dealer_user, seat=2)
    hand = hand_start(game=game, actor=dealer_user, button=3)
    play(hand, dealer_user, "1 bet 200")
    hand_void(hand=hand.pk, actor=floor_user, reason="misdeal")
    game_close(game=game.pk, actor=floor_user, award_seat=1, reason="the players went home")
    game = HomeGame.objects.get(pk=game.pk)
    exported = game_record(game)
    assert exported["players"] == [{"seat": 1, "name": "P1", "stack_cents": 10_000},
                                   {"seat": 2, "name": "P2", "stack_cents": 10_000},
                                   {"seat": 3, "name": "P3", "stack_cents": 10_000}]
    assert exported["before"] == {"leave": [2]}
    assert exported["hands"] == []
    assert game_replay(game)["ok"] is True, game_replay(game)["differences"]
    assert json.loads(run("replay_game", tmp_path, exported, "--json")) == outcome(game)


def test_a_seat_taken_again_in_a_game_with_no_hand_recorded_keeps_both_people(
    tmp_path: Path, home_table: Callable[..., Table], dealer_user: User, floor_user: User
) -> None:
    """No hand in the record, a seat left and taken again: its first player is a player who leaves at once
    (`before.leave`) with what they were paid, the next joins at that seat (`before.joins`) with their buy-in; both
    while the game is open and once the floor's close cashed the newcomer out."""
    game = game_open(table=home_table("five-card-draw"), actor=dealer_user, players=seat_players(2))
    player_leave(game=game.pk, actor=dealer_user, seat=2)
    player_join(game=game.pk, actor=dealer_user, seat=2, name="Dee", buy_in_cents=5_000)
    for step in ("open", "closed"):
        game = HomeGame.objects.get(pk=game.pk)
        exported = game_record(game)
        assert exported["players"] == [{"seat": 1, "name": "P1", "stack_cents": 10_000},
                                       {"seat": 2, "name": "P2", "stack_cents": 10_000}], step
        assert exported["before"] == {"leave": [2], "joins": [{"seat": 2, "name": "Dee", "stack_cents": 5_000}]}
        assert game_replay(game)["ok"] is True, (step, game_replay(game)["differences"])
        assert json.loads(run("replay_game", tmp_path, exported, "--json")) == outcome(game)
        if step == "open":
            game_close(game=game.pk, actor=floor_user, reason="the players went home")
