"""Optimal holds for every canonical deal and the exact outcome counts they lead to, for one return vector."""

from __future__ import annotations

from dataclasses import dataclass
from math import comb, lcm

import numpy as np
from numpy.typing import NDArray

from casino.engine.analysis.classes import ClassTables
from casino.engine.analysis.deals import DECK, HAND, HOLDS, DealTables, Float64Array, Int32Array, Int64Array

# Each deal is weighted by the least common multiple of the draw counts C(47, 5-h), so that every hold's
# outcomes are whole numbers: a hold of h cards weights each of its C(47, 5-h) draws by WEIGHT // C(47, 5-h).
DRAWS = tuple(comb(DECK - HAND, HAND - held) for held in range(HAND + 1))
WEIGHT = lcm(*DRAWS)  # 7,669,695
DRAW_WEIGHT = tuple(WEIGHT // draws for draws in DRAWS)
TOTAL_OUTCOMES = comb(DECK, HAND) * WEIGHT  # 19,933,230,517,200

_FLOAT_EXACT = 2**53
_POPCOUNT = np.array([bin(mask).count("1") for mask in range(HOLDS)], dtype=np.int64)
_DRAW_WEIGHT_BY_MASK = np.array(DRAW_WEIGHT, dtype=np.int64)[_POPCOUNT][:, None]
# _SIGN[h, s]: the inclusion-exclusion sign of subset s for hold h: (-1) to the number of cards of s not in h
# when s contains h, else 0.
_SIGN = np.array(
    [[(-1) ** int(_POPCOUNT[s ^ h]) if s & h == h else 0 for s in range(HOLDS)] for h in range(HOLDS)],
    dtype=np.float64,
)
_SIGN_BY_SUBSET = np.ascontiguousarray(_SIGN.T)

TIE_RULE = (
    "among holds of equal expected return: keep the most cards; then the higher cards (held ranks compared "
    "highest first); then, between holds that differ only in suits, the one of the deal's canonical "
    "representative whose held cards have the lower card indexes"
)


def hold_preferences(deals: NDArray[np.uint8]) -> Int32Array:
    """Per hold mask and deal, a number that is larger for the preferred hold under TIE_RULE."""
    ranks = deals.astype(np.int64) // 4  # cards are sorted by index, so ranks ascend along the row
    preference = np.zeros((HOLDS, len(deals)), dtype=np.int32)
    for mask in range(HOLDS):
        code = np.zeros(len(deals), dtype=np.int64)
        digits = 0
        for j in range(HAND - 1, -1, -1):  # highest card first
            if mask >> j & 1:
                code = code * 16 + ranks[:, j] + 1
                digits += 1
        code = code * 16 ** (HAND - digits)
        lower_indexes = sum(1 << (HAND - 1 - j) for j in range(HAND) if mask >> j & 1)
        preference[mask] = (int(_POPCOUNT[mask]) << 25) | (code << 5) | lower_indexes
    return preference


@dataclass(frozen=True)
class Outcome:
    """Weighted outcome counts per group of pay classes under optimal holds (summing to TOTAL_OUTCOMES), and the
    chosen hold mask of each canonical deal."""

    group_counts: tuple[int, ...]
    holds: Int64Array


def hold_totals(values: Int64Array, tables: DealTables) -> Int64Array:
    """`totals[mask, deal]`: the total of `values` over the hands that keep exactly the held cards of canonical
    deal `deal` and draw the rest from the 47 unseen cards. `values[g]` is the sum, over the 5-card hands that
    contain the cards of global suit class g, of their values; inclusion-exclusion over the discards does the rest."""
    totals = values[tables.subset_ids]
    cube = totals.reshape((2,) * HAND + (-1,))  # axis 0 is bit 4 of the mask, axis 4 is bit 0
    for axis in range(HAND):
        without = (slice(None),) * axis + (0,)
        with_bit = (slice(None),) * axis + (1,)
        cube[without] -= cube[with_bit]
    return totals


def grouped_counts(classes: ClassTables, group_of_class: Int64Array, groups: int) -> Float64Array:
    """The superset counts summed over the pay classes of each group (a paytable pays each group alike):
    one pass over the class table, after which every product is `groups` wide instead of one per class."""
    order = np.argsort(group_of_class, kind="stable")
    present, starts = np.unique(group_of_class[order], return_index=True)
    grouped = np.zeros((classes.counts.shape[0], groups), dtype=np.float64)
    grouped[:, present] = np.add.reduceat(classes.counts[:, order], starts, axis=1)
    return grouped


def optimal_outcome(
    group_of_class: Int64Array,
    group_values: Int64Array,
    classes: ClassTables,
    tables: DealTables,
    preferences: Int32Array,
) -> Outcome:
    """Hold each deal to maximise the total value (pay class c is worth `group_values[group_of_class[c]]`,
    integers; ties by TIE_RULE through `preferences`), then count the weighted outcomes per group exactly."""
    groups = len(group_values)
    counts = grouped_counts(classes, group_of_class, groups)
    deal_group = group_of_class[classes.deal_class]
    if int(np.abs(group_values).max(initial=0)) * comb(DECK, HAND) < _FLOAT_EXACT:
        # Float products and sums stay below 2**53 here, so float64 is exact (and much faster than int64).
        # einsum rather than BLAS: these products are small, and BLAS threads only spin on a shared machine.
        per_suit_class = np.rint(np.einsum("gc,c->g", counts, group_values.astype(np.float64))).astype(np.int64)
    else:
        per_suit_class = counts.astype(np.int64) @ group_values
    score = hold_totals(np.concatenate([per_suit_class, group_values[deal_group]]), tables)
    score *= _DRAW_WEIGHT_BY_MASK
    best = score.max(axis=0)
    holds = np.where(score == best, preferences, -1).argmax(axis=0)
    # Aggregate the chosen holds' inclusion-exclusion terms per suit class, one tally per number of held cards.
    coefficients = _SIGN_BY_SUBSET[:, holds] * tables.deal_weights.astype(np.float64)
    size = tables.class_count
    index = _POPCOUNT[holds] * size + tables.subset_ids
    tally = np.bincount(index.ravel(), weights=coefficients.ravel(), minlength=(HAND + 1) * size)
    tally = tally.reshape(HAND + 1, size)
    rows = counts.shape[0]
    # Exact in float64: a row of `tally` sums in absolute value to at most 32 x 2,598,960 and a grouped count is
    # at most 2,598,960, so no partial sum reaches 2**53.
    per_held = np.rint(np.einsum("hg,gc->hc", tally[:, :rows], counts)).astype(np.int64)
    deal_index = (np.arange(HAND + 1)[:, None] * groups + deal_group[None, :]).ravel()
    per_held += (
        np.rint(np.bincount(deal_index, weights=tally[:, rows:].ravel(), minlength=(HAND + 1) * groups))
        .astype(np.int64)
        .reshape(HAND + 1, groups)
    )
    totals = [sum(int(per_held[h, g]) * DRAW_WEIGHT[h] for h in range(HAND + 1)) for g in range(groups)]
    if sum(totals) != TOTAL_OUTCOMES:
        raise ArithmeticError(f"outcome counts sum to {sum(totals)}, not {TOTAL_OUTCOMES}")
    return Outcome(tuple(totals), holds)
