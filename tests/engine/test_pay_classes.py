"""Pay classes: which paytable hands a five-card hand can make. DESIGN 6: 'A hand with wild cards matches a line
when some choice of substitutes makes that hand'. Checked against the engine's evaluator and a brute force."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from casino.engine.cards import ALL_CARDS, Card, Rank
from casino.engine.hands import HandCategory, WildSpec, evaluate
from casino.engine.pay_classes import HAND_CODES, PayClass, pay_class
from casino.engine.paytable import PaytableLineSpec, PaytableSpec

CATEGORY_ORDER = [category.value for category in HandCategory]  # high to low, five of a kind first


def class_of(cards: tuple[Card, ...], wild_ranks: frozenset[Rank] = frozenset()) -> PayClass:
    """The pay class as paytable matching computes it."""
    spec = PaytableSpec("t", "for_1", (PaytableLineSpec("flush", Fraction(1)),), wild_ranks)
    return spec.pay_class(cards)


def best_category(klass: PayClass) -> str:
    categories = [code for code in klass.codes if code in CATEGORY_ORDER]
    return min(categories, key=CATEGORY_ORDER.index)


def test_natural_hands_make_exactly_the_category_the_evaluator_gives() -> None:
    rng = random.Random(2026)
    for _ in range(4000):
        cards = tuple(rng.sample(ALL_CARDS, 5))
        value = evaluate(cards)
        klass = class_of(cards)
        assert klass.codes - {"natural_royal_flush"} == {value.category.value}, cards
        if value.category is HandCategory.ONE_PAIR:
            assert klass.pair_rank == value.cards[0].rank
        if value.category is HandCategory.FOUR_OF_A_KIND:
            assert klass.quad_ranks == 1 << value.cards[0].rank


@pytest.mark.parametrize("wild_ranks", [frozenset({Rank.TWO}), frozenset({Rank.THREE, Rank.SIX, Rank.NINE})])
def test_the_best_hand_a_wild_hand_can_make_is_the_one_the_evaluator_gives(wild_ranks: frozenset[Rank]) -> None:
    rng = random.Random(7)
    wild = WildSpec(ranks=wild_ranks)
    wild_cards = [card for card in ALL_CARDS if card.rank in wild_ranks]
    for _ in range(3000):
        count = rng.choice([1, 1, 1, 2, 2, 3, 4])
        chosen = rng.sample(wild_cards, min(count, len(wild_cards)))
        others = [card for card in ALL_CARDS if card.rank not in wild_ranks]
        cards = tuple(chosen + rng.sample(others, 5 - len(chosen)))
        value = evaluate(cards, wild)
        klass = class_of(cards, wild_ranks)
        assert best_category(klass) == value.category.value, cards
        if value.category is HandCategory.ONE_PAIR:
            assert klass.pair_rank == value.cards[0].rank


def _multiset_class(cards: list[tuple[int, str]]) -> tuple[str, int]:
    """Category of five (rank, suit) cards, duplicates allowed, and the pair/quad rank (brute-force oracle)."""
    counts = Counter(rank for rank, _ in cards)
    shape = sorted(counts.values(), reverse=True)
    ranks = set(counts)
    flush = len({suit for _, suit in cards}) == 1
    straight = len(ranks) == 5 and (max(ranks) - min(ranks) == 4 or ranks == {14, 2, 3, 4, 5})
    top = max(counts, key=lambda rank: (counts[rank], rank))
    if shape[0] == 5:
        return "five_of_a_kind", top
    if straight and flush:
        return ("royal_flush" if min(ranks) == 10 else "straight_flush"), 0
    if shape[0] == 4:
        return "four_of_a_kind", top
    if shape[:2] == [3, 2]:
        return "full_house", 0
    if flush:
        return "flush", 0
    if straight:
        return "straight", 0
    if shape[0] == 3:
        return "three_of_a_kind", 0
    if shape[:2] == [2, 2]:
        return "two_pair", 0
    if shape[0] == 2:
        return "one_pair", top
    return "high_card", 0


def brute_force_class(cards: tuple[Card, ...], wild_ranks: frozenset[Rank]) -> PayClass:
    naturals = [(int(c.rank), c.suit.value) for c in cards if c.rank not in wild_ranks]
    wild_count = 5 - len(naturals)
    codes: set[str] = set()
    pair_rank = quads = 0
    # A substitute's suit matters only as "the naturals' suit" or "another suit".
    suits = sorted({suit for _, suit in naturals} | {"x"})
    for substitutes in itertools.product(itertools.product(range(2, 15), suits), repeat=wild_count):
        code, rank = _multiset_class(naturals + list(substitutes))
        codes.add(code)
        if code == "one_pair":
            pair_rank = max(pair_rank, rank)
        if code == "four_of_a_kind":
            quads |= 1 << rank
    if wild_count >= 4:
        codes.add("four_wild")
    if "royal_flush" in codes:
        codes.add("wild_royal_flush" if wild_count else "natural_royal_flush")
    return PayClass(frozenset(codes), pair_rank, quads)


@pytest.mark.parametrize("wild_count", [1, 2, 3])
def test_a_wild_hand_can_make_exactly_what_some_choice_of_substitutes_makes(wild_count: int) -> None:
    rng = random.Random(wild_count)
    wild_ranks = frozenset({Rank.TWO})
    deuces = [card for card in ALL_CARDS if card.rank == Rank.TWO]
    others = [card for card in ALL_CARDS if card.rank != Rank.TWO]
    for _ in range({1: 400, 2: 80, 3: 8}[wild_count]):
        if rng.random() < 0.5:
            # Bias towards suited, connected or paired naturals, where the interesting cases live.
            suit = rng.choice("cdhs")
            pool = [card for card in others if card.suit.value == suit and card.rank >= 9] or others
            naturals = rng.sample(pool, 5 - wild_count)
        else:
            naturals = rng.sample(others, 5 - wild_count)
        cards = tuple(rng.sample(deuces, wild_count) + naturals)
        assert class_of(cards, wild_ranks) == brute_force_class(cards, wild_ranks), cards


def test_every_code_is_known_and_orders_strongest_first() -> None:
    assert set(CATEGORY_ORDER) <= set(HAND_CODES)
    assert [code for code in HAND_CODES if code in CATEGORY_ORDER] == CATEGORY_ORDER


def test_four_and_five_wild_cards_make_any_four_of_a_kind() -> None:
    klass = pay_class([12], wild_count=4, suited=True)
    assert {"four_wild", "five_of_a_kind", "wild_royal_flush"} <= klass.codes
    assert klass.quad_ranks == sum(1 << rank for rank in range(2, 15))
    assert pay_class([], wild_count=5, suited=True).pair_rank == 14


def test_a_hand_is_five_cards() -> None:
    with pytest.raises(ValueError, match="five cards"):
        pay_class([2, 3], wild_count=1, suited=False)
