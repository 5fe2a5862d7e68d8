"""Betting rounds: acting order, limits, the raise cap, short all-ins, and refusals that change nothing."""

from __future__ import annotations

import copy

import pytest

from casino.engine.home import errors as e
from casino.engine.home.betting import MoveKind
from casino.engine.home.errors import IllegalAction
from casino.engine.home.hand import HomeHand
from tests.engine.home_support import game, stacked_deck

HANDS = {1: "2c 7d 9h Js Kc", 2: "3c 8d Th Qs Ac", 3: "4c 5d 6h 8s Tc", 4: "2d 3h 5s 9c Jd"}
FIXED = {"ante_cents": 100, "small_bet_cents": 200, "big_bet_cents": 400}


def _hand(stacks: dict[int, int], button: int = 4, **options: object) -> HomeHand:
    table = game("five-card-draw", stacks, **(options or FIXED))
    return table.start_hand(button=button, deck=stacked_deck(button, {s: HANDS[s] for s in stacks}))


def _snapshot(hand: HomeHand) -> tuple[object, ...]:
    return (copy.deepcopy(hand.players), hand.pot_cents, hand.actor, copy.deepcopy(hand.round.__dict__),
            len(hand.events), hand.phase)


def _refused(hand: HomeHand, seat: int, kind: MoveKind, amount: int = 0) -> str:
    before = _snapshot(hand)
    with pytest.raises(IllegalAction) as refused:
        hand.act(seat, kind, amount)
    assert _snapshot(hand) == before, "a refused action changed the hand"
    assert refused.value.rule
    return refused.value.code


def test_first_to_act_is_left_of_the_dealer_and_acting_out_of_turn_is_refused() -> None:
    hand = _hand({1: 5_000, 2: 5_000, 3: 5_000, 4: 5_000}, button=2)
    assert hand.actor == 3
    assert _refused(hand, 1, MoveKind.CHECK) == e.OUT_OF_TURN
    assert _refused(hand, 4, MoveKind.BET, 200) == e.OUT_OF_TURN
    hand.check(3)
    assert hand.actor == 4


def test_fixed_limit_bets_are_exactly_the_small_bet_before_the_draw() -> None:
    hand = _hand({1: 5_000, 2: 5_000, 3: 5_000, 4: 5_000})
    assert _refused(hand, 1, MoveKind.BET, 100) == e.BET_BELOW_MINIMUM
    assert _refused(hand, 1, MoveKind.BET, 400) == e.BET_ABOVE_LIMIT
    assert _refused(hand, 1, MoveKind.RAISE, 400) == e.NO_BET_TO_RAISE
    assert _refused(hand, 1, MoveKind.CALL) == e.NOTHING_TO_CALL
    assert _refused(hand, 1, MoveKind.ALLIN) == e.BET_ABOVE_LIMIT
    hand.bet(1, 200)
    assert _refused(hand, 2, MoveKind.CHECK) == e.CANNOT_CHECK
    assert _refused(hand, 2, MoveKind.BET, 200) == e.BET_ALREADY_MADE
    assert _refused(hand, 2, MoveKind.RAISE, 500) == e.BET_ABOVE_LIMIT
    assert _refused(hand, 2, MoveKind.RAISE, 300) == e.BET_BELOW_MINIMUM


def test_fixed_limit_allows_one_bet_and_three_raises_then_refuses_a_fourth_raise() -> None:
    hand = _hand({1: 5_000, 2: 5_000, 3: 5_000, 4: 5_000})
    hand.bet(1, 200)
    hand.raise_to(2, 400)
    hand.raise_to(3, 600)
    hand.raise_to(4, 800)
    assert _refused(hand, 1, MoveKind.RAISE, 1_000) == e.RAISE_CAP_REACHED
    hand.call(1)
    hand.call(2)
    hand.call(3)
    assert hand.pot_cents == 400 + 4 * 800


def test_pot_limit_caps_a_raise_at_the_pot_after_the_call() -> None:
    hand = _hand({1: 50_000, 2: 50_000, 3: 50_000, 4: 50_000}, ante_cents=100, betting="pot_limit",
                 min_bet_cents=200)
    assert _refused(hand, 1, MoveKind.BET, 401) == e.BET_ABOVE_LIMIT  # the pot is 400
    hand.bet(1, 400)
    # Seat 2 may raise to 400 (call) + 1,200 (pot after the call) = 1,600.
    assert _refused(hand, 2, MoveKind.RAISE, 1_601) == e.BET_ABOVE_LIMIT
    assert _refused(hand, 2, MoveKind.RAISE, 700) == e.BET_BELOW_MINIMUM  # must add at least 400
    hand.raise_to(2, 1_600)
    assert hand.pot_cents == 2_400


def test_no_limit_bets_start_at_the_minimum_and_a_raise_adds_at_least_the_last_raise() -> None:
    hand = _hand({1: 50_000, 2: 50_000, 3: 50_000, 4: 50_000}, ante_cents=100, betting="no_limit",
                 min_bet_cents=200)
    assert _refused(hand, 1, MoveKind.BET, 199) == e.BET_BELOW_MINIMUM
    assert _refused(hand, 1, MoveKind.BET, 60_000) == e.INSUFFICIENT_CHIPS
    hand.bet(1, 1_000)
    assert _refused(hand, 2, MoveKind.RAISE, 1_999) == e.BET_BELOW_MINIMUM
    hand.raise_to(2, 5_000)
    assert _refused(hand, 3, MoveKind.RAISE, 8_999) == e.BET_BELOW_MINIMUM
    hand.all_in(3)
    assert hand.players[3].stack == 0
    assert hand.pot_cents == 400 + 1_000 + 5_000 + 49_900


def test_a_short_all_in_raise_does_not_reopen_the_betting_to_players_who_acted() -> None:
    hand = _hand({1: 50_000, 2: 1_500, 3: 50_000}, button=3, ante_cents=100, betting="no_limit", min_bet_cents=200)
    hand.bet(1, 1_000)
    hand.all_in(2)  # to 1,400: less than a full raise of 1,000 more
    # Seat 3 had not acted yet: it may raise.
    assert hand.can_raise_to(3, 2_400)
    hand.call(3)
    # Seat 1 had acted on the full bet: it may call or fold, not raise.
    assert _refused(hand, 1, MoveKind.RAISE, 3_000) == e.RAISE_NOT_REOPENED
    hand.call(1)
    assert hand.phase.value == "drawing"


def test_a_player_who_cannot_cover_the_ante_is_all_in_for_what_they_have() -> None:
    hand = _hand({1: 60, 2: 5_000, 3: 5_000}, button=3, **FIXED)
    assert hand.players[1].stack == 0
    assert hand.players[1].contributed == 60
    assert hand.actor == 2  # seat 1 has nothing left to bet


def test_forced_play_refuses_to_fold_and_leaves_the_state_as_it_was() -> None:
    table = game("three-legged-race", {1: 5_000, 2: 5_000}, forced_play=True, **FIXED)
    hand = table.start_hand(button=2, deck=stacked_deck(2, {1: HANDS[1], 2: HANDS[2]}))
    hand.bet(1, 200)
    assert _refused(hand, 2, MoveKind.FOLD) == e.FOLD_NOT_ALLOWED
    assert not hand.can_fold(2)
    hand.call(2)
