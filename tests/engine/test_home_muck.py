"""A manual hand's muck at the showdown: a live seat that has not shown concedes, out of the hand like a fold."""

from __future__ import annotations

import pytest

from casino.engine.cards import Rank
from casino.engine.home import errors as e
from casino.engine.home.action_words import action_words
from casino.engine.home.awaiting import AwaitKind
from casino.engine.home.game import HomeGame
from casino.engine.home.hand import HomeHand, Phase
from casino.engine.home.record import GameRecord, export_record
from casino.engine.home.replay import apply_action, replay
from tests.engine.home_support import cards, game
from tests.engine.test_home_manual import STAKES, _refused, _to_showdown


def _three(variant: str = "five-card-draw", **options: object) -> tuple[HomeGame, HomeHand]:
    table = game(variant, {1: 5_000, 2: 5_000, 3: 5_000}, **STAKES, **options)
    draws = {1: 3, 2: 3, 3: 3} if variant == "three-legged-race" else {1: 1, 2: 2, 3: 0}
    return table, _to_showdown(table, 3, draws)


def test_a_muck_is_refused_outside_a_manual_showdown_and_after_a_show_and_changes_nothing() -> None:
    table = game("five-card-draw", {1: 5_000, 2: 5_000, 3: 5_000}, **STAKES)
    betting = table.start_hand(button=3, manual=True)
    betting.close_deal()
    _refused(betting, lambda: betting.concede(1), e.WRONG_PHASE)
    dealt = game("five-card-draw", {1: 5_000, 2: 5_000}, **STAKES).start_hand(button=2)
    _refused(dealt, lambda: dealt.concede(1), e.CARDS_DEALT_BY_SYSTEM)
    _, hand = _three()
    hand.show(1, cards("As Ad Kc Kd 2h"))
    _refused(hand, lambda: hand.concede(1), e.ALREADY_SHOWN)
    _refused(hand, lambda: hand.concede(7), e.NOT_IN_HAND)
    hand.concede(2)
    _refused(hand, lambda: hand.concede(2), e.NOT_IN_HAND)


def test_the_last_live_seat_never_mucks_it_wins_unshown_as_after_folds() -> None:
    table, hand = _three()
    hand.concede(1)
    assert hand.awaiting.kind is AwaitKind.SHOW
    assert hand.awaiting.seats == (2, 3)
    hand.concede(3)
    assert hand.settled
    _refused(hand, lambda: hand.concede(2), e.WRONG_PHASE)
    result = hand.result({1: "Ann", 2: "Bob", 3: "Cy"})
    assert result is not None
    assert result.headline == "Bob wins uncontested"
    assert result.lines[2:] == ("Ann mucked: conceded without showing", "Cy mucked: conceded without showing")
    assert table.stacks == {1: 4_900, 2: 5_200, 3: 4_900}
    assert hand.actions[-2:] == ["1 muck", "3 muck"]


def test_a_muck_loses_to_the_hand_shown() -> None:
    table, hand = _three()
    hand.show(3, cards("2c 3d 5h 7s 9c"))
    hand.concede(1)
    hand.concede(2)
    assert hand.settlement is not None
    assert hand.settlement.pots[0].winners == (3,)
    assert table.stacks == {1: 4_900, 2: 4_900, 3: 5_200}


@pytest.mark.parametrize("mucks_first", [True, False])
def test_freak_of_nature_fixes_the_wild_rank_from_the_hands_shown_not_the_mucked_one(mucks_first: bool) -> None:
    # The rule sheet's example: A's two pair of fives and nines against B's three queens makes fives wild; C's
    # mucked hand is not among the hands in play at the showdown, whenever it is mucked.
    _, hand = _three("freak-of-nature")
    if mucks_first:
        hand.concede(3)
    hand.show(1, cards("5h 5d 9c 9s Kh"))
    hand.show(2, cards("Qs Qd Qc 4h 7d"))
    if not mucks_first:
        hand.concede(3)
    assert hand.settlement is not None
    assert hand.settlement.wild_rank is Rank.FIVE
    assert set(hand.settlement.values) == {1, 2}
    assert hand.result().headline == "Fives wild: four nines beat three queens"  # type: ignore[union-attr]


