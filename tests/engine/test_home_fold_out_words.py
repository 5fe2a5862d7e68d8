"""The result's words when nobody shows down: a player left alone after the others fold, in every variant.

Three Legged Race's sheet: "The published rules do not say what happens when all but one player folds ... The
dealer shall announce before the game whether a player left alone after the others fold scores a leg". The
announcement says it ("A player left alone after the others fold scores a leg", the default): the headline must say
the same as the leg line under it, not "No live hand" (a tester saw both on one screen).
"""

from __future__ import annotations

import pytest

from casino.engine.home.game import HomeGame
from casino.engine.home.hand import HomeHand
from casino.engine.home.result import hand_result
from casino.engine.home.settle import settle
from casino.engine.rules.model import Rules
from casino.engine.rules.words import describe_rules
from tests.engine.home_support import game, stacked_deck

STAKES = {"ante_cents": 100, "small_bet_cents": 200, "big_bet_cents": 400}
NAMES = {1: "Ann", 2: "Bob", 3: "Cy"}
DRAWS = {"pregnant-threes": {"draws": 1, "cards_per_draw": 3, "draw": "optional"}}
HANDS = {1: "Qs Qd 4c 5c 7d", 2: "Jc Jh 4d 5d 7c", 3: "2h 3h 6h 7s 8s"}


def _cy_bets_and_the_others_fold(table: HomeGame) -> HomeHand:
    """Button on seat 2: Cy (seat 3) acts first, bets, and Ann and Bob fold."""
    hand = table.start_hand(button=2, deck=stacked_deck(2, HANDS))
    hand.bet(3, 200)
    hand.fold(1)
    hand.fold(2)
    assert hand.settled
    return hand


def test_three_legged_race_a_player_left_alone_scores_a_leg_and_the_headline_says_so() -> None:
    # Announced: "A player left alone after the others fold scores a leg" (the default).
    table = game("three-legged-race", {1: 1_000, 2: 1_000, 3: 1_000}, **STAKES)
    assert "A player left alone after the others fold scores a leg" in describe_rules(table.rules)
    result = _cy_bets_and_the_others_fold(table).result(NAMES)
    assert result is not None
    assert result.headline == "Cy is left alone and scores a leg: the pot stays in the middle"
    assert result.lines[1:] == ("Pot $3.00 stays in the middle", "Cy scores a leg: 1 of 2")
    assert not any("No live hand" in line for line in result.lines)
    assert result.leg_scorers == (3,)


def test_three_legged_race_announced_no_leg_for_a_player_left_alone() -> None:
    # Announced: "A player left alone after the others fold scores no leg".
    table = game("three-legged-race", {1: 1_000, 2: 1_000, 3: 1_000}, uncontested_scores_leg=False, **STAKES)
    assert "A player left alone after the others fold scores no leg" in describe_rules(table.rules)
    result = _cy_bets_and_the_others_fold(table).result(NAMES)
    assert result is not None
    assert result.headline == "Cy is left alone but scores no leg, as announced: the pot stays in the middle"
    assert result.lines[1:] == ("Pot $3.00 stays in the middle",)


def test_three_legged_race_a_player_left_alone_with_the_last_leg_takes_the_pot() -> None:
    # "When a player wins their final required leg, they take the whole pot and the game ends."
    table = game("three-legged-race", {1: 1_000, 2: 1_000, 3: 1_000}, legs_to_win=1, **STAKES)
    result = _cy_bets_and_the_others_fold(table).result(NAMES)
    assert result is not None
    assert result.headline == "Cy is left alone and scores the last leg: the game and the pot"
    assert result.lines[1:] == ("Pot $3.00 to Cy: 1 leg", "Cy scores a leg: 1 of 1", "Cy wins the game and the pot")


@pytest.mark.parametrize("variant", ["five-card-draw", "pregnant-threes", "freak-of-nature"])
def test_a_player_left_alone_wins_the_pot_uncontested_in_the_other_variants(variant: str) -> None:
    # DESIGN 7 (base game): a hand ends at the showdown or when every other player has folded; no showdown, so
    # Freak of Nature fixes no wild rank ("Nothing wild" would be wrong too).
    table = game(variant, {1: 1_000, 2: 1_000, 3: 1_000}, **STAKES, **DRAWS.get(variant, {}))
    result = _cy_bets_and_the_others_fold(table).result(NAMES)
    assert result is not None
    assert result.headline == "Cy wins uncontested"
    assert result.lines[1:] == ("Pot $3.00 to Cy, uncontested",)
    assert result.wild_rank is None


@pytest.mark.parametrize("variant", ["five-card-draw", "three-legged-race"])
def test_no_live_hand_leaves_the_pot_in_the_middle(variant: str) -> None:
    # Every hand killed (kill cards) or gone: nobody is left alone, the pot stays for the next hand.
    rules = Rules.announce(variant, STAKES)
    settlement = settle(rules=rules, button=2, contributions={1: 100, 2: 100, 3: 100}, hands={},
                        carried_pot_cents=0, legs={}, ranker=lambda hands: ({}, None))
    result = hand_result(rules, settlement, (), NAMES)
    assert result.headline == "No live hand: the pot stays in the middle"
    assert result.lines[1:] == ("Pot $3.00 stays in the middle",)
