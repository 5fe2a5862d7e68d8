"""Which paytable hands a five-card hand can make (its pay class), from its natural ranks, wild count and suits."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

# Every hand code a paytable line may name (DESIGN 6), strongest first.
HAND_CODES: tuple[str, ...] = (
    "five_of_a_kind",
    "four_wild",
    "natural_royal_flush",
    "wild_royal_flush",
    "royal_flush",
    "straight_flush",
    "four_of_a_kind",
    "full_house",
    "flush",
    "straight",
    "three_of_a_kind",
    "two_pair",
    "one_pair",
    "high_card",
)
# Codes that only mean something when the paytable names wild ranks.
WILD_ONLY_CODES: frozenset[str] = frozenset({"five_of_a_kind", "four_wild", "natural_royal_flush", "wild_royal_flush"})

_ROYAL = frozenset(range(10, 15))
# Straight windows as rank sets, the wheel (A-2-3-4-5) with the ace as 14; the royal window last.
_WINDOWS: tuple[frozenset[int], ...] = (
    frozenset({14, 2, 3, 4, 5}),
    *(frozenset(range(low, low + 5)) for low in range(2, 11)),
)
_NON_ROYAL_WINDOWS = _WINDOWS[:-1]


@dataclass(frozen=True, slots=True)
class PayClass:
    """The paytable hands one five-card hand can make.

    `codes` holds every hand code some choice of wild substitutes makes (a hand without wild cards makes exactly
    its own category, plus `natural_royal_flush` for a royal). `pair_rank` is the highest rank the hand can make
    `one_pair` of (0 when it cannot); `quad_ranks` has bit r set when it can make four of a kind of rank r.
    """

    codes: frozenset[str]
    pair_rank: int = 0
    quad_ranks: int = 0

    def sort_key(self) -> tuple[tuple[int, ...], int, int]:
        """A stable total order (used to number pay classes reproducibly)."""
        codes = tuple(sorted(HAND_CODES.index(code) for code in self.codes))
        return codes, self.pair_rank, self.quad_ranks


def pay_class(natural_ranks: Sequence[int], wild_count: int, suited: bool) -> PayClass:
    """The pay class of a hand: its non-wild card ranks (2-14), how many wild cards, whether the non-wild cards
    share one suit (true when there are fewer than two of them)."""
    if len(natural_ranks) + wild_count != 5 or wild_count < 0:
        raise ValueError(f"a hand has five cards, got {len(natural_ranks)} natural and {wild_count} wild")
    return _pay_class(tuple(sorted(natural_ranks)), wild_count, suited or len(natural_ranks) < 2)


@cache
def _pay_class(ranks: tuple[int, ...], wild_count: int, suited: bool) -> PayClass:
    if wild_count == 0:
        return _natural_class(ranks, suited)
    return _wild_class(ranks, wild_count, suited)


def _natural_class(ranks: tuple[int, ...], suited: bool) -> PayClass:
    counts = Counter(ranks)
    shape = sorted(counts.values(), reverse=True)
    straight = len(counts) == 5 and any(set(ranks) <= window for window in _WINDOWS)
    if straight and suited:
        if set(ranks) == _ROYAL:
            return PayClass(frozenset({"royal_flush", "natural_royal_flush"}))
        return PayClass(frozenset({"straight_flush"}))
    if shape[0] == 4:
        quad = next(rank for rank, count in counts.items() if count == 4)
        return PayClass(frozenset({"four_of_a_kind"}), quad_ranks=1 << quad)
    if shape == [3, 2]:
        return PayClass(frozenset({"full_house"}))
    if suited:
        return PayClass(frozenset({"flush"}))
    if straight:
        return PayClass(frozenset({"straight"}))
    if shape[0] == 3:
        return PayClass(frozenset({"three_of_a_kind"}))
    if shape[:2] == [2, 2]:
        return PayClass(frozenset({"two_pair"}))
    if shape[0] == 2:
        pair = next(rank for rank, count in counts.items() if count == 2)
        return PayClass(frozenset({"one_pair"}), pair_rank=pair)
    return PayClass(frozenset({"high_card"}))


def _wild_class(ranks: tuple[int, ...], wild_count: int, suited: bool) -> PayClass:
    """Wild cards stand for any rank and suit, duplicates allowed (DESIGN 4.3): a hand can make a pattern of
    rank counts when its natural counts fit inside it; straights and flushes need distinct natural ranks."""
    counts = Counter(ranks)
    natural = len(ranks)
    high = max(counts.values(), default=0)
    pairs = sum(1 for count in counts.values() if count >= 2)
    distinct = high <= 1
    rank_set = set(ranks)
    codes: set[str] = set()
    if len(counts) <= 1:
        codes.add("five_of_a_kind")
    if wild_count >= 4:
        codes.add("four_wild")
    if suited and distinct and rank_set <= _ROYAL:
        codes.update(("royal_flush", "wild_royal_flush"))
    if suited and distinct and any(rank_set <= window for window in _NON_ROYAL_WINDOWS):
        codes.add("straight_flush")
    # Four of rank r: every natural card but at most one is an r; the wild cards make up the rest.
    quad_ranks = 0
    for rank in range(2, 15):
        if natural - counts.get(rank, 0) <= 1:
            quad_ranks |= 1 << rank
    if quad_ranks:
        codes.add("four_of_a_kind")
    if len(counts) <= 2 and high <= 3:
        codes.add("full_house")
    if suited:
        # Wild cards pick ranks that neither pair nor straighten; there are always enough ranks for that.
        codes.add("flush")
    if distinct and any(rank_set <= window for window in _WINDOWS):
        # A wild card takes another suit, so the straight need not be a straight flush.
        codes.add("straight")
    if len(counts) <= 3 and high <= 3 and pairs <= 1:
        codes.add("three_of_a_kind")
    if len(counts) <= 3 and high <= 2 and pairs <= 2:
        codes.add("two_pair")
    pair_rank = 0
    if len(counts) <= 4 and high <= 2 and pairs <= 1:
        codes.add("one_pair")
        if pairs == 1:
            pair_rank = next(rank for rank, count in counts.items() if count == 2)
        elif wild_count >= 2:
            pair_rank = 14
        else:
            pair_rank = max(ranks)
    if distinct:
        codes.add("high_card")
    return PayClass(frozenset(codes), pair_rank=pair_rank, quad_ranks=quad_ranks)
