"""The beat schedule inside the web process, for the embedded demo (no broker, so no `celery beat`).

`make run` without REDIS_URL serves with eager Celery: nothing would seal stragglers, verify the chain or produce
the daily report. This thread reads the same CELERY_BEAT_SCHEDULE and runs each job in-process when it is due;
every job also runs once at start-up, so a fresh demo shows a verified chain and yesterday's report within seconds.
"""

from __future__ import annotations

import copy
import logging
import sys
import threading
import time
from datetime import datetime, timedelta
from typing import Any

from celery.schedules import BaseSchedule, schedule
from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

logger = logging.getLogger(__name__)
TICK_SECONDS = 5.0
_started = threading.Event()


def _as_schedule(value: Any, now: datetime) -> BaseSchedule:
    """The entry's schedule judged at `now` (a copy: the settings' own object is left alone)."""
    when = copy.copy(value) if isinstance(value, BaseSchedule) else schedule(timedelta(seconds=float(value)))
    when.nowfun = lambda: now  # type: ignore[attr-defined]  # Celery sets nowfun in __init__; its stubs miss it
    return when


def wanted() -> bool:
    """Only in the serving runserver process of an eager (broker-less) setup, and only when not switched off."""
    if not getattr(settings, "AUDIT_LOCAL_BEAT", False) or not getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
        return False
    if "runserver" not in sys.argv:
        return False
    import os

    # The autoreloader's parent only watches files; its child (RUN_MAIN) serves. --noreload serves in one process.
    return os.environ.get("RUN_MAIN") == "true" or "--noreload" in sys.argv


def run_due(last_run: dict[str, datetime], *, now: datetime | None = None) -> list[str]:
    """Run every job of the schedule that is due (by name); returns the names run."""
    from casino.celery import app

    moment = now or timezone.now()
    ran = []
    jobs: dict[str, dict[str, Any]] = settings.CELERY_BEAT_SCHEDULE
    for name, entry in jobs.items():
        when = _as_schedule(entry["schedule"], moment)
        previous = last_run.get(name)
        # Every job runs once at start-up (a demo started at noon still gets yesterday's report; each job is
        # idempotent), then when its schedule says.
        due = previous is None or when.is_due(previous)[0]
        if not due:
            continue
        last_run[name] = moment
        task = app.tasks.get(entry["task"])
        if task is None:
            continue
        try:
            task.apply(kwargs=entry.get("kwargs", {}))
            ran.append(name)
        except Exception as exc:  # one failing job must not stop the others or the thread; it runs again later
            logger.error("scheduled job %s failed: %s: %s", name, type(exc).__name__, exc)
    return ran


def _loop() -> None:
    last_run: dict[str, datetime] = {}
    time.sleep(2.0)  # let the server finish starting
    while True:
        run_due(last_run)
        close_old_connections()  # this thread's connection, as a request's would be
        time.sleep(TICK_SECONDS)


def start() -> bool:
    """Start the thread once per process, when wanted(); returns whether it runs."""
    if not wanted() or _started.is_set():
        return False
    _started.set()
    threading.Thread(target=_loop, name="local-beat", daemon=True).start()
    logger.info("running the beat schedule in-process (no broker): %s", ", ".join(settings.CELERY_BEAT_SCHEDULE))
    return True
