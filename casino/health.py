"""/healthz: JSON status of the database and the Celery broker, and what waits for the broker or a worker (rounds
to settle, outbox jobs), for load balancers and monitoring."""

from __future__ import annotations

import logging
import time
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from casino import broker
from outbox.jobs import outbox_sweep, outbox_waiting
from tables.models import Round

logger = logging.getLogger(__name__)
_last_sweep = [0.0]


def _database_status() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        return f"error: {exc.__class__.__name__}"
    return "ok"


def _broker_status() -> str:
    if not settings.REDIS_URL:
        return "eager"
    import redis

    try:
        client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1)
        client.ping()
    except redis.RedisError as exc:
        return f"error: {exc.__class__.__name__}"
    return "ok"


def _waiting() -> dict[str, Any]:
    """Rounds whose rows are recorded but not yet settled, and the outbox's jobs (casino/outbox)."""
    return {"rounds_settling": Round.objects.filter(phase=Round.Phase.SETTLING).count(), **outbox_waiting()}


def _sweep_if_overdue(waiting: dict[str, Any]) -> None:
    """The broker answers and jobs are overdue (it was down): this web process sends them now, at most every
    OUTBOX_SWEEP_SECONDS, rather than wait for beat."""
    interval = float(getattr(settings, "OUTBOX_SWEEP_SECONDS", 5))
    if not waiting["overdue"] or time.monotonic() - _last_sweep[0] < interval:
        return
    _last_sweep[0] = time.monotonic()
    try:
        waiting["sent_now"] = outbox_sweep()
    except Exception:  # a health check reports; it never fails because a sweep did
        logger.exception("outbox sweep from /healthz failed")


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    database = _database_status()
    broker_status = _broker_status()
    # Without a database nothing works; a broker outage only delays settlement, so it degrades, not fails.
    status = 200 if database == "ok" else 503
    ok = database == "ok" and broker_status in {"ok", "eager"}
    overall = "ok" if ok else ("degraded" if status == 200 else "down")
    body: dict[str, Any] = {"status": overall, "database": database, "broker": broker_status}
    if database == "ok":
        try:
            body["waiting"] = _waiting()
        except DatabaseError as exc:
            body["waiting"] = f"error: {exc.__class__.__name__}"
        else:
            if broker_status == "ok" and broker.reachable():
                _sweep_if_overdue(body["waiting"])
    return JsonResponse(body, status=status)
