"""A Celery task runs eagerly without a broker, and round-trips through a real worker on Redis."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_without_redis_url_a_task_runs_eagerly_in_process() -> None:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    code = (
        "import django; django.setup(); from casino.celery import ping, app; "
        "result = ping.delay(); print(app.conf.task_always_eager, result.get(timeout=1))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env | {"DJANGO_SETTINGS_MODULE": "casino.settings"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1].split() == ["True", "pong"]


@pytest.mark.django_db(transaction=True)
def test_a_task_round_trips_through_a_real_worker_on_redis(celery_worker: Any) -> None:
    from casino.celery import app, ping

    assert not app.conf.task_always_eager
    assert ping.delay().get(timeout=20) == "pong"


def test_a_job_this_process_has_not_imported_yet_is_sent_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh web process's first concurrent requests raced to import the task modules; the loser's lookup raised
    NotRegistered after its write had committed (a 500 for a recorded round, settled only by the sweeper)."""
    from casino import broker
    from casino.celery import app

    sent: list[tuple[str, tuple[Any, ...], dict[str, Any], dict[str, Any]]] = []
    monkeypatch.setattr(broker, "_eager", lambda: False)
    monkeypatch.setattr(broker, "reachable", lambda: True)
    monkeypatch.setattr(broker, "_registered", lambda name: None)  # still being imported by another thread
    monkeypatch.setattr(
        app, "send_task", lambda name, args, kwargs, **options: sent.append((name, args, kwargs, options))
    )
    assert broker.send("tables.settle_round", [5], {"outbox_id": 9}, priority=0)
    [(name, args, kwargs, options)] = sent
    assert (name, args, kwargs) == ("tables.settle_round", (5,), {"outbox_id": 9})
    assert options["priority"] == 0
    assert options["ignore_result"] is True
