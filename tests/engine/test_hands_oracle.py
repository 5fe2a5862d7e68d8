"""The engine against the brute-force oracle (tests/engine/oracle.py): random hands, and every hand class exactly."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.engine.batch import category_counts
from casino.engine.cards import ALL_CARDS, Card, Rank, Suit
from casino.engine.hands import HandOptions, WildSpec, evaluate, strength_function
from tests.engine import oracle

OPTIONS = [
    HandOptions(),
    HandOptions(wild_duplicates_in_flush=False),
    HandOptions(five_of_a_kind="below_straight_flush"),
    HandOptions(five_of_a_kind="below_straight_flush", wild_duplicates_in_flush=False),
]


def plain(card: Card) -> oracle.Plain:
    return (int(card.rank), card.suit.value)


def oracle_value(cards: list[Card], wild: WildSpec, options: HandOptions) -> tuple[int, ...]:
    naturals = tuple(plain(card) for card in cards if not wild.is_wild(card))
    return oracle.best(
        naturals,
        5 - len(naturals),
        options.five_of_a_kind == "highest",
        options.wild_duplicates_in_flush,
    )


@st.composite
def hands_with_wild_cards(draw: st.DrawFn) -> tuple[list[Card], WildSpec]:
    """Five distinct cards of which 0 to 5 are wild, under a wild spec of ranks or of named cards."""
    wild_count = draw(st.integers(0, 5))
    by_ranks = draw(st.booleans())
    if by_ranks:
        wild_ranks = draw(st.sets(st.sampled_from(list(Rank)), min_size=1 if wild_count else 0, max_size=4))
        wild = WildSpec(ranks=frozenset(wild_ranks))
    else:
        wild = WildSpec(cards=frozenset(draw(st.sets(st.sampled_from(ALL_CARDS), min_size=5, max_size=12))))
    wild_pool = [card for card in ALL_CARDS if wild.is_wild(card)]
    natural_pool = [card for card in ALL_CARDS if not wild.is_wild(card)]
    wild_count = min(wild_count, len(wild_pool))
    chosen = (
        draw(st.lists(st.sampled_from(wild_pool), min_size=wild_count, max_size=wild_count, unique=True))
        if wild_count
        else []
    )
    naturals = draw(
        st.lists(st.sampled_from(natural_pool), min_size=5 - wild_count, max_size=5 - wild_count, unique=True)
    )
    cards = list(chosen) + list(naturals)
    return draw(st.permutations(cards)), wild


@settings(max_examples=300, deadline=None)
@given(hands_with_wild_cards(), st.sampled_from(OPTIONS))
def test_evaluate_matches_the_brute_force_oracle(hand: tuple[list[Card], WildSpec], options: HandOptions) -> None:
    cards, wild = hand
    value = evaluate(cards, wild, options)
    assert value.strength == oracle_value(cards, wild, options)
    assert value.category.value == oracle.CATEGORY_NAMES[value.strength[0]]
    # The fast path returns the same strength as one int.
    assert strength_function(wild, options)(*(card.index for card in cards)) == value.score
    # The cards as played are a real reading of the hand: the naturals are kept and the result ranks the same.
    naturals = [card for card in cards if not wild.is_wild(card)]
    assert Counter(value.cards) >= Counter(naturals)
    replayed = oracle.rank_plain(
        [plain(card) for card in value.cards],
        five_highest=options.five_of_a_kind == "highest",
        duplicates_in_flush=options.wild_duplicates_in_flush,
    )
    assert replayed == value.strength


@settings(max_examples=200, deadline=None)
@given(hands_with_wild_cards(), hands_with_wild_cards(), st.sampled_from(OPTIONS))
def test_comparison_agrees_with_the_oracle(
    first: tuple[list[Card], WildSpec], second: tuple[list[Card], WildSpec], options: HandOptions
) -> None:
    a = evaluate(first[0], first[1], options)
    b = evaluate(second[0], second[1], options)
    expected_a = oracle_value(first[0], first[1], options)
    expected_b = oracle_value(second[0], second[1], options)
    assert (a < b) == (expected_a < expected_b)
    assert (a == b) == (expected_a == expected_b)


def _class_representatives(wild_ranks: set[int]) -> list[tuple[tuple[Card, ...], int]]:
    """One hand for each class (natural rank multiset, wild count, suited or not), with how many hands it stands for.

    Every hand of a class has the same value (suits only matter through "all naturals share a suit"), so the
    weighted classes reproduce the count over all 2,598,960 hands exactly.
    """
    natural_ranks = [rank for rank in range(2, 15) if rank not in wild_ranks]
    wild_cards = [card for card in ALL_CARDS if card.rank in wild_ranks]
    classes = []
    for wilds in range(6):
        wild_ways = math.comb(len(wild_cards), wilds)
        for ranks in itertools.combinations_with_replacement(natural_ranks, 5 - wilds):
            counts = Counter(ranks)
            if max(counts.values(), default=0) > 4:
                continue
            sets = math.prod(math.comb(4, count) for count in counts.values())
            distinct = len(counts) == len(ranks)
            suited = 4 if distinct and len(ranks) >= 2 else (sets if len(ranks) <= 1 else 0)
            # A suited representative: all spades. An unsuited one: hearts first, then suits by copy number.
            if suited:
                cards = tuple(Card(Rank(rank), Suit.SPADES) for rank in ranks)
                classes.append((cards + tuple(wild_cards[:wilds]), suited * wild_ways))
            if sets - suited:
                seen: Counter[int] = Counter()
                unsuited = []
                for position, rank in enumerate(ranks):
                    suit = Suit.HEARTS if position == 0 and distinct else Suit("cdhs"[3 - seen[rank]])
                    seen[rank] += 1
                    unsuited.append(Card(Rank(rank), suit))
                classes.append((tuple(unsuited) + tuple(wild_cards[:wilds]), (sets - suited) * wild_ways))
    return classes


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTIONS[:2], ids=["duplicates_in_flush", "no_duplicates_in_flush"])
def test_threes_sixes_nines_wild_counts_match_the_oracle_exactly(options: HandOptions) -> None:
    wild = WildSpec.parse("3 6 9")
    classes = _class_representatives({3, 6, 9})
    assert sum(weight for _, weight in classes) == 2_598_960
    expected: Counter[str] = Counter()
    for cards, weight in classes:
        value = oracle_value(list(cards), wild, options)
        assert evaluate(cards, wild, options).strength == value, cards
        expected[oracle.CATEGORY_NAMES[value[0]]] += weight
    # The batch classifier over all 2,598,960 real hands, and the fast path over them one by one.
    batch = {category.value: count for category, count in category_counts(wild=wild, options=options).items()}
    assert batch == {name: expected[name] for name in batch}
    fast = strength_function(wild, options)
    one_by_one: Counter[str] = Counter()
    for hand in itertools.combinations(range(52), 5):
        one_by_one[oracle.CATEGORY_NAMES[fast(*hand) >> 20]] += 1
    assert one_by_one == expected


def test_pregnant_threes_count_table() -> None:
    """The count table with 3s, 6s and 9s wild (default options), as the oracle derives it above."""
    counts = {category.value: count for category, count in category_counts(wild=WildSpec.parse("3 6 9")).items()}
    assert counts == {
        "five_of_a_kind": 36552,
        "royal_flush": 11684,
        "straight_flush": 17968,
        "four_of_a_kind": 295720,
        "full_house": 21600,
        "flush": 35996,
        "straight": 123276,
        "three_of_a_kind": 817920,
        "two_pair": 51840,
        "one_pair": 930384,
        "high_card": 256020,
    }
