"""Pay-class count tables: for every suit class of 0..5 cards, how many 5-card hands containing it fall in
each pay class (paytable-independent; one table per set of wild ranks)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from casino.engine.analysis.deals import HAND, DealTables, Float64Array, Int64Array
from casino.engine.pay_classes import HAND_CODES, PayClass, pay_class

_RANKS = 13
_BASE = 5  # natural count per rank (0..4) as one base-5 digit


@dataclass(frozen=True)
class ClassTables:
    """`classes[c]` is pay class c; `deal_class[d]` the pay class of canonical deal d; `counts[g, c]` the number
    of 5-card hands that contain the cards of global suit class g (see DealTables; the classes of 0-4 cards,
    g below `offsets[5]`) and are of pay class c. A 5-card class contains only itself, so it needs no row."""

    wild_ranks: tuple[int, ...]
    classes: tuple[PayClass, ...]
    deal_class: Int64Array
    counts: Float64Array  # whole numbers below 2**53 (exact); float64 so products run on BLAS; int32 on disk

    def class_arrays(self) -> tuple[Int64Array, Int64Array, Int64Array]:
        """The classes as arrays (code bitmask over HAND_CODES, pair rank, quad-rank bitmask) for storage."""
        codes = np.array([sum(1 << HAND_CODES.index(code) for code in k.codes) for k in self.classes], np.int64)
        pairs = np.array([k.pair_rank for k in self.classes], np.int64)
        quads = np.array([k.quad_ranks for k in self.classes], np.int64)
        return codes, pairs, quads

    @staticmethod
    def classes_from_arrays(codes: Iterable[int], pairs: Iterable[int], quads: Iterable[int]) -> tuple[PayClass, ...]:
        return tuple(
            PayClass(
                frozenset(code for bit, code in enumerate(HAND_CODES) if int(mask) >> bit & 1), int(pair), int(quad)
            )
            for mask, pair, quad in zip(codes, pairs, quads, strict=True)
        )


def classify_deals(deals: NDArray[np.uint8], wild_ranks: Iterable[int]) -> tuple[Int64Array, tuple[PayClass, ...]]:
    """The pay class of every canonical deal, found once per distinct (natural ranks, wild count, suited) pattern."""
    wild = sorted(set(wild_ranks))
    cards = deals.astype(np.int64)
    ranks = cards // 4 + 2
    suits = cards % 4
    is_wild = np.isin(ranks, wild)
    digits = np.where(is_wild, 0, np.power(np.int64(_BASE), ranks - 2)).sum(axis=1)
    wild_count = is_wild.sum(axis=1)
    high_suit = np.where(is_wild, -1, suits).max(axis=1)
    low_suit = np.where(is_wild, 4, suits).min(axis=1)
    suited = high_suit <= low_suit
    pattern = digits + _BASE**_RANKS * (wild_count + (HAND + 1) * suited)
    patterns, inverse = np.unique(pattern, return_inverse=True)
    found: list[PayClass] = []
    for value in patterns.tolist():
        digit_part, rest = value % _BASE**_RANKS, value // _BASE**_RANKS
        natural = [rank + 2 for rank in range(_RANKS) for _ in range(digit_part // _BASE**rank % _BASE)]
        found.append(pay_class(natural, wild_count=rest % (HAND + 1), suited=bool(rest // (HAND + 1))))
    classes = tuple(sorted(set(found), key=PayClass.sort_key))
    number = {klass: index for index, klass in enumerate(classes)}
    per_pattern = np.array([number[klass] for klass in found], dtype=np.int64)
    return per_pattern[inverse.ravel()], classes


def build_class_tables(tables: DealTables, wild_ranks: Iterable[int]) -> ClassTables:
    """Superset counts by pay class for every suit class, from the deals up: a k-card class's count is the sum
    over the cards that extend it of the (k+1)-card class's count, divided by the 5 - k ways each hand arises."""
    wild = tuple(sorted(set(wild_ranks)))
    deal_class, classes = classify_deals(tables.deals, wild)
    size = len(classes)
    four = tables.levels[HAND - 1]
    assert four.extensions is not None
    # Four cards: tally the pay classes of the 48 deals each extends to.
    rows = np.repeat(np.arange(len(four.keys)), four.extensions.shape[1])
    flat = np.bincount(rows * size + deal_class[four.extensions.ravel()], minlength=len(four.keys) * size)
    per_level: list[Int64Array] = [flat.reshape(len(four.keys), size).astype(np.int64)]
    for cards in range(HAND - 2, -1, -1):
        level = tables.levels[cards]
        assert level.extensions is not None
        per_level.append(per_level[-1][level.extensions].sum(axis=1) // (HAND - cards))
    counts = np.concatenate(per_level[::-1]).astype(np.float64)
    return ClassTables(wild, classes, deal_class, counts)
