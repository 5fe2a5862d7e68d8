"""Paytable analysis speed: one paytable from cold (Python start-up and table building included), from the
disk cache in a new process, and further paytables in a warm process; peak memory of each process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STANDARD = ROOT / "paytables" / "standard"
CHILD = """
import json, resource, sys, time
start = time.perf_counter()
from casino.engine.analysis import analyze
from casino.engine.paytable import PaytableSpec
specs = [PaytableSpec.from_dict(json.load(open(name))) for name in sys.argv[1:]]
first = analyze(specs[0])
built = time.perf_counter()
times, cpu = [], []
for spec in specs[1:]:
    began, began_cpu = time.perf_counter(), time.process_time()
    analyze(spec)
    times.append(time.perf_counter() - began)
    cpu.append(time.process_time() - began_cpu)
print(json.dumps({"first": built - start, "return": first.return_, "further": times, "cpu": cpu,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def run_child(cache: Path, files: list[Path]) -> tuple[float, dict[str, object]]:
    env = dict(os.environ, CASINO_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT))
    began = time.perf_counter()
    output = subprocess.run(
        [sys.executable, "-c", CHILD, *map(str, files)], env=env, cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    return time.perf_counter() - began, json.loads(output)


def main() -> int:
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores (wall times stretch with it)")
    files = sorted(STANDARD.glob("*.json"))
    jacks = STANDARD / "jacks_or_better_9_6.json"
    others = [path for path in files if path != jacks]
    with tempfile.TemporaryDirectory() as cache:
        cold_wall, cold = run_child(Path(cache), [jacks])
        warm_wall, warm = run_child(Path(cache), [jacks, *others])
        # Deuces Wild needs its own wild-rank tables: built once, then cached like the others.
        _, after = run_child(Path(cache), [jacks, *others])
    further = after["further"]
    assert isinstance(further, list)
    print(
        f"cold: one paytable (Jacks or Better 9/6, return {cold['return']:.6f}) from an empty cache, "
        f"Python start-up included: {cold_wall:.2f} s wall, peak {cold['peak_mb']:.0f} MB"
    )
    print(
        f"disk cache: a new process analysing one paytable: {warm_wall - sum(warm['further']):.2f} s wall "
        f"(start-up included), peak {after['peak_mb']:.0f} MB for all {len(files)}"
    )
    cpu = after["cpu"]
    assert isinstance(cpu, list)
    for path, seconds, used in zip(others, further, cpu, strict=True):
        print(
            f"further paytable in a warm process: {path.stem:<24} {seconds * 1000:5.0f} ms wall, "
            f"{used * 1000:4.0f} ms CPU"
        )
    print(
        f"further paytables: max {max(further) * 1000:.0f} ms, mean {sum(further) / len(further) * 1000:.0f} ms; "
        f"limits 3 s cold, 0.3 s further, 1 GB"
    )
    print(
        f"(first run of a new wild-rank set builds its tables: "
        f"{max(warm['further']) * 1000:.0f} ms for Deuces Wild in the second process)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
