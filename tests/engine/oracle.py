"""A brute-force hand oracle, independent of the engine: substitute every card for each wild card, take the best.

It knows only the rulings (DESIGN 4) and shares no code with casino/engine: each hand with duplicates allowed is
ranked directly from its ranks and suits, and the best over all substitutions wins.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Sequence

RANKS = range(2, 15)
SUITS = "cdhs"
# Same slot numbering as the engine's strength tuples, so values compare directly (five of a kind: 11 or 8).
CATEGORY_NAMES = {
    0: "high_card",
    1: "one_pair",
    2: "two_pair",
    3: "three_of_a_kind",
    4: "straight",
    5: "flush",
    6: "full_house",
    7: "four_of_a_kind",
    8: "five_of_a_kind",
    9: "straight_flush",
    10: "royal_flush",
    11: "five_of_a_kind",
}

Plain = tuple[int, str]  # (rank 2-14, suit letter)


def rank_plain(cards: Sequence[Plain], *, five_highest: bool, duplicates_in_flush: bool) -> tuple[int, ...] | None:
    """Rank five concrete cards (a card may repeat, as a wild card may duplicate one); None if not allowed."""
    ranks = sorted((rank for rank, _ in cards), reverse=True)
    counts = Counter(ranks)
    if len(counts) == 1:
        return (11 if five_highest else 8, ranks[0])
    one_suit = len({suit for _, suit in cards}) == 1
    if one_suit and not duplicates_in_flush and len(set(cards)) < 5:
        return None  # this table forbids a flush that repeats a card; the same ranks off-suit are tried anyway
    high = None
    if len(counts) == 5:
        if ranks[0] - ranks[4] == 4:
            high = ranks[0]
        elif ranks == [14, 5, 4, 3, 2]:
            high = 5
    if high is not None and one_suit:
        return (10 if high == 14 else 9, high)
    groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    shape = [count for _, count in groups]
    order = tuple(rank for rank, _ in groups)
    if shape == [4, 1]:
        return (7, *order)
    if shape == [3, 2]:
        return (6, *order)
    if one_suit:
        return (5, *ranks)
    if high is not None:
        return (4, high)
    slot = {(3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1, (1, 1, 1, 1, 1): 0}[tuple(shape)]
    return (slot, *order)


def best(
    naturals: tuple[Plain, ...], wilds: int, five_highest: bool = True, duplicates: bool = True
) -> tuple[int, ...]:
    """The best value over every substitution of the wild cards (suits relabelled first: values ignore suit names)."""
    relabel: dict[str, str] = {}
    for _, suit in naturals:
        if suit not in relabel:
            relabel[suit] = SUITS[len(relabel)]
    canonical = tuple(sorted((rank, relabel[suit]) for rank, suit in naturals))
    return _best(canonical, wilds, five_highest, duplicates)


@functools.cache
def _best(naturals: tuple[Plain, ...], wilds: int, five_highest: bool, duplicates: bool) -> tuple[int, ...]:
    """The best value over every substitution of the wild cards.

    Suits only matter through "all five share a suit", so each wild tries every rank in the first natural card's
    suit (spades if none) and in one other suit; that covers every distinct outcome of trying all 52 cards.
    """
    flush_suit = naturals[0][1] if naturals else "s"
    other_suit = "h" if flush_suit != "h" else "d"
    choices = [(rank, suit) for rank in RANKS for suit in (flush_suit, other_suit)]
    results = []
    for substitutes in itertools.combinations_with_replacement(choices, wilds):
        value = rank_plain([*naturals, *substitutes], five_highest=five_highest, duplicates_in_flush=duplicates)
        if value is not None:
            results.append(value)
    return max(results)
