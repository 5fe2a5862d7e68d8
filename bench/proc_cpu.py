"""CPU time of benchmark processes from /proc: a process group (gunicorn, a Celery worker) or PostgreSQL backends."""

from __future__ import annotations

import os
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pids: set[int] | None = None, pgid: int | None = None) -> float:
    """CPU time (user + system, reaped children included) of the given processes or process group, from /proc."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # After the command name: state ppid pgrp ... utime(11) stime(12) cutime(13) cstime(14), zero-based.
        if (pids is not None and int(entry.name) in pids) or (pgid is not None and int(fields[2]) == pgid):
            total += sum(int(value) for value in fields[11:15])
    return total / TICKS


def database_backends(server_url: str, database: str) -> set[int]:
    """The process ids of PostgreSQL backends connected to `database` now."""
    import psycopg

    with psycopg.connect(server_url, autocommit=True) as conn:
        rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", [database]).fetchall()
    return {int(row[0]) for row in rows}
