"""Three Legged Race: exactly three cards drawn, legs carried between hands, the pot stays until a player wins."""

from __future__ import annotations

import pytest

from casino.engine.home import errors as e
from casino.engine.home.errors import IllegalAction
from casino.engine.home.game import HomeGame
from casino.engine.home.hand import HomeHand
from tests.engine.home_support import cards, game, stacked_deck

STAKES = {"ante_cents": 100, "small_bet_cents": 200, "big_bet_cents": 400}


def _checks(hand: HomeHand, *seats: int) -> None:
    for seat in seats:
        hand.check(seat)


def test_a_game_to_two_legs_carries_the_pot_until_a_player_wins_their_second_leg() -> None:
    table = game("three-legged-race", {1: 10_000, 2: 10_000, 3: 10_000}, legs_to_win=2, **STAKES)

    # Hand 1: everyone checks; seat 2's three jacks win a leg and the pot stays.
    hand = table.start_hand(button=1, deck=stacked_deck(
        1, {1: "Qs Qd 9c 4c 5c", 2: "Jc Jh 4d 5d 7c", 3: "Tc 9d 4s 5s 7h"}, stock="Js 6d 2c 2d 3d 8d 8c 8h 3s"))
    _checks(hand, 2, 3, 1)
    hand.draw(2, cards("4d 5d 7c"))
    hand.draw(3, cards("4s 5s 7h"))
    hand.draw(1, cards("9c 4c 5c"))
    _checks(hand, 2, 3, 1)
    assert hand.settlement is not None
    assert [(p.amount_cents, p.winners) for p in hand.settlement.pots] == [(300, ())]
    assert table.legs == {1: 0, 2: 1, 3: 0}
    assert table.carried_pot_cents == 300
    assert table.stacks == {1: 9_900, 2: 9_900, 3: 9_900}

    # Hand 2: everyone antes again; seat 2 folds, seat 1's kings beat seat 3's ace high.
    hand = table.start_hand(button=2, deck=stacked_deck(
        2, {1: "Kc Kh 3c 4d 5h", 2: "2h 3h 6h 7d 8s", 3: "Ah Kd 4h 6s 7s"}, stock="2s 9s Ts Ks 9h Jd"))
    assert hand.pot_cents == 600
    hand.bet(3, 200)
    hand.call(1)
    hand.fold(2)
    assert hand.pot_cents == 1_000
    hand.draw(3, cards("4h 6s 7s"))
    hand.draw(1, cards("3c 4d 5h"))
    hand.bet(3, 400)
    hand.call(1)
    assert table.legs == {1: 1, 2: 1, 3: 0}
    assert table.carried_pot_cents == 1_800
    assert table.stacks == {1: 9_200, 2: 9_800, 3: 9_200}
    assert table.game_winners == ()

    # Hand 3: seat 2's three aces win the second leg and the whole pot.
    hand = table.start_hand(button=3, deck=stacked_deck(
        3, {1: "2h 3h 4s 7d 9c", 2: "Ac Ad 5s 8s Qh", 3: "Kh Qc 2c 3s 8d"}, stock="Tc Jh 6c As 4c 5c Td Th 4d"))
    assert hand.pot_cents == 2_100
    _checks(hand, 1, 2, 3)
    hand.draw(1, cards("2h 3h 4s"))
    hand.draw(2, cards("5s 8s Qh"))
    hand.draw(3, cards("2c 3s 8d"))
    hand.bet(1, 400)
    hand.call(2)
    hand.fold(3)
    assert hand.settlement is not None
    assert [(p.amount_cents, p.winners) for p in hand.settlement.pots] == [(2_900, (2,))]
    assert table.legs == {1: 1, 2: 2, 3: 0}
    assert table.carried_pot_cents == 0
    assert table.stacks == {1: 8_700, 2: 12_200, 3: 9_100}
    assert table.game_winners == (2,)
    with pytest.raises(IllegalAction) as refused:
        table.start_hand(button=1, deck=stacked_deck(1, {1: "2h 3h 4s 7d 9c", 2: "Ac Ad 5s 8s Qh"}))
    assert refused.value.code == e.GAME_OVER


