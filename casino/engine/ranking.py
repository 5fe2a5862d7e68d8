"""Hand categories, the integer strength encoding, and the best hand a set of natural ranks plus wild cards makes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import StrEnum


class HandCategory(StrEnum):
    """Five-card hand categories with their stable stored codes (DESIGN 4), high to low."""

    FIVE_OF_A_KIND = "five_of_a_kind"
    ROYAL_FLUSH = "royal_flush"
    STRAIGHT_FLUSH = "straight_flush"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FULL_HOUSE = "full_house"
    FLUSH = "flush"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three_of_a_kind"
    TWO_PAIR = "two_pair"
    ONE_PAIR = "one_pair"
    HIGH_CARD = "high_card"


# Category slots of the integer strength (bits 20 and up). Five of a kind has two slots so that one encoding
# serves both announced positions: 11 (highest, the default) or 8 (below straight flush, above four of a kind).
HIGH_CARD = 0
ONE_PAIR = 1
TWO_PAIR = 2
THREE_OF_A_KIND = 3
STRAIGHT = 4
FLUSH = 5
FULL_HOUSE = 6
FOUR_OF_A_KIND = 7
FIVE_OF_A_KIND_LOW = 8
STRAIGHT_FLUSH = 9
ROYAL_FLUSH = 10
FIVE_OF_A_KIND_HIGH = 11

CATEGORY_BY_SLOT: dict[int, HandCategory] = {
    HIGH_CARD: HandCategory.HIGH_CARD,
    ONE_PAIR: HandCategory.ONE_PAIR,
    TWO_PAIR: HandCategory.TWO_PAIR,
    THREE_OF_A_KIND: HandCategory.THREE_OF_A_KIND,
    STRAIGHT: HandCategory.STRAIGHT,
    FLUSH: HandCategory.FLUSH,
    FULL_HOUSE: HandCategory.FULL_HOUSE,
    FOUR_OF_A_KIND: HandCategory.FOUR_OF_A_KIND,
    FIVE_OF_A_KIND_LOW: HandCategory.FIVE_OF_A_KIND,
    STRAIGHT_FLUSH: HandCategory.STRAIGHT_FLUSH,
    ROYAL_FLUSH: HandCategory.ROYAL_FLUSH,
    FIVE_OF_A_KIND_HIGH: HandCategory.FIVE_OF_A_KIND,
}

CATEGORY_SHIFT = 20
ACE = 14

# Straight windows, best first; the wheel A-2-3-4-5 is the lowest and plays five high.
_STRAIGHTS: tuple[tuple[int, frozenset[int]], ...] = tuple(
    (high, frozenset(range(high - 4, high + 1)) if high > 5 else frozenset({14, 2, 3, 4, 5}))
    for high in range(14, 4, -1)
)
# Group shapes (largest group first) of the rank-pattern categories.
_PATTERN_SLOTS: dict[tuple[int, ...], int] = {
    (4, 1): FOUR_OF_A_KIND,
    (3, 2): FULL_HOUSE,
    (3, 1, 1): THREE_OF_A_KIND,
    (2, 2, 1): TWO_PAIR,
    (2, 1, 1, 1): ONE_PAIR,
    (1, 1, 1, 1, 1): HIGH_CARD,
}


def encode(slot: int, ranks: Sequence[int]) -> int:
    """Pack a category slot and up to five tie-break ranks (most significant first) into one comparable int."""
    value = slot << CATEGORY_SHIFT
    shift = 16
    for rank in ranks:
        value |= rank << shift
        shift -= 4
    return value


def decode(strength: int) -> tuple[int, tuple[int, ...]]:
    """The category slot and the tie-break ranks of an encoded strength."""
    ranks = tuple(r for r in ((strength >> shift) & 15 for shift in (16, 12, 8, 4, 0)) if r)
    return strength >> CATEGORY_SHIFT, ranks


def straight_high(ranks: Sequence[int]) -> int | None:
    """The highest card of the best straight that these distinct ranks fit into (wilds fill the gaps)."""
    present = set(ranks)
    if len(present) != len(ranks):
        return None
    for high, window in _STRAIGHTS:
        if present <= window:
            return high
    return None


def best_strength(
    naturals: Sequence[int],
    wilds: int,
    *,
    suited: bool,
    five_of_a_kind_highest: bool = True,
    wild_duplicates_in_flush: bool = True,
) -> int:
    """Strength of the best hand from these natural ranks plus `wilds` wild cards (5 cards in all).

    `suited` says every natural card shares one suit (trivially true for zero or one natural). A wild card may
    stand for any card, including one already in the hand (DESIGN 4.3), so the best rank pattern puts every wild
    on the largest group (ties: the higher rank); straights and flushes are checked separately.
    """
    if len(naturals) + wilds != 5:
        raise ValueError("a hand has five cards")
    five_slot = FIVE_OF_A_KIND_HIGH if five_of_a_kind_highest else FIVE_OF_A_KIND_LOW
    groups = sorted(Counter(naturals).items(), key=lambda item: (item[1], item[0]), reverse=True)
    if not groups:
        best = encode(five_slot, (ACE,))  # five wild cards are five aces (DESIGN 4.4), or a royal flush if higher
    elif groups[0][1] + wilds == 5:
        best = encode(five_slot, (groups[0][0],))
    else:
        shape = (groups[0][1] + wilds, *(count for _, count in groups[1:]))
        best = encode(_PATTERN_SLOTS[shape], [rank for rank, _ in groups])
    high = straight_high(naturals)
    if high is not None:
        best = max(best, encode(STRAIGHT, (high,)))
        if suited:
            best = max(best, encode(ROYAL_FLUSH if high == ACE else STRAIGHT_FLUSH, (high,)))
    if suited:
        best = max(best, encode(FLUSH, _flush_ranks(naturals, wilds, wild_duplicates_in_flush)))
    return best


def _flush_ranks(naturals: Sequence[int], wilds: int, duplicates: bool) -> list[int]:
    # On: A♠ W 8♠ 5♠ 2♠ plays as A-A-8-5-2 (DESIGN 4.3); off: each wild takes the best rank not already held.
    fill = [ACE] * wilds if duplicates else [rank for rank in range(ACE, 1, -1) if rank not in naturals][:wilds]
    return sorted([*naturals, *fill], reverse=True)
