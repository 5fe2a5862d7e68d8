"""The result of an exact paytable analysis: return, hit frequency, variance and per-line counts."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from casino.engine.paytable import PaytableLineSpec, format_pays


@dataclass(frozen=True)
class LineAnalysis:
    """One paytable line under optimal play: its weighted outcome count (out of `total`) and what it returns."""

    line: PaytableLineSpec
    returns: Fraction  # per unit bet, stake included
    combinations: int
    total: int

    @property
    def probability(self) -> Fraction:
        return Fraction(self.combinations, self.total)

    @property
    def contribution(self) -> Fraction:
        """This line's share of the return per unit bet."""
        return self.probability * self.returns

    def to_dict(self) -> dict[str, Any]:
        data = self.line.to_dict()
        data.update(
            {
                "label": self.line.label,
                # DESIGN 6: reports show both bases (a for_1 line paying 1 is a to_1 push, 0 to 1).
                "pays_for_1": format_pays(self.returns),
                "pays_to_1": format_pays(self.returns - 1),
                "returns": float(self.returns),
                "combinations": self.combinations,
                "probability": float(self.probability),
                "contribution": float(self.contribution),
            }
        )
        return data


@dataclass(frozen=True)
class PaytableAnalysis:
    """Exact figures for optimal holds over all 2,598,960 deals × 32 holds.

    `nothing_combinations` counts the outcomes that make no line. Counts are weighted outcomes: each deal
    stands for 7,669,695 outcomes (the least common multiple of the draw counts C(47, 0..5)), so every count
    is a whole number and they sum to `total_combinations` (2,598,960 × 7,669,695).
    """

    name: str
    basis: str
    return_exact: Fraction
    hit_frequency_exact: Fraction
    variance_exact: Fraction
    lines: tuple[LineAnalysis, ...]
    nothing_combinations: int
    total_combinations: int
    tie_rule: str

    @property
    def return_(self) -> float:
        return float(self.return_exact)

    @property
    def house_edge(self) -> float:
        return float(1 - self.return_exact)

    @property
    def hit_frequency(self) -> float:
        return float(self.hit_frequency_exact)

    @property
    def variance(self) -> float:
        return float(self.variance_exact)

    @property
    def std_dev(self) -> float:
        return math.sqrt(self.variance)

    def to_dict(self) -> dict[str, Any]:
        """The DESIGN 9 form: {"return", "hit_frequency", "variance", "lines": [...]}, plus exact extras."""
        return {
            "name": self.name,
            "basis": self.basis,
            "return": self.return_,
            "return_exact": format_pays(self.return_exact),
            "house_edge": self.house_edge,
            "hit_frequency": self.hit_frequency,
            "variance": self.variance,
            "std_dev": self.std_dev,
            "lines": [line.to_dict() for line in self.lines],
            "nothing": {
                "combinations": self.nothing_combinations,
                "probability": self.nothing_combinations / self.total_combinations,
            },
            "total_combinations": self.total_combinations,
            "tie_rule": self.tie_rule,
        }
