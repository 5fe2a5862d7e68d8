"""Optimal-hold advice speed: first call per paytable (tables from the disk cache), then per deal on random
deals; and a full check that the deal-weighted mean of the advised returns is the analysis' return."""

from __future__ import annotations

import json
import random
import sys
import time
from fractions import Fraction
from math import comb
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from casino.engine.analysis import analyze, optimal_hold  # noqa: E402
from casino.engine.analysis.cache import deal_tables  # noqa: E402
from casino.engine.cards import ALL_CARDS, Card  # noqa: E402
from casino.engine.paytable import PaytableSpec  # noqa: E402

STANDARD = ROOT / "paytables" / "standard"
DEALS = 20_000


def load(name: str) -> PaytableSpec:
    return PaytableSpec.from_dict(json.loads((STANDARD / f"{name}.json").read_text()))


def main() -> None:
    rng = random.Random(2026)
    deals = [tuple(rng.sample(ALL_CARDS, 5)) for _ in range(DEALS)]
    for name in ("jacks_or_better_9_6", "deuces_wild_full_pay", "triple_draw_house"):
        spec = load(name)
        began = time.perf_counter()
        optimal_hold(deals[0], spec)
        first = time.perf_counter() - began
        began, began_cpu = time.perf_counter(), time.process_time()
        for dealt in deals:
            optimal_hold(dealt, spec)
        wall = (time.perf_counter() - began) / DEALS
        cpu = (time.process_time() - began_cpu) / DEALS
        print(
            f"{name:>22}: first call {first * 1000:7.1f} ms; per deal {wall * 1e6:6.1f} us wall, "
            f"{cpu * 1e6:6.1f} us CPU ({DEALS:,} random deals)"
        )
    # Every canonical deal once, weighted by how many of the 2,598,960 deals it stands for.
    spec = load("triple_draw_house")
    tables, _ = deal_tables(None)
    began = time.perf_counter()
    mean = Fraction(0)
    for cards, weight in zip(tables.deals, tables.deal_weights, strict=True):
        mean += optimal_hold([Card.from_index(int(card)) for card in cards], spec).expected_return_exact * int(weight)
    mean /= comb(52, 5)
    seconds = time.perf_counter() - began
    expected = analyze(spec).return_exact
    verdict = "equal" if mean == expected else f"DIFFERENT (analysis {float(expected):.9f})"
    print(
        f"triple_draw_house over all {len(tables.deals):,} canonical deals: mean advised return {float(mean):.9f}, "
        f"{verdict} to the analysis' exact return ({seconds:.1f} s)"
    )
    if mean != expected:
        sys.exit(1)


if __name__ == "__main__":
    main()
