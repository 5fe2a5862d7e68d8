"""Exact optimal-hold analysis of draw-poker paytables (numpy): return, hit frequency, variance, line counts.

Method: every 5-card hand falls in a paytable-independent pay class (pay_classes.py). For every suit class
of 0-5 cards the number of hands containing it, per pay class, is tabulated once (classes.py); a paytable
turns that into a value per suit class, and inclusion-exclusion over each canonical deal's 32 subsets gives
every hold's exact total (optimal.py). The 2,598,960 deals reduce to 134,459 suit classes with weights.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

from casino.engine.analysis.advice import HoldAdvice, optimal_hold
from casino.engine.analysis.cache import class_tables, deal_tables
from casino.engine.analysis.optimal import TIE_RULE, TOTAL_OUTCOMES, optimal_outcome
from casino.engine.analysis.result import LineAnalysis, PaytableAnalysis
from casino.engine.analysis.values import paytable_values
from casino.engine.paytable import PaytableSpec

__all__ = ["TOTAL_OUTCOMES", "HoldAdvice", "LineAnalysis", "PaytableAnalysis", "analyze", "optimal_hold"]


def analyze(
    spec: PaytableSpec, cache_dir: Path | None = None, progress: Callable[[float], None] | None = None
) -> PaytableAnalysis:
    """Analyse one paytable exactly; the paytable-independent tables come from `cache_dir` (default
    $CASINO_CACHE_DIR or the project's .cache/analysis) or are built and stored there.

    `progress`, when given, is called with the fraction done (0 to 1) after each stage (for a job's progress bar).
    """
    report = progress or (lambda fraction: None)
    tables, preferences = deal_tables(cache_dir)
    report(0.4)  # building these tables (first run, cold cache) is the long stage
    classes = class_tables(tables, (int(rank) for rank in spec.wild_ranks), cache_dir)
    report(0.6)
    values = paytable_values(spec, classes)
    outcome = optimal_outcome(values.group_of_class, values.group_values, classes, tables, preferences)
    report(0.9)
    nothing = len(spec.lines)
    per_line = list(outcome.group_counts[:nothing])
    total = TOTAL_OUTCOMES
    line_returns = [spec.line_return(index) for index in range(len(spec.lines))]
    mean = sum((Fraction(count) * value for count, value in zip(per_line, line_returns, strict=True)), Fraction(0))
    mean /= total
    square = sum((count * value * value for count, value in zip(per_line, line_returns, strict=True)), Fraction(0))
    square /= total
    hits = sum(count for count, value in zip(per_line, line_returns, strict=True) if value > 0)
    report(1.0)
    return PaytableAnalysis(
        name=spec.name,
        basis=spec.basis,
        return_exact=mean,
        hit_frequency_exact=Fraction(hits, total),
        variance_exact=square - mean * mean,
        lines=tuple(
            LineAnalysis(line, value, count, total)
            for line, value, count in zip(spec.lines, line_returns, per_line, strict=True)
        ),
        nothing_combinations=outcome.group_counts[nothing],
        total_combinations=total,
        tie_rule=TIE_RULE,
    )