def test_the_rule_sheet_example_of_winning_a_leg() -> None:
    # "After the draw, Player A holds Q♠Q♦8♣8♥3♠ (two pair, queens and eights). Player B holds J♣J♥J♠6♦2♣
    # (three jacks). Three of a kind beats two pair, so Player B scores a leg. In a game called at three legs,
    # B needs two more wins to take the pot. The pot stays where it is, and everyone antes again."
    table = game("three-legged-race", {1: 1_000, 2: 1_000}, legs_to_win=3, **STAKES)
    hand = table.start_hand(button=2, deck=stacked_deck(
        2, {1: "Qs Qd 4c 5c 7d", 2: "Jc Jh 4d 5d 7c"}, stock="8c 8h 3s Js 6d 2c"))
    _checks(hand, 1, 2)
    hand.draw(1, cards("4c 5c 7d"))
    hand.draw(2, cards("4d 5d 7c"))
    assert hand.players[1].cards == list(cards("Qs Qd 8c 8h 3s"))
    assert hand.players[2].cards == list(cards("Jc Jh Js 6d 2c"))
    _checks(hand, 1, 2)
    assert table.legs == {1: 0, 2: 1}
    assert table.carried_pot_cents == 200
    hand = table.start_hand(button=1, deck=stacked_deck(1, {1: "Qs Qd 4c 5c 7d", 2: "Jc Jh 4d 5d 7c"}))
    assert hand.pot_cents == 400


def _heads_up(table: HomeGame) -> HomeHand:
    return table.start_hand(button=2, deck=stacked_deck(2, {1: "Qs Qd 4c 5c 7d", 2: "Jc Jh 4d 5d 7c"}))


@pytest.mark.parametrize("discards", ["", "4c 5c", "4c 5c 7d Qd"])
def test_standing_pat_or_discarding_other_than_three_is_refused(discards: str) -> None:
    # "Every player still in the hand shall discard exactly three cards, no more and no fewer ... No player may
    # stand pat."
    hand = _heads_up(game("three-legged-race", {1: 1_000, 2: 1_000}, **STAKES))
    _checks(hand, 1, 2)
    before = list(hand.players[1].cards)
    with pytest.raises(IllegalAction) as refused:
        hand.draw(1, cards(discards))
    assert refused.value.code == e.WRONG_DISCARD_COUNT
    assert hand.players[1].cards == before
    assert hand.actor == 1


def test_a_player_left_alone_scores_a_leg_unless_announced_otherwise() -> None:
    table = game("three-legged-race", {1: 1_000, 2: 1_000}, **STAKES)
    hand = _heads_up(table)
    hand.bet(1, 200)
    hand.fold(2)
    assert table.legs == {1: 1, 2: 0}
    assert table.carried_pot_cents == 200
    assert table.stacks == {1: 900, 2: 900}

    table = game("three-legged-race", {1: 1_000, 2: 1_000}, uncontested_scores_leg=False, **STAKES)
    hand = _heads_up(table)
    hand.bet(1, 200)
    hand.fold(2)
    assert table.legs == {1: 0, 2: 0}
    assert table.carried_pot_cents == 200


def _tie(table: HomeGame) -> HomeHand:
    hand = table.start_hand(button=3, deck=stacked_deck(
        3, {1: "Ah Kh 2c 3c 4d", 2: "As Ks 2d 3d 5c", 3: "7h 7d 8c 8d 2h"}, stock="Qd Jd 9s Qc Jc 9h"))
    hand.check(1)
    hand.check(2)
    hand.fold(3)
    hand.draw(1, cards("2c 3c 4d"))
    hand.draw(2, cards("2d 3d 5c"))
    _checks(hand, 1, 2)
    return hand


