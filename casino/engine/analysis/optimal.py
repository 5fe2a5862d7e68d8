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

TIE_RULE = (
    "among holds of equal expected return: keep the most cards; then the higher cards (held ranks compared "
    "highest first); then, between holds that differ only in suits, the one of the deal's canonical "
    "representative whose held cards have the lower card indexes"
)


# Deals are scored a block at a time: a block's 32 x BLOCK scores (2 MB) and its temporaries stay in the cache and
# reuse the same memory, where whole-table temporaries (35 MB each) cost more in page faults than in arithmetic.
BLOCK = 8192


def _preference_terms() -> tuple[Int32Array, Int32Array]:
    """`weights[mask, j]` and `base[mask]` with preference[mask] = base[mask] + sum_j weights[mask, j] * (rank_j + 1).

    The held ranks, highest card first, are base-16 digits of a five-digit code (unheld digits are zero); the code is
    shifted above the five "lower card indexes" bits and below the held-card count (TIE_RULE, most cards first).
    """
    weights = np.zeros((HOLDS, HAND), dtype=np.int32)
    base = np.zeros(HOLDS, dtype=np.int32)
    for mask in range(HOLDS):
        held = [j for j in range(HAND - 1, -1, -1) if mask >> j & 1]  # highest card first
        for digit, j in enumerate(held):
            weights[mask, j] = 16 ** (HAND - 1 - digit) << 5
        lower_indexes = sum(1 << (HAND - 1 - j) for j in held)
        base[mask] = (int(_POPCOUNT[mask]) << 25) | lower_indexes
    return weights, base


_PREFERENCE_WEIGHTS, _PREFERENCE_BASE = _preference_terms()


def hold_preferences(deals: NDArray[np.uint8]) -> Int32Array:
    """Per hold mask and deal, a number that is larger for the preferred hold under TIE_RULE."""
    digits = (deals // 4).astype(np.int32) + 1  # cards are sorted by index, so ranks ascend along the row
    preference = np.empty((HOLDS, len(deals)), dtype=np.int32)
    for start in range(0, len(deals), BLOCK):  # every value stays below 2**31
        block = slice(start, start + BLOCK)
        out = preference[:, block]
        out[:] = _PREFERENCE_BASE[:, None]
        for j in range(HAND):
            out += _PREFERENCE_WEIGHTS[:, j, None] * digits[None, block, j]
    return preference


def _superset_table() -> tuple[Int64Array, Float64Array, Int64Array, Int64Array]:
    """For each hold h, the masks s that contain it and their inclusion-exclusion signs (-1)**|s - h| (other masks
    have none), one run after another in `masks` and `signs`: h's run starts at `start[h]`, `count[h]` = 2**(5 - |h|)
    long."""
    masks: list[int] = []
    signs: list[float] = []
    start: list[int] = []
    for hold in range(HOLDS):
        start.append(len(masks))
        for mask in range(HOLDS):
            if mask & hold == hold:
                masks.append(mask)
                signs.append(float((-1) ** int(_POPCOUNT[mask ^ hold])))
    ends = [*start[1:], len(masks)]
    count = [end - first for first, end in zip(start, ends, strict=True)]
    return np.array(masks, np.int64), np.array(signs), np.array(start, np.int64), np.array(count, np.int64)


_SUPERSETS, _SUPERSET_SIGNS, _SUPERSET_START, _SUPERSET_COUNT = _superset_table()


def _choose_and_tally(
    values: Int64Array, tables: DealTables, preferences: Int32Array
) -> tuple[Int64Array, Float64Array]:
    """Each deal's optimal hold (ties by TIE_RULE), and the chosen holds' inclusion-exclusion terms tallied per
    number of held cards and suit class: `tally[held * class_count + class]` (whole numbers, exact in float64)."""
    deals = len(tables.deals)
    size = tables.class_count
    holds = np.empty(deals, dtype=np.int64)
    weights = tables.deal_weights.astype(np.float64)
    terms_index: list[Int64Array] = []
    terms_weight: list[Float64Array] = []
    for start in range(0, deals, BLOCK):
        block = slice(start, min(start + BLOCK, deals))
        ids = tables.subset_ids[:, block]
        score = subset_totals(values, ids)
        score *= _DRAW_WEIGHT_BY_MASK
        chosen = np.where(score == score.max(axis=0), preferences[:, block], -1).argmax(axis=0)
        holds[block] = chosen
        # Only the subsets that contain the hold have a term (sign +-1): 2**(5 - held) of the 32 for each deal.
        runs = _SUPERSET_COUNT[chosen]
        deal = np.repeat(np.arange(len(chosen)), runs)
        ends = np.cumsum(runs)
        term = np.arange(ends[-1]) - np.repeat(ends - runs - _SUPERSET_START[chosen], runs)
        terms_index.append(_POPCOUNT[chosen][deal] * size + ids[_SUPERSETS[term], deal])
        terms_weight.append(_SUPERSET_SIGNS[term] * weights[block][deal])
    # Weighted bincount sums float64; every term and partial sum is a whole number below 2**53, so it is exact.
    tally: Float64Array = np.asarray(
        np.bincount(np.concatenate(terms_index), weights=np.concatenate(terms_weight), minlength=(HAND + 1) * size),
        dtype=np.float64,
    )
    return holds, tally.reshape(HAND + 1, size)


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
    return subset_totals(values, tables.subset_ids)


def subset_totals(values: Int64Array, subset_ids: Int32Array) -> Int64Array:
    """`hold_totals` for the deals whose subset ids are given (columns of `DealTables.subset_ids`)."""
    totals = values[subset_ids]
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
    holds, tally = _choose_and_tally(np.concatenate([per_suit_class, group_values[deal_group]]), tables, preferences)
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