def test_a_muck_gives_up_the_main_and_side_pots_it_was_in() -> None:
    table = game("five-card-draw", {1: 300, 2: 5_000, 3: 5_000}, **STAKES)
    hand = table.start_hand(button=3, manual=True)
    hand.close_deal()
    hand.all_in(1)  # the ante leaves 200: all in for the main pot
    hand.raise_to(2, 400)
    hand.call(3)
    for seat, count in ((1, 1), (2, 1), (3, 1)):
        hand.draw_unseen(seat, count)
    hand.check(2)
    hand.check(3)
    assert hand.phase is Phase.SHOWDOWN
    hand.concede(2)  # the best hand, perhaps: it concedes the main pot to seat 1 and the side pot to seat 3
    hand.show(1, cards("As Ad Kc Kd 2h"))
    hand.show(3, cards("Qs Qd 3c 4d 5h"))
    assert hand.settlement is not None
    assert [(pot.amount_cents, pot.winners) for pot in hand.settlement.pots] == [(900, (1,)), (400, (3,))]
    assert table.stacks == {1: 900, 2: 4_500, 3: 4_900}


@pytest.mark.parametrize(("scores", "legs"), [(True, {1: 1, 2: 0, 3: 0}), (False, {1: 0, 2: 0, 3: 0})])
def test_three_legged_race_a_player_left_alone_by_mucks_scores_a_leg_only_as_announced(
    scores: bool, legs: dict[int, int]
) -> None:
    table, hand = _three("three-legged-race", legs_to_win=3, uncontested_scores_leg=scores)
    hand.show(1, cards("Qs Qd 8c 8h 3s"))
    hand.concede(2)
    hand.concede(3)
    assert table.legs == legs
    assert table.carried_pot_cents == 300  # nobody has the three legs called: the pot stays


def test_three_legged_race_the_best_hand_shown_scores_the_leg_past_a_muck() -> None:
    table, hand = _three("three-legged-race", legs_to_win=3)
    hand.concede(1)  # it may have held the best hand: a muck takes no part in the leg
    hand.show(2, cards("Qs Qd 8c 8h 3s"))
    hand.show(3, cards("Jc Jh Js 6d 2c"))
    assert table.legs == {1: 0, 2: 0, 3: 1}


def test_forced_play_refuses_a_muck_every_hand_is_shown() -> None:
    _, hand = _three("three-legged-race", legs_to_win=3, forced_play=True)
    _refused(hand, lambda: hand.concede(1), e.MUCK_NOT_ALLOWED)


def test_a_muck_exports_replays_and_reads_in_words() -> None:
    table, hand = _three()
    hand.show(1, cards("As Ad Kc Kd 2h"))
    hand.concede(2)
    hand.show(3, cards("Qs Qd 3c 4d 5h"))
    record = export_record(table, {1: "Ann", 2: "Bob", 3: "Cy"})
    assert record["hands"][0]["actions"][-3:] == ["1 show As Ad Kc Kd 2h", "2 muck", "3 show Qs Qd 3c 4d 5h"]
    result = replay(GameRecord.from_dict(record))
    assert result["hands"][0]["pots"] == [{"amount_cents": 300, "winners": [1]}]
    assert result["stacks"] == {"1": 5_200, "2": 4_900, "3": 4_900}
    assert action_words("2 muck", {2: "Seat 2 · Bob"}) == "Seat 2 · Bob mucks (concedes, hand not shown)"


def test_a_muck_line_with_arguments_or_in_a_dealt_hand_is_refused_naming_why() -> None:
    _, hand = _three()
    with pytest.raises(ValueError, match="muck"):
        apply_action(hand, "2 muck As")
    dealt = game("five-card-draw", {1: 5_000, 2: 5_000}, **STAKES).start_hand(button=2)
    for card in cards("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc"):
        dealt.deal_card(card)
    _refused(dealt, lambda: apply_action(dealt, "1 muck"), e.CARDS_DEALT_BY_SYSTEM)
