"""Suit-isomorphism classes of card sets of up to five cards: canonical deals, their weights, subset ids."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

DECK = 52
HAND = 5
HOLDS = 1 << HAND  # a hold is a 5-bit mask over the dealt cards (bit j: the j-th card, cards sorted by index)

Int64Array = NDArray[np.int64]
Int32Array = NDArray[np.int32]
Float64Array = NDArray[np.float64]


# Each card as one bit of a 52-bit set: 13 rank bits per suit, suit-major.
_CARD_BITS = np.array([1 << ((card % 4) * 13 + card // 4) for card in range(DECK)], dtype=np.int64)
_LANE = np.int64(0x1FFF)


def set_keys(card_sets: Int64Array) -> Int64Array:
    """Suit-class keys of 52-bit card sets (see `suit_keys`)."""
    lanes = [(card_sets >> (13 * suit)) & _LANE for suit in range(4)]
    a, b, c, d = lanes
    # A sorting network for four values: cheaper than sorting rows.
    a, b = np.minimum(a, b), np.maximum(a, b)
    c, d = np.minimum(c, d), np.maximum(c, d)
    a, c = np.minimum(a, c), np.maximum(a, c)
    b, d = np.minimum(b, d), np.maximum(b, d)
    b, c = np.minimum(b, c), np.maximum(b, c)
    keys: Int64Array = (d << 39) | (c << 26) | (b << 13) | a
    return keys


def suit_keys(cards: NDArray[np.integer]) -> Int64Array:
    """A key per row of card indexes (n, k) that two card sets share exactly when a suit permutation maps one
    onto the other: the four per-suit 13-bit rank masks, sorted, packed into one integer."""
    return set_keys(_CARD_BITS[cards].sum(axis=1))


@dataclass(frozen=True)
class Level:
    """The suit classes of k-card sets: sorted keys, one representative set each (cards ascending), how many
    k-card sets each class holds, and (k < 5) for each class and each card outside its representative, the
    class of the (k+1)-card set it makes."""

    keys: Int64Array
    reps: NDArray[np.uint8]
    weights: Int64Array
    extensions: Int32Array | None


@dataclass(frozen=True)
class DealTables:
    """Every suit class of 0..5-card sets, numbered globally (level k's class i is `offsets[k] + i`), and for
    each 5-card class (a canonical deal) the global class of each of its 32 subsets: `subset_ids[mask, deal]`
    (mask-major, so per-mask rows are contiguous)."""

    levels: tuple[Level, ...]
    offsets: tuple[int, ...]
    subset_ids: Int32Array

    @property
    def deals(self) -> NDArray[np.uint8]:
        return self.levels[HAND].reps

    @property
    def deal_weights(self) -> Int64Array:
        return self.levels[HAND].weights

    @property
    def class_count(self) -> int:
        return self.offsets[-1] + len(self.levels[-1].keys)


def _extend(level: Level, size: int) -> tuple[Level, Level]:
    """From the classes of `size`-card sets, the classes of (size+1)-card sets (and the extension map)."""
    count = len(level.keys)
    free = DECK - size
    present = np.zeros((count, DECK), dtype=bool)
    if size:
        present[np.arange(count)[:, None], level.reps] = True
    others = np.nonzero(~present)[1].reshape(count, free).astype(np.uint8)
    grown = np.concatenate([np.repeat(level.reps[:, None, :], free, axis=1), others[..., None]], axis=2)
    grown = grown.reshape(count * free, size + 1)
    grown.sort(axis=1)
    keys, first, inverse = np.unique(suit_keys(grown), return_index=True, return_inverse=True)
    # Each (size+1)-card set arises from each of its size+1 cards removed, so the weighted tally overcounts by that.
    tally = np.bincount(inverse, weights=np.repeat(level.weights, free).astype(np.float64), minlength=len(keys))
    weights = np.rint(tally).astype(np.int64) // (size + 1)
    done = Level(level.keys, level.reps, level.weights, inverse.reshape(count, free).astype(np.int32))
    return done, Level(keys, grown[first], weights, None)


def build_deal_tables() -> DealTables:
    """Enumerate the suit classes level by level (about 153,000 classes; 134,459 canonical deals)."""
    level = Level(np.zeros(1, np.int64), np.zeros((1, 0), np.uint8), np.ones(1, np.int64), None)
    levels: list[Level] = []
    for size in range(HAND):
        done, level = _extend(level, size)
        levels.append(done)
    levels.append(level)
    offsets = tuple(int(x) for x in np.cumsum([0] + [len(lv.keys) for lv in levels[:-1]]))
    deals = level.reps
    deal_bits = _CARD_BITS[deals]
    subset_ids = np.empty((HOLDS, len(deals)), dtype=np.int32)
    for mask in range(HOLDS):
        columns = [j for j in range(HAND) if mask >> j & 1]
        keys = set_keys(deal_bits[:, columns].sum(axis=1))
        subset_ids[mask] = np.searchsorted(levels[len(columns)].keys, keys) + offsets[len(columns)]
    return DealTables(tuple(levels), offsets, subset_ids)
