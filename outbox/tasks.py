"""Celery job of the outbox: the sweeper that sends every job whose lease ran out (beat runs it every few seconds)."""

from __future__ import annotations

from casino.celery import app
from outbox.jobs import outbox_sweep


@app.task(name="outbox.sweep", ignore_result=True)
def sweep() -> int:
    """Send again what the broker, a killed worker or a lost database left undone; safe to run anywhere, twice."""
    return outbox_sweep()
