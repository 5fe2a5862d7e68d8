"""A paytable as whole-number values per pay class and per suit class (shared by the analysis and hold advice)."""

from __future__ import annotations

from dataclasses import dataclass
from math import comb, lcm

import numpy as np

from casino.engine.analysis.classes import ClassTables
from casino.engine.analysis.deals import DECK, HAND, Int64Array
from casino.engine.analysis.optimal import grouped_counts
from casino.engine.paytable import PaytableError, PaytableSpec

_MAX_SCALED = 2**35
_FLOAT_EXACT = 2**53


@dataclass(frozen=True)
class PaytableValues:
    """Pay class c is paid by line `group_of_class[c]` (the last group: no line), which returns
    `group_values[group] / scale` per unit bet, stake included; `group_values` are integers."""

    group_of_class: Int64Array
    group_values: Int64Array
    scale: int


def paytable_values(spec: PaytableSpec, classes: ClassTables) -> PaytableValues:
    """Group the pay classes by the line that pays them and scale the returns to integers."""
    nothing = len(spec.lines)
    group_of_class = np.array(
        [nothing if (index := spec.match_class(klass)) is None else index for klass in classes.classes],
        dtype=np.int64,
    )
    returns = [spec.line_return(index) for index in range(len(spec.lines))] + [spec.line_return(None)]
    scale = lcm(*(value.denominator for value in returns))
    scaled = [int(value * scale) for value in returns]
    if max(scaled) >= _MAX_SCALED:
        # Hold totals reach about 2**27 times a value; past this int64 would overflow and exactness be lost.
        raise PaytableError("the pays' fractions are too fine for an exact analysis: use simpler fractions")
    return PaytableValues(group_of_class, np.array(scaled, dtype=np.int64), scale)


def suit_class_values(values: PaytableValues, classes: ClassTables) -> Int64Array:
    """`result[g]`: the total scaled value of the 5-card hands containing the cards of global suit class g
    (0-4 cards: from the superset counts; 5 cards: the deal's own value), the input of `hold_totals`."""
    counts = grouped_counts(classes, values.group_of_class, len(values.group_values))
    deal_values = values.group_values[values.group_of_class[classes.deal_class]]
    if int(np.abs(values.group_values).max(initial=0)) * comb(DECK, HAND) < _FLOAT_EXACT:
        # Every product and partial sum stays below 2**53, so float64 is exact.
        per_suit_class = np.rint(np.einsum("gc,c->g", counts, values.group_values.astype(np.float64)))
        return np.concatenate([per_suit_class.astype(np.int64), deal_values])
    return np.concatenate([counts.astype(np.int64) @ values.group_values, deal_values])
