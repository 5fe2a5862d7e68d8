"""Paytable analysis speed: the whole `manage.py analyze_paytable FILE` command from a cold and a warm cache (CPU of
the child process, Django start-up included), then the engine alone: one paytable from cold, from the disk cache in
a new process, further paytables in a warm process; peak memory of each process."""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

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


def run_child(cache: Path, files: list[Path]) -> tuple[float, dict[str, Any]]:
    """Run one analysis process; its wall time (start-up included), and its figures plus its CPU time."""
    env = dict(os.environ, CASINO_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    output = subprocess.run(
        [sys.executable, "-c", CHILD, *map(str, files)], env=env, cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    figures = json.loads(output)
    figures["process_cpu"] = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, figures


COMMAND_RUNS = int(os.environ.get("BENCH_COMMAND_RUNS", "7"))
COMMAND_LIMITS = {"cold": 1.4, "warm": 0.5}  # seconds of CPU, whole command (issue 17)


def run_command(cache: Path, paytable: Path) -> tuple[float, float, float]:
    """`manage.py analyze_paytable FILE` as users run it: (wall, user CPU, system CPU) of the child process."""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"} | {"CASINO_CACHE_DIR": str(cache)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    subprocess.run(
        [sys.executable, "manage.py", "analyze_paytable", str(paytable)],
        env=env,
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime


def bench_command(jacks: Path) -> None:
    """Cold: every run starts from an empty cache (the tables are built and written). Warm: the cache is filled."""
    for label in ("cold", "warm"):
        runs = []
        with tempfile.TemporaryDirectory() as warm_cache:
            if label == "warm":
                run_command(Path(warm_cache), jacks)  # fills the cache
            for _ in range(COMMAND_RUNS):
                if label == "cold":
                    with tempfile.TemporaryDirectory() as cold_cache:
                        runs.append(run_command(Path(cold_cache), jacks))
                else:
                    runs.append(run_command(Path(warm_cache), jacks))
        cpu = sorted(user + system for _, user, system in runs)
        print(
            f"manage.py analyze_paytable {jacks.name}, {label} cache, {COMMAND_RUNS} runs: CPU (user+sys of the "
            f"process) min {cpu[0]:.2f} s, median {statistics.median(cpu):.2f} s, max {cpu[-1]:.2f} s "
            f"(user median {statistics.median(u for _, u, _ in runs):.2f} s, sys median "
            f"{statistics.median(s for _, _, s in runs):.2f} s); "
            f"wall median {statistics.median(w for w, _, _ in runs):.2f} s; limit {COMMAND_LIMITS[label]} s"
        )


def main() -> int:
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores (wall times stretch with it)")
    files = sorted(STANDARD.glob("*.json"))
    jacks = STANDARD / "jacks_or_better_9_6.json"
    others = [path for path in files if path != jacks]
    deuces = others.index(STANDARD / "deuces_wild_full_pay.json")
    bench_command(jacks)
    print(f"load average after the command runs: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as cache:
        cold_wall, cold = run_child(Path(cache), [jacks])
        _, first = run_child(Path(cache), [jacks, *others])  # builds the Deuces Wild (wild 2s) tables on the way
        disk_wall, disk = run_child(Path(cache), [jacks])
        _, warm = run_child(Path(cache), [jacks, *others])
    further, cpu = warm["further"], warm["cpu"]
    peak = max(run["peak_mb"] for run in (cold, first, disk, warm))
    print(
        f"cold: one paytable (Jacks or Better 9/6, return {cold['return']:.6f}) from an empty cache, Python "
        f"start-up included: {cold_wall:.2f} s wall, {cold['process_cpu']:.2f} s CPU"
    )
    print(
        f"disk cache: one paytable in a new process, start-up included: {disk_wall:.2f} s wall, "
        f"{disk['process_cpu']:.2f} s CPU"
    )
    for path, seconds, used in zip(others, further, cpu, strict=True):
        print(
            f"further paytable, warm process: {path.stem:<24} {seconds * 1000:5.0f} ms wall, {used * 1000:4.0f} ms CPU"
        )
    print(f"further paytables: max {max(further) * 1000:.0f} ms wall, mean {sum(further) / len(further) * 1000:.0f} ms")
    print(
        f"first paytable of a new wild-rank set (Deuces Wild, tables built): {first['further'][deuces] * 1000:.0f} ms"
    )
    print(f"peak memory of any analysis process: {peak:.0f} MB")
    print("limits: 3 s cold, 0.3 s per further paytable, 1 GB")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
