"""A game record's `before.joins` (DESIGN 9 extended): the players who sat down before the first hand at a seat its
player left, in the order they sat down, each who got up again before it marked `"leave": true`. Records written
before a join could leave again read and replay as they did."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino.engine.home.game import HomeGame
from casino.engine.home.record import BeforeJoin, GameRecord, RecordError, hand_record
from casino.engine.home.replay import replay
from casino.engine.rules.model import Rules
from tests.engine.home_play import play_live
from tests.engine.home_support import stacked_deck

STAKES = {"ante_cents": 100, "small_bet_cents": 200, "big_bet_cents": 400}
# The button is seat 2; seat 3 folds, then seat 1 (when seated): seat 2 wins the antes.
HAND = {"button": 2, "deck": [str(card) for card in stacked_deck(
    2, {3: "2c 7d 9h Js Kc", 1: "3c 8d Th Qs Ac", 2: "4c 5d 6h 8s 9s"})], "reshuffles": [],
    "actions": ["3 fold", "1 fold"]}


def _record(before: dict[str, Any], actions: tuple[str, ...] = ("3 fold", "1 fold")) -> dict[str, Any]:
    hand = {**copy.deepcopy(HAND), "actions": list(actions)}
    return {"variant": "five-card-draw", "rules": STAKES, "hands": [hand], "before": before,
            "players": [{"seat": seat, "name": name, "stack_cents": 5_000}
                        for seat, name in ((1, "Ann"), (2, "Bob"), (3, "Cy"))]}


def test_an_older_record_with_one_join_at_a_seat_reads_and_replays_as_before() -> None:
    record = GameRecord.from_dict(_record({"leave": [1], "joins": [{"seat": 1, "name": "Dee", "stack_cents": 4_000}]}))
    assert record.before_joins == (BeforeJoin(1, "Dee", 4_000),)
    assert record.before_joins[0].to_dict() == {"seat": 1, "name": "Dee", "stack_cents": 4_000}  # no "leave" key
    result = replay(record)
    assert result["stacks"] == {"1": 3_900, "2": 5_200, "3": 4_900}
    assert result["earlier"] == [{"seat": 1, "occupant": 1, "stack_cents": 5_000}]


def test_a_seat_taken_three_times_before_the_first_hand_names_every_earlier_player() -> None:
    result = replay(GameRecord.from_dict(_record({"leave": [1], "joins": [
        {"seat": 1, "name": "Dee", "stack_cents": 6_000, "leave": True},
        {"seat": 1, "name": "Eve", "stack_cents": 4_000}]})))
    assert result["stacks"] == {"1": 3_900, "2": 5_200, "3": 4_900}
    assert result["earlier"] == [{"seat": 1, "occupant": 1, "stack_cents": 5_000},
                                 {"seat": 1, "occupant": 2, "stack_cents": 6_000}]


def test_a_newcomer_who_left_again_before_the_first_hand_sits_it_out_and_goes_home_with_their_stack() -> None:
    result = replay(GameRecord.from_dict(_record({"leave": [1], "joins": [
        {"seat": 1, "name": "Dee", "stack_cents": 6_000, "leave": True}]}, ("3 fold",))))
    assert result["hands"][0]["pots"] == [{"amount_cents": 200, "winners": [2]}]  # Dee was dealt nothing
    assert result["stacks"] == {"1": 6_000, "2": 5_100, "3": 4_900}  # seat 1's last player: Dee, gone home
    assert result["earlier"] == [{"seat": 1, "occupant": 1, "stack_cents": 5_000}]


def test_a_time_charge_before_the_first_hand_at_a_seat_taken_again_is_its_last_newcomers() -> None:
    record = _record({"leave": [1], "house": {"1": 300, "2": 300, "3": 300}, "joins": [
        {"seat": 1, "name": "Dee", "stack_cents": 6_000, "leave": True},
        {"seat": 1, "name": "Eve", "stack_cents": 4_000}]})
    result = replay(GameRecord.from_dict({**record, "house": {"charge": "time", "time_charge_cents": 300}}))
    assert result["stacks"] == {"1": 3_600, "2": 4_900, "3": 4_600}
    assert [earlier["stack_cents"] for earlier in result["earlier"]] == [5_000, 6_000]


@pytest.mark.parametrize(("joins", "message"), [
    ([{"seat": 1, "name": "Dee", "stack_cents": 6_000, "leave": "yes"}], r"before\.joins\[0\]\.leave"),
    ([{"seat": 1, "name": "Dee", "stack_cents": 6_000}, {"seat": 1, "name": "Eve", "stack_cents": 4_000}],
     r"before\.joins\[1\]: seat 1 is taken"),
    ([{"seat": 2, "name": "Dee", "stack_cents": 6_000, "leave": True}], r"before\.joins seats players at seats of"),
])
def test_joins_that_cannot_have_happened_are_refused(joins: list[dict[str, Any]], message: str) -> None:
    with pytest.raises(RecordError, match=message):
        GameRecord.from_dict(_record({"leave": [1], "joins": joins}))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), variant=st.sampled_from(["three-legged-race", "five-card-draw", "freak-of-nature"]))
def test_random_joins_and_leaves_before_the_first_hand_conserve_chips_and_replay_as_played(
    data: st.DataObject, variant: str
) -> None:
    """Players leave and others sit down and get up again at random before the first hand; the game then plays
    random legal hands. Chips are conserved, and the record (`before.leave`, `before.joins`) replays to the same
    game, every earlier player of a seat with what they took home."""
    rules = Rules.announce(variant, STAKES)
    starting = {seat: data.draw(st.integers(300, 3_000), label=f"stack {seat}") for seat in (1, 2, 3)}
    game = HomeGame(rules, starting)
    bought = sum(starting.values())
    leave: list[int] = []
    joins: list[BeforeJoin] = []
    for _ in range(data.draw(st.integers(0, 8), label="changes")):
        seated = sorted(set(game.stacks) - game.departed)
        if seated and data.draw(st.booleans(), label="a leave"):
            seat = data.draw(st.sampled_from(seated), label="leaves")
            game.leave(seat)
            if any(join.seat == seat for join in joins):  # the seat's last newcomer gets up again
                index = max(n for n, join in enumerate(joins) if join.seat == seat)
                joins[index] = BeforeJoin(seat, joins[index].name, joins[index].stack, leave=True)
            else:  # the seat's first player
                leave.append(seat)
        elif free := sorted(game.departed):
            seat, stack = data.draw(st.sampled_from(free), label="joins"), data.draw(st.integers(300, 3_000))
            game.join(seat, stack)
            bought += stack
            joins.append(BeforeJoin(seat, f"N{len(joins)}", stack))
        assert game.chips_in_play == bought
    hands: list[dict[str, Any]] = []
    for _ in range(data.draw(st.integers(0, 3), label="hands")):
        dealt_in = [seat for seat, stack in sorted(game.stacks.items()) if stack and seat not in game.departed]
        if game.over or len(dealt_in) < 2 or not game.can_start_hand(button := dealt_in[0]):
            break
        play_live(game.start_hand(button=button), data)
        hands.append(hand_record(game.hands[-1]).to_dict())
        assert game.chips_in_play == bought
    # A seat's joins in the order they sat down there (the record lists them by seat).
    ordered = sorted(joins, key=lambda join: join.seat)
    before = {"leave": leave, "joins": [join.to_dict() for join in ordered]}
    export = {"variant": variant, "rules": rules.to_dict(), "hands": hands, "before": before,
              "players": [{"seat": seat, "name": "", "stack_cents": stack} for seat, stack in starting.items()]}
    result = replay(GameRecord.from_dict(export))
    assert result["stacks"] == {str(seat): stack for seat, stack in sorted(game.stacks.items())}
    assert result["carried_pot_cents"] == game.carried_pot_cents
    assert result.get("earlier", []) == [{"seat": f.seat, "occupant": f.occupant, "stack_cents": f.stack}
                                         for f in sorted(game.former, key=lambda f: (f.seat, f.occupant))]
    assert sum(result["stacks"].values()) + sum(e["stack_cents"] for e in result.get("earlier", [])) + \
        result["carried_pot_cents"] == bought
