"""Exhaustive counts over all 2,598,960 natural hands, and the fast path, rich path and batch classifier agreeing."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np
import pytest

from casino.engine.batch import HAND_COUNT, all_hands, batch_strengths, category_counts
from casino.engine.cards import ALL_CARDS, Card
from casino.engine.hands import HandCategory, HandOptions, WildSpec, evaluate, hand_strength, strength_function
from casino.engine.ranking import CATEGORY_BY_SLOT
from tests.engine import oracle

NATURAL_COUNTS = {
    HandCategory.FIVE_OF_A_KIND: 0,
    HandCategory.ROYAL_FLUSH: 4,
    HandCategory.STRAIGHT_FLUSH: 36,
    HandCategory.FOUR_OF_A_KIND: 624,
    HandCategory.FULL_HOUSE: 3_744,
    HandCategory.FLUSH: 5_108,
    HandCategory.STRAIGHT: 10_200,
    HandCategory.THREE_OF_A_KIND: 54_912,
    HandCategory.TWO_PAIR: 123_552,
    HandCategory.ONE_PAIR: 1_098_240,
    HandCategory.HIGH_CARD: 1_302_540,
}


def test_all_hands_lists_every_five_card_hand_once() -> None:
    hands = all_hands()
    assert hands.shape == (HAND_COUNT, 5)
    assert np.all(np.diff(hands.astype(np.int16), axis=1) > 0)  # strictly increasing: distinct cards, one order
    assert len(np.unique(hands.astype(np.int64) @ (52 ** np.arange(5)))) == HAND_COUNT


def test_batch_classifier_counts_every_natural_hand() -> None:
    assert category_counts() == NATURAL_COUNTS


@pytest.mark.slow
def test_fast_path_counts_every_natural_hand_and_agrees_with_the_batch() -> None:
    strengths = [hand_strength(*hand) for hand in itertools.combinations(range(52), 5)]
    counts = Counter(CATEGORY_BY_SLOT[strength >> 20] for strength in strengths)
    assert {category: counts[category] for category in HandCategory} == NATURAL_COUNTS
    assert np.array_equal(np.array(strengths, dtype=np.int64), batch_strengths(all_hands()))


def test_natural_hands_have_7462_distinct_values() -> None:
    assert len(np.unique(batch_strengths(all_hands()))) == 7462


@pytest.mark.parametrize("wild", ["3 6 9", "2", "Js Jh", "K"])
def test_fast_path_rich_path_and_batch_agree_on_random_hands(wild: str) -> None:
    rng = random.Random(20261129)
    spec = WildSpec.parse(wild)
    for options in (HandOptions(), HandOptions(five_of_a_kind="below_straight_flush", wild_duplicates_in_flush=False)):
        hands = [rng.sample(ALL_CARDS, 5) for _ in range(3000)]
        fast = strength_function(spec, options)
        rich = [evaluate(hand, spec, options).score for hand in hands]
        assert rich == [fast(*(card.index for card in hand)) for hand in hands]
        indices = np.array([[card.index for card in hand] for hand in hands], dtype=np.uint8)
        assert batch_strengths(indices, spec, options).tolist() == rich


def test_every_natural_hand_class_matches_the_oracle() -> None:
    """Every rank multiset, suited where possible, evaluated richly and by the oracle."""
    for ranks in itertools.combinations_with_replacement(range(2, 15), 5):
        counts = Counter(ranks)
        if max(counts.values()) > 4:
            continue
        seen: Counter[int] = Counter()
        cards = []
        for position, rank in enumerate(ranks):
            suit = "h" if position == 0 and len(counts) == 5 else "cdhs"[3 - seen[rank]]
            seen[rank] += 1
            cards.append(Card.parse(f"{rank if rank < 10 else 'TJQKA'[rank - 10]}{suit}"))
        variants = [cards]
        if len(counts) == 5:
            variants.append([Card.parse(f"{card.rank.code}s") for card in cards])
        for hand in variants:
            expected = oracle.best(tuple((int(card.rank), card.suit.value) for card in hand), 0)
            assert evaluate(hand).strength == expected, hand


def test_batch_rejects_rows_that_are_not_five_distinct_cards() -> None:
    with pytest.raises(ValueError, match="five distinct cards"):
        batch_strengths(np.array([[0, 0, 1, 2, 3]], dtype=np.uint8))
