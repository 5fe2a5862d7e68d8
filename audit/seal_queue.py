"""Coalescing of after-commit sealing jobs: at most one queued, not yet started seal job per database and queue."""

from __future__ import annotations

import logging
import threading
from typing import Any

from django.conf import settings
from django.db import connection

logger = logging.getLogger(__name__)

# Bounds how long a lost job (broker restart, worker killed before it started) can hold back the next one;
# the periodic straggler job seals whatever such a loss leaves behind.
PENDING_MS = 2000

_client: Any = None
_client_lock = threading.Lock()


def _redis() -> Any:
    global _client
    with _client_lock:
        if _client is None:
            import redis

            _client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=0.5, socket_connect_timeout=0.5)
        return _client


def pending_key(queue: str) -> str:
    return f"audit:seal-pending:{connection.settings_dict['NAME']}:{queue}"


def claim(queue: str) -> tuple[bool, str]:
    """(queue a job?, the key the job must release when it starts).

    A commit whose claim fails needs no job of its own: the pending job releases the key before it reads the
    unsealed events, so it sees every event committed before that release, including this commit's.
    """
    if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False) or not settings.REDIS_URL:
        return True, ""  # eager: the job runs right here, nothing to coalesce
    key = pending_key(queue)
    try:
        return bool(_redis().set(key, "1", nx=True, px=PENDING_MS)), key
    except Exception as exc:  # robust: without Redis's answer, queue the job as if nothing were pending
        # One line: while Redis is down every audited write gets here, and a traceback each time buried the log.
        logger.warning("could not check for a pending seal job (%s: %s); queueing one", type(exc).__name__, exc)
        return True, ""


def release(key: str) -> None:
    """Called by the job before it reads: any commit from now on queues a job of its own."""
    if not key:
        return
    try:
        _redis().delete(key)
    except Exception:  # the key expires by itself within PENDING_MS
        logger.warning("could not release the pending seal key %s", key, exc_info=True)
