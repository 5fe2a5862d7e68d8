"""Every player who sat at a seat before the game's first recorded hand is in its record, in the order they came
and went (DESIGN 9's `before`: `before.leave`, then `before.joins`, a join that left again marked `"leave": true`).

The record used to keep only a seat's first and last player there: a seat taken three times before the first hand
(a player sits, leaves, a second sits and leaves, a third sits), or a newcomer who left again before it, lost the
middle player's buy-in and cash-out. Compliance relies on the record naming every player with both."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.models import HomeGame, HomeGamePlayer, HomeHand, Table
from tables.selectors.home_records import game_record, game_replay
from tables.services.home_games import game_close, game_open, player_add_chips, player_join, player_leave
from tables.services.home_hands import hand_act, hand_start
from tables.services.home_rulings import hand_void
from tests.tables.home_commands import run
from tests.tables.test_home_services import balanced, seat_players

TIME = {"charge": "time", "time_charge_cents": 300}

# What happens at the table before the first recorded hand, after seat 1's first player (P1) left: Dee sits down
# at seat 1 and adds chips, gets up, Eve sits down ("three at a seat"); or Dee sits down and gets up again, and the
# seat stays empty ("left again").
STEPS: dict[str, list[tuple[Any, ...]]] = {
    "three at a seat": [("join", 1, "Dee", 5_000), ("add", 1, 1_000), ("leave", 1), ("join", 1, "Eve", 4_000)],
    "left again": [("join", 1, "Dee", 5_000), ("leave", 1)],
}


def _step(game: HomeGame, dealer: User, step: tuple[Any, ...]) -> None:
    if step[0] == "join":
        player_join(game=game.pk, actor=dealer, seat=step[1], name=step[2], buy_in_cents=step[3])
    elif step[0] == "add":
        player_add_chips(game=game.pk, actor=dealer, seat=step[1], amount_cents=step[2])
    else:
        player_leave(game=game.pk, actor=dealer, seat=step[1])


def _fold_to_one(row: HomeHand, dealer: User) -> HomeHand:
    """Everyone but the last to act folds: the hand ends at once."""
    from tables.selectors.home import hand_view

    while row.status == HomeHand.Status.IN_PLAY:
        view = hand_view(row)
        row = hand_act(hand=row.pk, actor=dealer, seat=view["awaiting"]["seat"], action="fold")
    return row


def _game(table: Table, dealer: User, floor: User, steps: list[tuple[Any, ...]], when: str) -> HomeGame:
    """Three players; P1 leaves (before any hand, or during a first hand the floor voids), then `steps`; then, unless
    `when` is "no hand", a hand the first to act after the button folds; the floor closes the game."""
    game = game_open(table=table, actor=dealer, players=seat_players(3))
    if when == "voided first hand":
        first = hand_start(game=game, actor=dealer, button=3)
        player_leave(game=game.pk, actor=dealer, seat=1)
        hand_void(hand=first.pk, actor=floor, reason="misdeal")
    else:
        player_leave(game=game.pk, actor=dealer, seat=1)
    for step in steps:
        _step(game, dealer, step)
    if when != "no hand":
        _fold_to_one(hand_start(game=game.pk, actor=dealer, button=2), dealer)
    game_close(game=game.pk, actor=floor, reason="end of the session")
    return HomeGame.objects.get(pk=game.pk)


def _everyone_in_the_record(game: HomeGame, exported: dict[str, Any]) -> None:
    """Each person of the game is in the record once, at their seat in the order they sat there: a seat's first as a
    player, the others as joins; one who left before the first hand with what they were paid."""
    people = list(HomeGamePlayer.objects.filter(game=game).order_by("seat", "id"))
    before = exported.get("before", {})
    named = [(p["seat"], p["name"]) for p in exported["players"]] + [
        (j["seat"], j["name"]) for j in before.get("joins", [])]
    assert sorted(named, key=lambda item: item[0]) == [(p.seat, p.name) for p in people]
    for join in before.get("joins", []):
        if join.get("leave"):
            person = next(p for p in people if p.name == join["name"])
            # Nobody played a hand in between: they took home what they brought.
            assert join["stack_cents"] == person.bought_in_cents == person.cashed_out_cents


def _round_trip(game: HomeGame, exported: dict[str, Any], tmp_path: Path) -> dict[str, Any]:
    """The export replays with `ok`, naming every earlier player's cash-out; play_game on it prints exactly what
    replay_game prints, and the game it plays exports the same players and `before`."""
    verdict = game_replay(game)
    assert verdict["ok"], verdict["differences"]
    people = list(HomeGamePlayer.objects.filter(game=game).order_by("seat", "id"))
    last = {p.seat: p.pk for p in people}
    occupant: dict[int, int] = {}
    earlier = []
    for person in people:
        occupant[person.seat] = occupant.get(person.seat, 0) + 1
        if person.pk != last[person.seat]:
            earlier.append({"seat": person.seat, "occupant": occupant[person.seat],
                            "stack_cents": person.cashed_out_cents})
    assert verdict["replay"].get("earlier", []) == earlier
    replayed = json.loads(run("replay_game", tmp_path, exported, "--json"))
    assert json.loads(run("play_game", tmp_path, exported, "--json")) == replayed
    again = game_record(HomeGame.objects.order_by("-pk").first())  # type: ignore[arg-type]
    assert (again["players"], again.get("before")) == (exported["players"], exported.get("before"))
    return replayed


@pytest.mark.parametrize("when", ["no hand", "before any hand", "voided first hand"])
@pytest.mark.parametrize("charge", [{}, TIME], ids=["no charge", "time charge"])
@pytest.mark.parametrize("story", sorted(STEPS))
def test_every_player_at_a_seat_before_the_first_hand_is_in_the_record(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User, tmp_path: Path, story: str, when: str,
    charge: dict[str, Any]
) -> None:
    game = _game(home_table("five-card-draw", **charge), dealer_user, floor_user, STEPS[story], when)
    balanced(game)
    exported = game_record(game)
    _everyone_in_the_record(game, exported)
    assert exported["before"]["leave"] == [1]
    assert [{key: value for key, value in join.items() if key != "stack_cents"}
            for join in exported["before"]["joins"]] == (
        [{"seat": 1, "name": "Dee", "leave": True}, {"seat": 1, "name": "Eve"}] if story == "three at a seat"
        else [{"seat": 1, "name": "Dee", "leave": True}])
    replayed = _round_trip(game, exported, tmp_path)
    assert [e["occupant"] for e in replayed["earlier"]] == ([1, 2] if story == "three at a seat" else [1])


def test_the_record_of_a_seat_taken_three_times(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User, tmp_path: Path
) -> None:
    game = _game(home_table("five-card-draw"), dealer_user, floor_user, STEPS["three at a seat"], "before any hand")
    exported = game_record(game)
    assert exported["players"][0] == {"seat": 1, "name": "P1", "stack_cents": 10_000}
    assert exported["before"] == {"leave": [1], "joins": [
        {"seat": 1, "name": "Dee", "stack_cents": 6_000, "leave": True},
        {"seat": 1, "name": "Eve", "stack_cents": 4_000}]}
    verdict = game_replay(game)
    assert verdict["ok"], verdict["differences"]
    assert verdict["replay"]["earlier"] == [{"seat": 1, "occupant": 1, "stack_cents": 10_000},
                                            {"seat": 1, "occupant": 2, "stack_cents": 6_000}]
    # In words too, for people: replay_game and play_game print both earlier players of seat 1.
    text = run("replay_game", tmp_path, exported)
    assert "Earlier players: seat 1's player 1 $100.00, seat 1's player 2 $60.00" in text
    assert run("play_game", tmp_path, exported) == text


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(data=st.data())
def test_random_joins_and_leaves_before_the_first_hand_conserve_chips_and_replay_identically(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User, tmp_path: Path, data: st.DataObject
) -> None:
    charge = data.draw(st.sampled_from([{}, TIME]), label="charge")
    table = home_table("five-card-draw", **charge)
    game = game_open(table=table, actor=dealer_user, players=seat_players(2))
    names = iter(f"N{number}" for number in range(100))
    voided = data.draw(st.booleans(), label="a first hand voided")
    for moment in range(2):
        for _ in range(data.draw(st.integers(0, 6), label="changes")):
            seated = dict(game.players.filter(left_at__isnull=True).values_list("seat", "stack_cents"))
            free = [seat for seat in (1, 2, 3) if seat not in seated]
            kind = data.draw(st.sampled_from(["join", "leave", "add"]), label="change")
            if kind == "join" and free:
                player_join(game=game.pk, actor=dealer_user, seat=data.draw(st.sampled_from(free)), name=next(names),
                            buy_in_cents=data.draw(st.integers(1_000, 20_000), label="buy-in"))
            elif kind == "leave" and seated:
                player_leave(game=game.pk, actor=dealer_user, seat=data.draw(st.sampled_from(sorted(seated))))
            elif kind == "add" and seated:
                seat = data.draw(st.sampled_from(sorted(seated)))
                if seated[seat] + 500 <= 100_000:
                    player_add_chips(game=game.pk, actor=dealer_user, seat=seat, amount_cents=500)
            balanced(game)
        in_game = game.players.filter(left_at__isnull=True, stack_cents__gt=0).count()
        if moment == 0 and voided and in_game >= 2:
            first = hand_start(game=game.pk, actor=dealer_user)
            # One leaving a hand of two would end it (the other wins): only with three in it, so it can be voided.
            if len(first.stacks_before) > 2 and data.draw(st.booleans(), label="someone leaves during it"):
                player_leave(game=game.pk, actor=dealer_user, seat=min(map(int, first.stacks_before)))
            hand_void(hand=first.pk, actor=floor_user, reason="misdeal")
            balanced(game)
    if game.players.filter(left_at__isnull=True, stack_cents__gt=0).count() >= 2:
        _fold_to_one(hand_start(game=game.pk, actor=dealer_user), dealer_user)
    game_close(game=game.pk, actor=floor_user, reason="end of the session")
    game = HomeGame.objects.get(pk=game.pk)
    balanced(game)
    exported = game_record(game)
    _everyone_in_the_record(game, exported)
    _round_trip(game, exported, tmp_path)
