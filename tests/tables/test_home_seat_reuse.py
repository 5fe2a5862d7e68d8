"""A home-game seat its player left, taken by the next player in the same game (services, database, API, record).

Until now a seat played once could not be taken again in that game ("the game record names players by seat"): a
limitation of the record, not a rule of the rule sheets, and a ten-seat game filled up with chairs nobody could use.
The newcomer starts afresh (their buy-in, no legs, no share of a carried pot); each person keeps their own figures;
a Three Legged Race pot the floor closes unwon goes "back to each player's own contributions" (DESIGN 7), the one who
left included, never to whoever took their seat."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from rest_framework.test import APIClient

from audit.models import AuditEvent
from casino.engine.cards import ALL_CARDS
from casino.errors import DomainError
from tables.models import HomeGame, HomeGamePlayer, HomeHand, Table
from tables.selectors.home import game_view, hand_view
from tables.selectors.home_records import game_record, game_replay
from tables.services.home_games import game_close, game_open, player_join, player_leave
from tables.services.home_hands import hand_start
from tests.tables.helpers import ok
from tests.tables.test_home_services import balanced, deck, play, play_out, seat_players

# Seat 2 bets, seat 3 calls, seat 1 folds; seat 2's three jacks win a leg: 700 stays in the middle (seat 1 put in
# 100, seats 2 and 3 300 each).
FIRST = deck(1, {1: "Qs Qd 9c 4c 5c", 2: "Jc Jh 4d 5d 7c", 3: "Tc 9d 4s 5s 7h"}, stock="Js 6d 2c 2d 3d 8d 8c 8h 3s")
FIRST_PLAY = ("2 bet 200", "3 call", "1 fold", "2 draw 4d 5d 7c", "3 draw 4s 5s 7h", "2 check", "3 check")


def _game_with_seat_one_taken_again(table: Table, dealer: User) -> HomeGame:
    """P1 plays hand 1 (100 of the 700 carried is theirs), leaves; Dee sits down at seat 1 with $50 and plays hand 2:
    seat 3 bets, Dee and P2 fold (seat 3 scores a leg; 1,000 carried, 100 more from each)."""
    game = game_open(table=table, actor=dealer, players=seat_players(3))
    play(hand_start(game=game, actor=dealer, button=1, deck=FIRST), dealer, *FIRST_PLAY)
    player_leave(game=game, actor=dealer, seat=1)
    player_join(game=game, actor=dealer, seat=1, name="Dee", buy_in_cents=5_000)
    hand = hand_start(game=game, actor=dealer, button=2, deck=[str(card) for card in ALL_CARDS])
    play(hand, dealer, "3 bet 200", "1 fold", "2 fold")
    game.refresh_from_db()
    return game


def test_a_seat_its_player_left_is_taken_by_the_next_who_starts_afresh(
    require_postgres: None, home_table: Callable[..., Table], dealer_user: User, assert_audited: Any
) -> None:
    game = _game_with_seat_one_taken_again(home_table("three-legged-race"), dealer_user)
    ann, dee = HomeGamePlayer.objects.filter(game=game, seat=1).order_by("id")
    assert (ann.name, ann.active, ann.bought_in_cents, ann.cashed_out_cents) == ("P1", False, 10_000, 9_900)
    assert ann.carried_contribution_cents == 100  # still hers after she left
    assert (dee.name, dee.active, dee.bought_in_cents, dee.stack_cents) == ("Dee", True, 5_000, 4_900)
    assert dee.legs == 0
    assert dee.carried_contribution_cents == 100  # only her own ante of hand 2
    assert dict(game.players.filter(left_at__isnull=True).values_list("seat", "legs")) == {1: 0, 2: 1, 3: 1}
    assert game.pot_cents == 1_000
    join = assert_audited("home_player_join", seat_number=1, object_id=str(dee.pk))
    assert join.after["name"] == "Dee"
    assert_audited("home_player_leave", seat_number=1, object_id=str(ann.pk))
    balanced(game)
    connection.check_constraints()  # PostgreSQL's deferred ledger triggers run now, as at commit
    # Both people, each with their own figures, in the game's state (the compliance page lists these).
    players = [(p["seat"], p["name"], p["active"], p["bought_in_cents"]) for p in game_view(game)["players"]]
    assert players == [(1, "P1", False, 10_000), (1, "Dee", True, 5_000), (2, "P2", True, 10_000),
                       (3, "P3", True, 10_000)]
    # Each hand names who played it.
    first, second = HomeHand.objects.filter(game=game).order_by("number")
    assert next(p["name"] for p in hand_view(first, game)["players"] if p["seat"] == 1) == "P1"
    assert next(p["name"] for p in hand_view(second, game)["players"] if p["seat"] == 1) == "Dee"


def test_closing_an_unwon_race_pays_the_one_who_left_and_the_newcomer_each_their_own_chips(
    require_postgres: None, home_table: Callable[..., Table], dealer_user: User, floor_user: User
) -> None:
    game = _game_with_seat_one_taken_again(home_table("three-legged-race"), dealer_user)
    game_close(game=game, actor=floor_user, reason="end of the session")
    game.refresh_from_db()
    ann, dee = HomeGamePlayer.objects.filter(game=game, seat=1).order_by("id")
    # P1 gets her 100 of hand 1 at the cashier (she has left); Dee her 100 of hand 2, not P1's.
    assert ann.cashed_out_cents == 10_000
    assert dee.cashed_out_cents == 5_000
    assert dict(game.players.filter(seat__gt=1).values_list("seat", "cashed_out_cents")) == {2: 10_000, 3: 10_000}
    assert all(p.carried_contribution_cents == 0 for p in game.players.all())
    close = AuditEvent.objects.filter(action="home_game_close", object_id=str(game.pk)).get()
    assert close.after["paid"] == {"1": 100, "2": 400, "3": 400}
    assert close.after["paid_earlier"] == [{"seat": 1, "occupant": 1, "cents": 100}]
    balanced(game)
    connection.check_constraints()
    # The record replays to the same close and cash-outs, each person's apart.
    verdict = game_replay(game)
    assert verdict["ok"], verdict["differences"]
    assert verdict["replay"]["earlier"] == [{"seat": 1, "occupant": 1, "stack_cents": 10_000}]
    assert verdict["replay"]["close"]["paid_earlier"] == [{"seat": 1, "occupant": 1, "cents": 100}]


def test_the_record_has_the_leave_then_the_join_and_names_both(
    home_table: Callable[..., Table], dealer_user: User
) -> None:
    game = _game_with_seat_one_taken_again(home_table("three-legged-race"), dealer_user)
    record = game_record(game)
    assert record["players"][0] == {"seat": 1, "name": "P1", "stack_cents": 10_000}
    assert record["hands"][0]["actions"][-1] == "1 leave"
    assert record["hands"][0]["after"]["joins"] == [{"seat": 1, "name": "Dee", "stack_cents": 5_000}]
    verdict = game_replay(game)
    assert verdict["ok"], verdict["differences"]
    assert verdict["replay"]["stacks"] == {"1": 4_900, "2": 9_600, "3": 9_600}


def test_a_seat_still_played_is_refused_and_the_database_keeps_one_seated_player_to_a_seat(
    require_postgres: None, home_table: Callable[..., Table], dealer_user: User
) -> None:
    game = game_open(table=home_table("five-card-draw"), actor=dealer_user, players=seat_players(2))
    with pytest.raises(DomainError) as refused:
        player_join(game=game, actor=dealer_user, seat=2, buy_in_cents=5_000)
    assert (refused.value.code, refused.value.field, str(refused.value.message)) == ("seat_taken", "seat",
                                                                                    "seat 2 is taken")
    with pytest.raises(IntegrityError), transaction.atomic():
        HomeGamePlayer.objects.create(game=game, seat=2, name="Twin", joined_at=timezone.now())
    player_leave(game=game, actor=dealer_user, seat=2)
    player_join(game=game, actor=dealer_user, seat=2, name="Eve", buy_in_cents=5_000)
    assert [(p.name, p.active) for p in game.players.filter(seat=2)] == [("P2", False), ("Eve", True)]
    balanced(game)
    connection.check_constraints()


def test_joining_a_vacated_seat_over_the_api_and_an_occupied_one_refused(
    home_table: Callable[..., Table], dealer_api: APIClient
) -> None:
    table = home_table("freak-of-nature")
    body = {"players": [{"seat": s, "name": f"P{s}", "buy_in_cents": 10_000} for s in (1, 2, 3)]}
    game = ok(dealer_api.post(f"/api/v1/tables/{table.pk}/games/", body, format="json"), 201)
    ok(dealer_api.post(f"/api/v1/games/{game['id']}/players/3/leave/", {}, format="json"))
    taken = dealer_api.post(f"/api/v1/games/{game['id']}/players/", {"seat": 2, "name": "Zed", "buy_in_cents": 5_000},
                            format="json")
    assert taken.status_code == 400
    assert taken.json()["error"]["code"] == "seat_taken"
    assert "seat 2" in taken.json()["error"]["message"]
    state = ok(dealer_api.post(f"/api/v1/games/{game['id']}/players/",
                               {"seat": 3, "name": "Zed", "buy_in_cents": 5_000}, format="json"))
    seat_three = [(p["name"], p["active"]) for p in state["players"] if p["seat"] == 3]
    assert seat_three == [("P3", False), ("Zed", True)]
    hand = ok(dealer_api.post(f"/api/v1/games/{game['id']}/hands/", {}, format="json"), 201)
    assert {p["seat"]: p["name"] for p in hand["players"]} == {1: "P1", 2: "P2", 3: "Zed"}


def test_the_rake_and_chips_of_the_one_who_left_stay_theirs_in_the_record(
    require_postgres: None, home_table: Callable[..., Table], dealer_user: User, floor_user: User, tmp_path: Any
) -> None:
    # Between hands 1 and 2 seat 2's Bob, raked as he won hand 1, adds chips and leaves; Dee sits down at seat 2 and
    # adds chips too. The record keeps each person's apart, so it replays (and plays again) to the same figures.
    from tables.services.home_games import player_add_chips
    from tests.tables.home_commands import run

    table = home_table("five-card-draw", charge="rake", rake_basis_points=1_000, rake_cap_cents=500)
    game = game_open(table=table, actor=dealer_user, players=seat_players(3))
    play(hand_start(game=game, actor=dealer_user, button=1, deck=FIRST), dealer_user, *FIRST_PLAY)
    player_add_chips(game=game, actor=dealer_user, seat=2, amount_cents=1_000)
    player_leave(game=game, actor=dealer_user, seat=2)
    player_join(game=game, actor=dealer_user, seat=2, name="Dee", buy_in_cents=5_000)
    player_add_chips(game=game, actor=dealer_user, seat=2, amount_cents=500)
    play_out(hand_start(game=game, actor=dealer_user, button=2), dealer_user)
    game_close(game=game, actor=floor_user, reason="end of the session")
    bob, dee = HomeGamePlayer.objects.filter(game=game, seat=2).order_by("id")
    # Bob: 10,000 - 300 in + 700 won - 70 rake + 1,000 added.
    assert (bob.bought_in_cents, bob.cashed_out_cents) == (11_000, 11_330)
    assert dee.bought_in_cents == 5_500
    record = game_record(game)
    assert record["hands"][0]["after"] == {"house": {"2": 70}, "chips": {"2": 1_000},
                                           "joins": [{"seat": 2, "name": "Dee", "stack_cents": 5_500}]}
    verdict = game_replay(game)
    assert verdict["ok"], verdict["differences"]
    assert verdict["replay"]["earlier"] == [{"seat": 2, "occupant": 1, "stack_cents": 11_330}]
    balanced(game)
    connection.check_constraints()
    # Played again through the services from its record (play_game), the game comes out the same.
    import json

    played = json.loads(run("play_game", tmp_path, record, "--json", "--table", table.name))
    assert played == json.loads(run("replay_game", tmp_path, record, "--json"))
    assert played["earlier"] == verdict["replay"]["earlier"]


@pytest.mark.parametrize("charge", [{}, {"charge": "time", "time_charge_cents": 300}])
def test_a_seat_left_during_a_voided_first_hand_and_taken_again_keeps_both_people_in_the_record(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User, tmp_path: Any, charge: dict[str, Any]
) -> None:
    # Ann leaves during hand 1, which the floor voids; Dee sits down at seat 1 and plays hand 2. The record's first
    # hand is hand 2: Ann is a player who leaves before it (`before.leave`), Dee one who then joins at her seat
    # (`before.joins`), each with their own buy-in and cash-out and (a time charge) each their own charges.
    import json

    from tables.services.home_hands import hand_act
    from tables.services.home_rulings import hand_void
    from tests.tables.home_commands import run

    table = home_table("five-card-draw", **charge)
    game = game_open(table=table, actor=dealer_user, players=seat_players(3))
    first = hand_start(game=game, actor=dealer_user, button=3)
    player_leave(game=game, actor=dealer_user, seat=1)
    hand_void(hand=first.pk, actor=floor_user, reason="misdeal")
    player_join(game=game, actor=dealer_user, seat=1, name="Dee", buy_in_cents=5_000)
    second = hand_start(game=game, actor=dealer_user, button=1)
    for seat in (2, 3):
        second = hand_act(hand=second.pk, actor=dealer_user, seat=seat, action="fold")
    game_close(game=game, actor=floor_user, reason="end of the session")
    game.refresh_from_db()
    ann, dee = HomeGamePlayer.objects.filter(game=game, seat=1).order_by("id")
    exported = game_record(game)
    assert exported["players"][0] == {"seat": 1, "name": "P1", "stack_cents": ann.cashed_out_cents}
    dee_charged = 300 if charge else 0
    assert exported["before"]["leave"] == [1]
    assert exported["before"]["joins"] == [{"seat": 1, "name": "Dee", "stack_cents": 5_000}]
    assert exported["before"].get("house", {}).get("1", 0) == dee_charged
    verdict = game_replay(game)
    assert verdict["ok"], verdict["differences"]
    assert verdict["replay"]["earlier"] == [{"seat": 1, "occupant": 1, "stack_cents": ann.cashed_out_cents}]
    assert verdict["replay"]["stacks"]["1"] == dee.cashed_out_cents
    replayed = json.loads(run("replay_game", tmp_path, exported, "--json"))
    assert json.loads(run("play_game", tmp_path, exported, "--json")) == replayed
    again = game_record(HomeGame.objects.order_by("-pk").first())  # type: ignore[arg-type]
    assert (again["players"], again["before"]) == (exported["players"], exported["before"])
