"""`.ci/run` works under names of its own and removes what it made, even when the tests fail.

The real `.ci/run` runs here with `make` replaced by a stand-in for `make test` that records the run's names,
creates what pytest-django and Celery would (the test database, a Redis key under the run's prefix), waits,
checks that its things are still there, and fails. Everything before and after the tests is the real script.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path
from typing import Any

import psycopg
import pytest
import redis

pytestmark = [pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
FAKE_MAKE = r"""#!/bin/sh
# Stand-in for `make test` (tests/casino/test_ci_run.py).
set -e
name="${DATABASE_URL##*/}"
redis_db="${REDIS_URL##*/}"
createdb -h 127.0.0.1 -p 5432 -U postgres "test_$name"
redis-cli -h 127.0.0.1 -p 6379 -n "$redis_db" set "${CELERY_KEY_PREFIX}probe" 1 >/dev/null
printf '%s\n%s\n%s\n' "$name" "$redis_db" "$CELERY_KEY_PREFIX" > "$FAKE_RECORD"
sleep "$FAKE_WAIT"
mine=$(psql -h 127.0.0.1 -p 5432 -U postgres -d postgres -tAc \
  "SELECT count(*) FROM pg_database WHERE datname IN ('$name', 'test_$name')")
key=$(redis-cli -h 127.0.0.1 -p 6379 -n "$redis_db" exists "${CELERY_KEY_PREFIX}probe")
echo "databases=$mine key=$key" >> "$FAKE_RECORD"
exit 3
"""


@pytest.fixture
def fake_make(tmp_path: Path, require_postgres: None, require_redis: str) -> Path:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    make = bin_dir / "make"
    make.write_text(FAKE_MAKE)
    make.chmod(0o755)
    return bin_dir


def start_ci(bin_dir: Path, record: Path, wait: float) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k not in {"CI_RUN_ID", "MAKEFLAGS", "MFLAGS", "MAKELEVEL"}}
    env |= {"PATH": f"{bin_dir}:{env['PATH']}", "FAKE_RECORD": str(record), "FAKE_WAIT": str(wait)}
    return subprocess.Popen(
        [str(ROOT / ".ci" / "run")], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


def finish(process: subprocess.Popen[str]) -> tuple[int, str]:
    output, _ = process.communicate(timeout=180)
    return process.returncode, output


def read_record(record: Path) -> dict[str, Any]:
    name, redis_db, prefix, checked = record.read_text().splitlines()
    return {"name": name, "redis_db": int(redis_db), "prefix": prefix, "checked": checked}


def leftovers(run: dict[str, Any]) -> tuple[list[str], list[bytes]]:
    with psycopg.connect("postgres://postgres@127.0.0.1:5432/postgres") as conn:
        rows = conn.execute(
            "SELECT datname FROM pg_database WHERE datname IN (%s, %s)", (run["name"], "test_" + run["name"])
        ).fetchall()
    keys = list(redis.Redis(host="127.0.0.1", port=6379, db=run["redis_db"]).scan_iter(match=run["prefix"] + "*"))
    return [row[0] for row in rows], keys


def test_a_run_whose_tests_fail_still_removes_its_databases_and_redis_keys(fake_make: Path, tmp_path: Path) -> None:
    status, output = finish(start_ci(fake_make, tmp_path / "run.txt", 0))
    run = read_record(tmp_path / "run.txt")
    assert status == 3, output  # the tests' failure is the run's result
    assert run["name"].startswith("casino_ci_")
    assert run["prefix"].startswith(run["name"])
    assert run["checked"] == "databases=2 key=1"
    assert leftovers(run) == ([], [])
    assert "removed this run's databases" in output


def test_two_runs_at_once_use_their_own_names_and_leave_each_other_alone(fake_make: Path, tmp_path: Path) -> None:
    slow = start_ci(fake_make, tmp_path / "slow.txt", 8)
    time.sleep(0.5)
    quick = start_ci(fake_make, tmp_path / "quick.txt", 0)
    (quick_status, quick_output), (slow_status, slow_output) = finish(quick), finish(slow)
    assert (quick_status, slow_status) == (3, 3), quick_output + slow_output
    first, second = read_record(tmp_path / "quick.txt"), read_record(tmp_path / "slow.txt")
    assert (quick_status, slow_status) == (3, 3), quick_output + slow_output
    assert first["name"] != second["name"]
    assert first["prefix"] != second["prefix"]
    # The quick run finished and cleaned up while the slow one was still testing: the slow one's things stayed.
    assert second["checked"] == "databases=2 key=1", slow_output
    assert leftovers(first) == ([], [])
    assert leftovers(second) == ([], [])
