"""Reads that may be a little stale go to the PostgreSQL streaming replica; everything else stays on the primary.

A view (or a report job) opts in with `@replica_reads` or `with stale_reads_allowed():`. Inside it, reads go to
the `replica` alias (DATABASE_REPLICA_URL) when it answers and is at most DATABASE_REPLICA_MAX_LAG_SECONDS
behind; otherwise to the primary. Every write, every read inside a transaction on the primary (so every read a
service makes: services are atomic) and every read after the block has written goes to the primary.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import wraps
from typing import Any, TypeVar

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.http import HttpRequest, StreamingHttpResponse
from django.http.response import HttpResponseBase

logger = logging.getLogger(__name__)

REPLICA = "replica"


class _StaleReads:
    """The alias an opted-in block reads from, and whether it has written (reads then follow the write)."""

    def __init__(self, alias: str) -> None:
        self.alias = alias
        self.wrote = False


# The stale-tolerant block the current context is in; None outside any (every read on the primary).
_reading_from: ContextVar[_StaleReads | None] = ContextVar("casino_stale_reads", default=None)

# Lag on the replica's clock when it has replayed less than the primary has written: the age of the last
# transaction it replayed. When it has replayed everything the primary has, it is not behind at all.
_LAG_SQL = """
SELECT CASE
    WHEN NOT pg_is_in_recovery() THEN 0.0
    WHEN pg_last_wal_replay_lsn() >= %s::pg_lsn THEN 0.0
    ELSE COALESCE(EXTRACT(EPOCH FROM clock_timestamp() - pg_last_xact_replay_timestamp())::float8, 1e9)
END
"""


class _Verdict:
    """The last health check of the replica in this process: (checked at, usable)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.checked_at = -1e18
        self.usable = False


_verdict = _Verdict()


def forget_replica_health() -> None:
    """Check the replica again on the next stale-tolerant read (tests, or after changing settings)."""
    with _verdict.lock:
        _verdict.checked_at = -1e18


def replica_configured() -> bool:
    return REPLICA in connections


def replica_lag_seconds() -> float:
    """How far the replica is behind the primary, in seconds (0 when it has replayed all the primary wrote).

    Raises DatabaseError when either does not answer. Comparing with the primary's WAL position catches a replica
    whose stream broke: it would report nothing left to replay while the primary moves on.
    """
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute("SELECT pg_current_wal_lsn()::text")
        primary_lsn = cursor.fetchone()[0]
    with connections[REPLICA].cursor() as cursor:
        cursor.execute(_LAG_SQL, [primary_lsn])
        return float(cursor.fetchone()[0])


def replica_usable() -> bool:
    """Is the replica up and within the lag bound? Checked at most every DATABASE_REPLICA_CHECK_SECONDS."""
    if not replica_configured():
        return False
    now = time.monotonic()
    with _verdict.lock:
        if now - _verdict.checked_at < settings.DATABASE_REPLICA_CHECK_SECONDS:
            return _verdict.usable
        try:
            lag = replica_lag_seconds()
            usable = lag <= settings.DATABASE_REPLICA_MAX_LAG_SECONDS
            if not usable:
                logger.warning("replica %.1f s behind the primary: stale-tolerant reads use the primary", lag)
        except DatabaseError as exc:
            logger.warning("replica unavailable (%s): stale-tolerant reads use the primary", exc)
            connections[REPLICA].close()  # a broken connection is reopened on the next check
            usable = False
        _verdict.checked_at, _verdict.usable = time.monotonic(), usable
        return usable


def stale_reads_alias() -> str:
    """The alias stale-tolerant reads would use right now: the replica if usable, else the primary."""
    return REPLICA if replica_usable() else DEFAULT_DB_ALIAS


@contextmanager
def stale_reads_allowed() -> Iterator[str]:
    """Reads in this block may come from the replica (decided once, on entry); yields the alias chosen."""
    state = _StaleReads(stale_reads_alias())
    token = _reading_from.set(state)
    try:
        yield state.alias
    finally:
        _reading_from.reset(token)


def _streamed_from(state: _StaleReads, chunks: Iterable[Any]) -> Iterator[Any]:
    """Iterate a streamed body's chunks in the view's block (the body is read after the view has returned)."""
    iterator = iter(chunks)
    while True:
        token = _reading_from.set(state)
        try:
            chunk = next(iterator)
        except StopIteration:
            return
        finally:
            _reading_from.reset(token)
        yield chunk


_Response = TypeVar("_Response", bound=HttpResponseBase)

def replica_reads(view: Callable[..., _Response]) -> Callable[..., _Response]:
    """View decorator: the view's reads may be a little stale (compliance screens, exports, floor reports).

    Put it innermost, under the sign-in and role checks; the user is loaded from the primary before the view
    runs, so a session that was just created, or a role just revoked, is never judged from a stale copy.
    A streamed response reads its rows from the same database as the view did.
    """

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> _Response:
        user = getattr(request, "user", None)
        if user is not None:
            bool(user.is_authenticated)  # evaluate the lazy user on the primary
        with stale_reads_allowed():
            state = _reading_from.get()
            response = view(request, *args, **kwargs)
        if isinstance(response, StreamingHttpResponse) and state is not None:
            response.streaming_content = _streamed_from(state, response.streaming_content)  # type: ignore[arg-type]
        return response

    return wrapper


class PrimaryReplicaRouter:
    """Django database router: writes and transactional reads on the primary; opted-in reads on the replica."""

    def db_for_read(self, model: Any, **hints: Any) -> str:
        state = _reading_from.get()
        if state is None or state.wrote or connections[DEFAULT_DB_ALIAS].in_atomic_block:
            return DEFAULT_DB_ALIAS
        return state.alias

    def db_for_write(self, model: Any, **hints: Any) -> str:
        state = _reading_from.get()
        if state is not None:
            state.wrote = True  # read your own writes: the rest of the block reads the primary
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool:
        return True  # both aliases hold the same data

    def allow_migrate(self, db: str, app_label: str, model_name: str | None = None, **hints: Any) -> bool:
        return db == DEFAULT_DB_ALIAS  # a replica replays the primary's schema; it is never migrated itself
