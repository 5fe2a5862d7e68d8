"""Rules-engine speed: single-hand evaluations per second (natural, 3/6/9 wild, one wild rank), the rich evaluate(),
all 2,598,960 hands in one numpy batch, and the same hands through treys (a well-known pure-Python evaluator).

Run: .venv/bin/python bench/bench_engine.py   (installs treys into the venv for this comparison only if missing)
"""

from __future__ import annotations

import importlib
import itertools
import random
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from casino.engine.batch import all_hands, batch_strengths  # noqa: E402
from casino.engine.cards import ALL_CARDS  # noqa: E402
from casino.engine.hands import HandOptions, WildSpec, evaluate, hand_strength, strength_function  # noqa: E402

HANDS = 1_000_000
RICH_HANDS = 50_000
REPEATS = 3


WALL: list[float] = []  # the wall time of the run best_of picked last, shown beside the CPU figure


def best_of(function: Callable[[], object], repeats: int = REPEATS) -> float:
    """CPU seconds of the fastest of a few runs: the machine is shared, so wall time also measures the neighbours."""
    runs = []
    for _ in range(repeats):
        began, began_wall = time.process_time(), time.perf_counter()
        function()
        runs.append((time.process_time() - began, time.perf_counter() - began_wall))
    cpu, wall = min(runs)
    WALL[:] = [wall]
    return cpu


def per_second(strength: Callable[[int, int, int, int, int], int], hands: Sequence[tuple[int, ...]]) -> float:
    def run() -> None:
        for a, b, c, d, e in hands:
            strength(a, b, c, d, e)

    return len(hands) / best_of(run)


def wall_rate(count: int) -> str:
    return f"(wall {count / WALL[0] / 1e6:.2f} M/s)"


def treys_evaluator() -> object | None:
    """treys, installed into this venv for the benchmark only (not a project requirement)."""
    try:
        return importlib.import_module("treys").Evaluator()
    except ImportError:
        pass
    uv = Path(sys.executable).with_name("uv")
    installer = [str(uv), "pip", "install", "-q", "--python", sys.executable] if uv.exists() else None
    installer = installer or [sys.executable, "-m", "pip", "install", "-q"]
    result = subprocess.run([*installer, "treys==0.1.8"], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        print(f"treys could not be installed ({result.stderr.strip()[:200]}); skipping the comparison")
        return None
    importlib.invalidate_caches()
    return importlib.import_module("treys").Evaluator()


def main() -> None:
    rng = random.Random(20261129)
    deck = list(range(52))
    hands = [tuple(rng.sample(deck, 5)) for _ in range(HANDS)]
    print(f"Python {sys.version.split()[0]}, {HANDS:,} random hands, one thread, CPU time, best of {REPEATS}")

    natural = per_second(hand_strength, hands)
    print(f"  hand_strength (natural)            {natural / 1e6:6.2f} M hands/s {wall_rate(HANDS)}")
    pregnant = strength_function(WildSpec.parse("3 6 9"), HandOptions())
    wild_369 = per_second(pregnant, hands)
    print(f"  strength_function(3 6 9 wild)      {wild_369 / 1e6:6.2f} M hands/s {wall_rate(HANDS)}")
    deuces = strength_function(WildSpec.parse("2"), HandOptions())
    wild_one = per_second(deuces, hands)
    print(f"  strength_function(2 wild)          {wild_one / 1e6:6.2f} M hands/s {wall_rate(HANDS)}")

    card_hands = [[ALL_CARDS[i] for i in hand] for hand in hands[:RICH_HANDS]]
    wild = WildSpec.parse("3 6 9")
    rich = RICH_HANDS / best_of(lambda: [evaluate(hand, wild) for hand in card_hands])
    print(f"  evaluate() -> HandValue (3 6 9)    {rich / 1e3:6.1f} k hands/s (rich path: description, cards)")

    began = time.process_time()
    every = all_hands()
    generated = time.process_time() - began
    began = time.process_time()
    batch_strengths(every)
    cold = time.process_time() - began
    warm = best_of(lambda: batch_strengths(every))
    warm_wall = WALL[0]
    warm_wild = best_of(lambda: batch_strengths(every, wild))
    print(f"  all 2,598,960 hands listed         {generated:6.3f} s")
    print(
        f"  all 2,598,960 classified (numpy)   {warm:6.3f} s natural (wall {warm_wall:.3f} s), "
        f"{warm_wild:.3f} s 3 6 9 wild, {cold:.3f} s cold (tables built)"
    )

    evaluator = treys_evaluator()
    if evaluator is None:
        return
    treys_card = importlib.import_module("treys").Card
    to_treys = [treys_card.new(str(card)) for card in ALL_CARDS]
    treys_hands = [[to_treys[i] for i in hand] for hand in hands]
    five = evaluator._five  # type: ignore[attr-defined]  # its five-card entry point, without list concatenation

    def run_treys() -> None:
        for hand in treys_hands:
            five(hand)

    treys_rate = len(treys_hands) / best_of(run_treys)
    print(f"  treys 0.1.8 Evaluator._five        {treys_rate / 1e6:6.2f} M hands/s {wall_rate(HANDS)}")
    print(f"  ratio natural / treys              {natural / treys_rate:6.2f} x")
    # Sanity: both order the same hands the same way (treys: lower is better).
    sample = hands[:100_000]
    ours = [hand_strength(*hand) for hand in sample]
    theirs = [five(hand) for hand in treys_hands[:100_000]]
    pairs = sorted(set(zip(ours, theirs, strict=True)))
    consistent = all(a[1] > b[1] for a, b in itertools.pairwise(pairs))
    print(f"  same order as treys on 100,000 hands: {'yes' if consistent else 'NO'}")


if __name__ == "__main__":
    main()
