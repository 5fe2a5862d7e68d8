"""A seat a player left, taken by a newcomer between hands (a table's game: "a player leaves and the next one sits
down in that chair"). The seat starts afresh for the newcomer: their stack, no legs, nothing in a carried pot; what
the one who left still owns (Three Legged Race: their chips in the carried pot, given back "to the players who put it
in" when the floor closes the game unwon) stays theirs. The game record (DESIGN 9) has the leave, then the join in the
`after` of the hand it followed, and replays to the same stacks, legs, pots and close."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino.engine.cards import ALL_CARDS, Card
from casino.engine.home import errors as e
from casino.engine.home.betting import MoveKind
from casino.engine.home.errors import IllegalAction
from casino.engine.home.game import HomeGame
from casino.engine.home.record import GameRecord, hand_record
from casino.engine.home.replay import replay
from casino.engine.rules.model import Rules
from tests.engine.home_play import play_live
from tests.engine.home_support import stacked_deck

STAKES = {"ante_cents": 100, "small_bet_cents": 200, "big_bet_cents": 400}
# Seat 2 bets, seat 3 calls, seat 1 folds; seat 2's three jacks win a leg: 700 stays in the middle (seat 1 put in 100,
# seats 2 and 3 300 each). Seat 1 (Ann) then leaves and Dee sits down in seat 1 with $50.
FIRST = {"button": 1, "deck": [str(card) for card in stacked_deck(
    1, {1: "Qs Qd 9c 4c 5c", 2: "Jc Jh 4d 5d 7c", 3: "Tc 9d 4s 5s 7h"}, "Js 6d 2c 2d 3d 8d 8c 8h 3s")],
    "reshuffles": [], "actions": ["2 bet 200", "3 call", "1 fold", "2 draw 4d 5d 7c", "3 draw 4s 5s 7h", "2 check",
                                  "3 check", "1 leave"],
    "after": {"joins": [{"seat": 1, "name": "Dee", "stack_cents": 5_000}]}}
# Seat 3 bets and is left alone: a leg, and 1,000 stays (100 more from each, Dee's first ante among them).
SECOND = {"button": 2, "deck": [str(card) for card in ALL_CARDS], "reshuffles": [],
          "actions": ["3 bet 200", "1 fold", "2 fold"]}


def _record(*hands: dict[str, Any], close: str | None = None) -> dict[str, Any]:
    record: dict[str, Any] = {
        "variant": "three-legged-race", "rules": dict(STAKES),
        "players": [{"seat": 1, "name": "Ann", "stack_cents": 10_000},
                    {"seat": 2, "name": "Bob", "stack_cents": 10_000},
                    {"seat": 3, "name": "Cy", "stack_cents": 10_000}],
        "hands": [copy.deepcopy(hand) for hand in hands]}
    if close is not None:
        record["close"] = close
    return record


def test_the_newcomer_plays_the_seat_with_their_own_stack_and_no_legs() -> None:
    result = replay(GameRecord.from_dict(_record(FIRST, SECOND)))
    assert result["hands"][0]["legs"] == {"1": 0, "2": 1, "3": 0}
    assert result["hands"][1]["legs"] == {"1": 0, "2": 1, "3": 1}
    # Dee antes 100 and folds; Ann went home with what she had when she left.
    assert result["stacks"] == {"1": 4_900, "2": 9_600, "3": 9_600}
    assert result["earlier"] == [{"seat": 1, "occupant": 1, "stack_cents": 9_900}]
    assert result["carried_pot_cents"] == 1_000


def test_closing_unwon_gives_the_one_who_left_their_own_chips_and_the_newcomer_only_theirs() -> None:
    # DESIGN 7: the carried pot goes "back to each player's own contributions": Ann's 100 of hand 1 to Ann, not to
    # Dee, who took her seat; Dee's 100 of hand 2 to Dee.
    result = replay(GameRecord.from_dict(_record(FIRST, SECOND, close="floor close -- end of the session")))
    assert result["close"] == {"reason": "end of the session", "award_seat": None, "carried_pot_cents": 1_000,
                               "paid": {"1": 100, "2": 400, "3": 400},
                               "paid_earlier": [{"seat": 1, "occupant": 1, "cents": 100}]}
    assert result["stacks"] == {"1": 5_000, "2": 10_000, "3": 10_000}
    assert result["earlier"] == [{"seat": 1, "occupant": 1, "stack_cents": 10_000}]


def test_the_close_names_the_one_who_left_and_the_newcomer_apart() -> None:
    game = HomeGame(Rules.announce("three-legged-race", STAKES), {1: 10_000, 2: 10_000, 3: 10_000})
    hand = game.start_hand(button=1, deck=[*map(_card, FIRST["deck"])])
    for text in FIRST["actions"][:-1]:
        seat, verb, *args = text.split()
        if verb == "draw":
            hand.draw(int(seat), [_card(code) for code in args])
        else:
            hand.act(int(seat), _move(verb), int(args[0]) if args else 0)
    game.leave(1)
    assert game.carried_contributions[1] == 100  # Ann's chips stay in the carried pot after she leaves
    game.join(1, 5_000)
    assert game.carried_contributions.get(1, 0) == 0  # Dee owns none of them
    assert game.legs[1] == 0
    closed = game.close("end of the session")
    assert closed.paid == {2: 300, 3: 300}
    assert closed.paid_earlier == ((1, 1, 100),)
    assert closed.words({1: "Dee", 2: "Bob", 3: "Cy"}, {(1, 1): "Ann"}) == (
        "The carried pot of $7.00 went back to the players who put it in: $1.00 to Ann, $3.00 to Bob, $3.00 to Cy")
    assert game.stacks[1] == 5_000
    assert game.former[0].stack == 10_000


def test_a_seat_still_played_is_refused_and_joins_wait_for_the_hand_to_end() -> None:
    game = HomeGame(Rules.announce("three-legged-race", STAKES), {1: 10_000, 2: 10_000, 3: 10_000})
    with pytest.raises(IllegalAction) as taken:
        game.join(2, 5_000)
    assert taken.value.code == e.SEAT_TAKEN
    assert "seat 2 is taken" in taken.value.message
    game.leave(2)
    game.start_hand(button=1, deck=list(ALL_CARDS))
    with pytest.raises(IllegalAction) as during:
        game.join(2, 5_000)
    assert during.value.code == e.WRONG_PHASE


def test_a_leg_holder_who_leaves_takes_no_leg_to_the_newcomer() -> None:
    result = replay(GameRecord.from_dict(_record(
        {**FIRST, "actions": [*FIRST["actions"][:-1], "2 leave"],
         "after": {"joins": [{"seat": 2, "name": "Eve", "stack_cents": 5_000}]}},
        {**SECOND, "actions": ["3 bet 200", "1 fold", "2 fold"]})))
    assert result["hands"][0]["legs"]["2"] == 1  # Bob won hand 1's leg, then left: Eve starts at none
    assert result["hands"][1]["legs"] == {"1": 0, "2": 0, "3": 1}
    assert result["earlier"] == [{"seat": 2, "occupant": 1, "stack_cents": 9_700}]


def _card(code: str) -> Card:
    return Card.parse(code)


def _move(verb: str) -> MoveKind:
    return MoveKind(verb)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), variant=st.sampled_from(["three-legged-race", "five-card-draw", "freak-of-nature"]))
def test_seats_taken_again_conserve_chips_and_replay_as_played(data: st.DataObject, variant: str) -> None:
    """Hands played with random legal actions; between them players leave and others sit down at the seats they left
    (or at free ones); chips are conserved at every step, and the record replays to the same game."""
    rules = Rules.announce(variant, {**STAKES, "legs_to_win": 3} if variant == "three-legged-race" else STAKES)
    starting = {seat: data.draw(st.integers(300, 3_000), label=f"stack {seat}") for seat in (1, 2, 3)}
    game = HomeGame(rules, starting)
    bought = sum(starting.values())
    hands: list[dict[str, Any]] = []
    for _ in range(data.draw(st.integers(1, 5), label="hands")):
        dealt_in = [seat for seat, stack in sorted(game.stacks.items()) if stack and seat not in game.departed]
        if game.over or not dealt_in or not game.can_start_hand(button := dealt_in[0]):
            break
        play_live(game.start_hand(button=button), data)
        assert game.chips_in_play == bought
        record = hand_record(game.hands[-1]).to_dict()
        hands.append(record)
        if game.over:
            break
        seated = sorted(set(game.stacks) - game.departed)
        for seat in data.draw(st.lists(st.sampled_from(seated), unique=True, max_size=2), label="leave"):
            game.leave(seat)
        free = [seat for seat in range(1, rules.seat_limit + 1) if seat not in game.stacks or seat in game.departed]
        joins = []
        for seat in data.draw(st.lists(st.sampled_from(free), unique=True, max_size=2), label="join"):
            if game.can_join(seat, 1_000):
                game.join(seat, 1_000)
                bought += 1_000
                joins.append({"seat": seat, "name": "", "stack_cents": 1_000})
        record["actions"] = list(hand_record(game.hands[-1]).actions)  # the leaves after the hand
        if joins:
            record["after"] = {"joins": joins}
        assert game.chips_in_play == bought
    close = None
    if hands and game.can_close("end of the session"):
        game.close("end of the session")
        close = "floor close -- end of the session"
        assert game.chips_in_play == bought
        assert game.carried_pot_cents == 0
        assert all(former.carried == 0 for former in game.former)
    export = {"variant": variant, "rules": rules.to_dict(),
              "players": [{"seat": seat, "name": "", "stack_cents": stack} for seat, stack in starting.items()],
              "hands": hands, **({"close": close} if close else {})}
    result = replay(GameRecord.from_dict(export))
    assert result["stacks"] == {str(seat): stack for seat, stack in sorted(game.stacks.items())}
    assert result["carried_pot_cents"] == game.carried_pot_cents
    assert result.get("earlier", []) == [{"seat": f.seat, "occupant": f.occupant, "stack_cents": f.stack}
                                         for f in sorted(game.former, key=lambda f: (f.seat, f.occupant))]
    if game.closed is not None:
        assert result["close"] == game.closed.to_dict()
    assert [hand["legs"] for hand in result["hands"]] == [
        {str(seat): legs for seat, legs in sorted(hand.settlement.legs.items())}
        | {str(seat): 0 for seat, player in hand.players.items() if player.left and seat in hand.settlement.legs}
        for hand in game.hands if hand.settlement is not None]