def test_a_tie_scores_a_leg_each_by_default_and_none_when_announced() -> None:
    table = game("three-legged-race", {1: 1_000, 2: 1_000, 3: 1_000}, **{**STAKES, "ante_cents": 75})
    _tie(table)
    assert table.legs == {1: 1, 2: 1, 3: 0}
    assert table.carried_pot_cents == 225

    table = game("three-legged-race", {1: 1_000, 2: 1_000, 3: 1_000}, tie="nobody_scores",
                 **{**STAKES, "ante_cents": 75})
    _tie(table)
    assert table.legs == {1: 0, 2: 0, 3: 0}
    assert table.carried_pot_cents == 225


def test_two_players_reaching_the_target_together_split_the_pot_with_the_odd_chip() -> None:
    table = game("three-legged-race", {1: 1_000, 2: 1_000, 3: 1_000}, legs_to_win=1,
                 **{**STAKES, "ante_cents": 75})
    hand = _tie(table)
    assert hand.settlement is not None
    assert [(p.amount_cents, p.winners) for p in hand.settlement.pots] == [(225, (1, 2))]
    assert table.game_winners == (1, 2)
    assert table.stacks == {1: 1_038, 2: 1_037, 3: 925}


def test_a_player_who_leaves_loses_their_legs_and_their_chips_stay_in_the_pot() -> None:
    table = game("three-legged-race", {1: 1_000, 2: 1_000, 3: 1_000}, legs_to_win=3, **STAKES)
    hand = table.start_hand(button=3, deck=stacked_deck(
        3, {1: "Ah Kh 2c 3c 4d", 2: "As Ks 2d 3d 5c", 3: "7h 7d 8c 8d 2h"}))
    hand.check(1)
    hand.bet(2, 200)
    hand.fold(3)
    hand.fold(1)
    assert table.legs == {1: 0, 2: 1, 3: 0}
    hand = table.start_hand(button=1, deck=stacked_deck(
        1, {1: "Ah Kh 2c 3c 4d", 2: "As Ks 2d 3d 5c", 3: "7h 7d 8c 8d 2h"}))
    hand.bet(2, 200)
    table.leave(2)  # out of turn: seat 2 gets up and goes
    assert table.legs[2] == 0
    assert 2 not in hand.live
    assert hand.pot_cents == 300 + 300 + 200
    # The departed player's bet stays in the pot and still has to be called.
    hand.call(3)
    hand.call(1)
    hand.draw(3, cards("8c 8d 2h"))  # 2s 3h 3s: sevens and threes
    hand.draw(1, cards("2c 3c 4d"))  # 4c 4h 4s: three fours
    _checks(hand, 3, 1)
    assert table.legs == {1: 1, 2: 0, 3: 0}
    assert table.carried_pot_cents == 1_200
    assert table.stacks == {1: 600, 2: 600, 3: 600}
    hand = table.start_hand(button=3, deck=stacked_deck(3, {1: "Ah Kh 2c 3c 4d", 3: "7h 7d 8c 8d 2h"}))
    assert hand.seats == [1, 3]


def test_at_most_six_players() -> None:
    with pytest.raises(IllegalAction) as refused:
        game("three-legged-race", {seat: 1_000 for seat in range(1, 8)}, **STAKES)
    assert refused.value.code == e.TOO_MANY_PLAYERS


def test_a_named_wild_rank_counts_at_the_showdown() -> None:
    table = game("three-legged-race", {1: 1_000, 2: 1_000}, wild_ranks=["2"], **STAKES)
    hand = table.start_hand(button=2, deck=stacked_deck(
        2, {1: "Kc Kd 4c 5c 7d", 2: "Ac Ah 4d 5d 7c"}, stock="2s 9h Th 3s 8h Jh"))
    _checks(hand, 1, 2)
    hand.draw(1, cards("4c 5c 7d"))  # Kc Kd 2s 9h Th: three kings with the wild deuce
    hand.draw(2, cards("4d 5d 7c"))  # Ac Ah 3s 8h Jh: a pair of aces
    _checks(hand, 1, 2)
    assert table.legs == {1: 1, 2: 0}
