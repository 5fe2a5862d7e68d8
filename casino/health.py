"""/healthz: JSON status of the database and the Celery broker, for load balancers and monitoring."""

from __future__ import annotations

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET


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


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    database = _database_status()
    broker = _broker_status()
    # Without a database nothing works; a broker outage only delays settlement, so it degrades, not fails.
    status = 200 if database == "ok" else 503
    overall = "ok" if database == "ok" and broker in {"ok", "eager"} else ("degraded" if status == 200 else "down")
    return JsonResponse({"status": overall, "database": database, "broker": broker}, status=status)
