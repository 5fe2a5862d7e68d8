"""Freak of Nature: the sliding wild rank is fixed at the showdown from the hands still in."""

from __future__ import annotations

from casino.engine.cards import Rank
from casino.engine.home.hand import HomeHand
from casino.engine.home.settle import Settlement
from tests.engine.home_support import showdown_hand

STAKES = {"ante_cents": 100, "small_bet_cents": 200, "big_bet_cents": 400}


def _showdown(hands: dict[int, str], *, fold: tuple[int, ...] = (), **options: object) -> tuple[HomeHand, Settlement]:
    """Everyone checks and stands pat; the seats in `fold` fold at their first turn."""
    hand = showdown_hand("freak-of-nature", hands, fold=fold, **STAKES, **options)
    assert hand.settlement is not None
    return hand, hand.settlement


def test_fives_become_wild_when_no_showdown_hand_holds_a_six() -> None:
    # "A holds 5♥5♦9♣9♠K♥. B holds Q♠Q♦Q♣4♥7♦. Neither player holds a six, so fives become wild. A's two fives
    # join the pair of nines to make four nines with a king. B has no five and plays three queens. A wins."
    _, result = _showdown({1: "5h 5d 9c 9s Kh", 2: "Qs Qd Qc 4h 7d"})
    assert result.wild_rank is Rank.FIVE
    assert result.descriptions == {1: "Four nines", 2: "Three queens"}
    assert [(p.amount_cents, p.winners) for p in result.pots] == [(200, (1,))]


def test_a_six_in_any_showdown_hand_makes_sixes_wild_for_everyone() -> None:
    # "Had B held a six in place of the 7♦, sixes would have been wild instead. A would have had only two pair,
    # and B would have had four queens."
    _, result = _showdown({1: "5h 5d 9c 9s Kh", 2: "Qs Qd Qc 4h 6d"})
    assert result.wild_rank is Rank.SIX
    assert result.descriptions == {1: "Nines and fives", 2: "Four queens"}
    assert result.pots[0].winners == (2,)


def test_a_folded_hand_does_not_fix_the_wild_rank() -> None:
    _, result = _showdown({1: "5h 5d 9c 9s Kh", 2: "Qs Qd Qc 4h 7d", 3: "6c 6h 2d 3d 8c"}, fold=(3,))
    assert result.wild_rank is Rank.FIVE
    assert result.pots[0].winners == (1,)


def test_when_no_rank_qualifies_nothing_is_wild_by_default() -> None:
    _, result = _showdown({1: "Ac Kc Qd 9c 8d", 2: "Kh Ks Th 8h 7s"})
    assert result.wild_rank is None
    assert result.pots[0].winners == (2,)  # a pair of kings beats ace high


def test_when_no_rank_qualifies_aces_are_wild_if_announced() -> None:
    _, result = _showdown({1: "Ac Kc Qd 9c 8d", 2: "Kh Ks Th 8h 7s"}, freak_bottom="aces")
    assert result.wild_rank is Rank.ACE
    assert result.pots[0].winners == (1,)  # the wild ace pairs the king: kings with queen beat kings with ten


def test_a_hand_won_by_folds_needs_no_wild_rank() -> None:
    _, result = _showdown({1: "5h 5d 9c 9s Kh", 2: "Qs Qd Qc 4h 7d"}, fold=(1,))
    assert result.wild_rank is None
    assert result.pots[0].winners == (2,)
