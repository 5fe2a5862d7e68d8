"""Sending jobs without ever making a request wait on a broker that is down.

Celery, left to itself, retries a send for about 19 s when Redis is unreachable (the result store's reconnects
and kombu's own). Here a send first asks Redis with a short timeout; a failure marks the broker down in this
process for BROKER_DOWN_SECONDS, during which sends give up at once (the outbox and the beat jobs send what
waited). The first send that finds the broker back calls the recovery hooks (the outbox sweeper).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings

logger = logging.getLogger(__name__)

# Short on purpose: a healthy local Redis answers in well under a millisecond.
PING_TIMEOUT_SECONDS = 0.5
# One short, bounded retry for a stale pooled connection (Redis restarted); never Celery's long default.
RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}

_lock = threading.Lock()
_import_lock = threading.Lock()
# A broker that answered within the last second is taken as up without asking again (busy tables send often).
UP_SECONDS = 1.0

_state: dict[str, Any] = {"down_until": 0.0, "up_until": 0.0, "was_down": False, "client": None}
_recovery_hooks: list[Callable[[], Any]] = []


def on_recovery(hook: Callable[[], Any]) -> None:
    """Call `hook()` (in the sending process) when a send finds the broker back after an outage."""
    if hook not in _recovery_hooks:
        _recovery_hooks.append(hook)


def _eager() -> bool:
    return bool(getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False)) or not settings.REDIS_URL


def _down_seconds() -> float:
    return float(getattr(settings, "BROKER_DOWN_SECONDS", 5))


def mark_down(reason: object) -> None:
    """Remember, in this process, that the broker failed: sends give up at once for a few seconds."""
    with _lock:
        _state["down_until"] = time.monotonic() + _down_seconds()
        _state["up_until"] = 0.0
        _state["was_down"] = True
    logger.warning("broker unreachable (%s): jobs wait in the outbox", reason)


def _ping() -> None:
    import redis

    with _lock:
        if _state["client"] is None:
            _state["client"] = redis.Redis.from_url(
                settings.REDIS_URL, socket_timeout=PING_TIMEOUT_SECONDS, socket_connect_timeout=PING_TIMEOUT_SECONDS
            )
        client = _state["client"]
    client.ping()


def reachable() -> bool:
    """Is the broker up? Answers within PING_TIMEOUT_SECONDS, and at once while it is known to be down."""
    if _eager():
        return True
    now = time.monotonic()
    if now < _state["down_until"]:
        return False
    if now < _state["up_until"]:
        return True
    try:
        _ping()
    except Exception as exc:  # any failure to answer counts as down
        mark_down(exc)
        return False
    _state["up_until"] = time.monotonic() + UP_SECONDS
    _recovered()
    return True


def _recovered() -> None:
    with _lock:
        recovered, _state["was_down"] = _state["was_down"], False
    if not recovered:
        return
    logger.info("broker reachable again: sending the jobs that waited")
    for hook in list(_recovery_hooks):
        try:
            hook()
        except Exception:  # a hook's failure must not fail the send that found the broker back
            logger.exception("broker recovery hook %r failed", hook)


def _registered(task_name: str) -> Any:
    """The task registered under this name in this process, importing the task modules once if needed; None if
    it is still missing (another thread may be half-way through importing them)."""
    from casino.celery import app

    if task_name not in app.tasks:
        # Services name jobs rather than import them: a web process may not have imported the tasks modules yet.
        # Under a lock: a fresh server's first concurrent requests all get here at once.
        with _import_lock:
            if task_name not in app.tasks:
                app.loader.import_default_modules()
    return app.tasks.get(task_name)


def send(task_name: str, args: Sequence[Any] = (), kwargs: dict[str, Any] | None = None, **options: Any) -> bool:
    """Send one registered task; False (logged) when the broker is down. Eagerly, the task runs here and its
    errors propagate as Celery's eager mode makes them."""
    from casino.celery import app

    task = _registered(task_name)
    if _eager():
        if task is None:
            raise LookupError(f"no task {task_name!r} is registered")
        task.apply_async(tuple(args), kwargs or {}, **options)
        return True
    if not reachable():
        return False
    # No result subscription (ignore_result): with Redis gone, that alone retries for 19 s.
    options = options | {"ignore_result": True, "retry": True, "retry_policy": RETRY_POLICY}
    try:
        if task is not None:
            task.apply_async(tuple(args), kwargs or {}, **options)
        else:
            # By name (routing is by name too): a job must never fail because this process has not finished
            # importing the module that defines it (seen as a 500 after a committed write).
            app.send_task(task_name, tuple(args), kwargs or {}, **options)
    except Exception as exc:  # kombu's OperationalError and redis errors alike
        mark_down(exc)
        return False
    return True
