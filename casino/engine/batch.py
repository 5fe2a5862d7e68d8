"""Bulk hand classification with numpy: every five-card hand, or any (N, 5) array of card indices, in one pass."""

from __future__ import annotations

import functools
from collections import Counter

import numpy as np
import numpy.typing as npt

from casino.engine.hands import DEFAULT_OPTIONS, HandCategory, HandOptions, WildSpec
from casino.engine.ranking import CATEGORY_BY_SLOT, CATEGORY_SHIFT
from casino.engine.strength import KEY_MASK, card_keys, strength_table

HAND_COUNT = 2_598_960


def _combinations(n: int, k: int) -> npt.NDArray[np.uint8]:
    """All k-subsets of range(n) in lexicographic order, one per row."""
    if k == 0:
        return np.zeros((1, 0), dtype=np.uint8)
    blocks = []
    for first in range(n - k + 1):
        rest = _combinations_cached(n - first - 1, k - 1) + np.uint8(first + 1)
        head = np.full((rest.shape[0], 1), first, dtype=np.uint8)
        blocks.append(np.hstack([head, rest]))
    return np.vstack(blocks) if blocks else np.zeros((0, k), dtype=np.uint8)


@functools.cache
def _combinations_cached(n: int, k: int) -> npt.NDArray[np.uint8]:
    combos = _combinations(n, k)
    combos.setflags(write=False)
    return combos


def all_hands() -> npt.NDArray[np.uint8]:
    """All 2,598,960 five-card hands as card indices (`Card.index`), shape (2598960, 5), read-only."""
    return _combinations_cached(52, 5)


@functools.cache
def _lookup(wild: WildSpec, options: HandOptions) -> tuple[npt.NDArray[np.int64], ...]:
    table = strength_table(
        wild=bool(wild),
        five_of_a_kind_highest=options.five_of_a_kind == "highest",
        wild_duplicates_in_flush=options.wild_duplicates_in_flush,
    )
    keys = np.array(sorted(table), dtype=np.int64)
    values = np.array([table[int(key)] for key in keys], dtype=np.int64)
    per_card = np.array(card_keys(wild.indices), dtype=np.int64)
    return per_card, keys, values


def batch_strengths(
    hands: npt.NDArray[np.integer], wild: WildSpec = WildSpec.NONE, options: HandOptions = DEFAULT_OPTIONS
) -> npt.NDArray[np.int64]:
    """The strength (`HandValue.score`) of each row of five distinct card indices."""
    per_card, keys, values = _lookup(wild, options)
    hands = np.asarray(hands)
    if hands.ndim != 2 or hands.shape[1] != 5:
        raise ValueError(f"expected rows of five card indices, got shape {hands.shape}")
    # Column by column over a contiguous copy: five 1-D gathers beat one 2-D gather and a row sum.
    columns = np.ascontiguousarray(hands.T)
    summed = np.take(per_card, columns[0])
    for column in columns[1:]:
        summed += np.take(per_card, column)
    summed &= np.int64(KEY_MASK)
    positions = np.searchsorted(keys, summed)
    np.minimum(positions, len(keys) - 1, out=positions)
    if not np.array_equal(keys[positions], summed):
        raise ValueError("a row is not five distinct cards")
    result: npt.NDArray[np.int64] = values[positions]
    return result


def category_counts(
    hands: npt.NDArray[np.integer] | None = None, wild: WildSpec = WildSpec.NONE, options: HandOptions = DEFAULT_OPTIONS
) -> dict[HandCategory, int]:
    """How many of the hands (default: all 2,598,960) fall in each category."""
    strengths = batch_strengths(all_hands() if hands is None else hands, wild, options)
    slots = np.bincount((strengths >> CATEGORY_SHIFT).astype(np.int64), minlength=12)
    counts: Counter[HandCategory] = Counter()
    for slot, count in enumerate(slots.tolist()):
        if count:
            counts[CATEGORY_BY_SLOT[slot]] += count
    return {category: counts[category] for category in HandCategory}
