"""A real streaming replica for the router tests: the `replica` alias pointed at it, replay paused and resumed.

CI starts the replica (deploy/pg-replica) and exports TEST_DATABASE_REPLICA_URL (its server; the test database's
name is filled in here). Without it the tests skip, or fail under REQUIRE_REPLICA=1, which CI sets.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

import psycopg
import pytest
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper

from casino.db_router import REPLICA, forget_replica_health

REPLICA_URL = os.environ.get("TEST_DATABASE_REPLICA_URL", "")


def require_replica_url() -> str:
    if not REPLICA_URL:
        message = "a PostgreSQL streaming replica is required (TEST_DATABASE_REPLICA_URL; CI starts one)"
        if os.environ.get("REQUIRE_REPLICA") == "1":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return REPLICA_URL


def replica_alias_settings(host: str, port: int) -> dict[str, Any]:
    """The `replica` alias for the test database (same name and user as the primary's, another server)."""
    primary = connections[DEFAULT_DB_ALIAS].settings_dict
    raw = {
        "ENGINE": primary["ENGINE"],
        "NAME": primary["NAME"],
        "USER": primary["USER"],
        "PASSWORD": primary["PASSWORD"],
        "HOST": host,
        "PORT": str(port),
        "OPTIONS": {"connect_timeout": 2},
    }
    return dict(connections.configure_settings({DEFAULT_DB_ALIAS: dict(primary), REPLICA: raw})[REPLICA])


def _unguarded_ensure_connection() -> Any:
    """Django's own ensure_connection, which its test case wraps to refuse aliases the test did not declare.

    The `replica` alias cannot be declared: it does not exist when the test case is set up (it is added here, so
    the rest of the suite runs without one), and a declared alias would be flushed after the test, which a
    read-only replica refuses.
    """
    current = BaseDatabaseWrapper.ensure_connection
    if current.__closure__ is None:
        return current
    cells = dict(zip(current.__code__.co_freevars, (cell.cell_contents for cell in current.__closure__), strict=True))
    return cells.get("real_ensure_connection", current)


def _drop_replica_connection() -> None:
    if hasattr(connections._connections, REPLICA):  # the handler has no public way to ask
        connections[REPLICA].close()
        del connections[REPLICA]


@contextmanager
def replica_alias(host: str, port: int) -> Iterator[None]:
    """Point the `replica` alias at host:port, as DATABASE_REPLICA_URL would at start-up (nests; restores)."""
    previous = connections.settings.get(REPLICA)
    _drop_replica_connection()
    connections.settings[REPLICA] = replica_alias_settings(host, port)
    forget_replica_health()
    guarded = BaseDatabaseWrapper.ensure_connection
    BaseDatabaseWrapper.ensure_connection = _unguarded_ensure_connection()  # type: ignore[method-assign]
    try:
        yield
    finally:
        BaseDatabaseWrapper.ensure_connection = guarded  # type: ignore[method-assign]
        _drop_replica_connection()
        if previous is None:
            del connections.settings[REPLICA]
        else:
            connections.settings[REPLICA] = previous
        forget_replica_health()


class Replica:
    """Control of the real replica over its own superuser connection."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 5432
        self.user = parts.username or "postgres"

    def _sql(self, statement: str) -> Any:
        with psycopg.connect(
            host=self.host, port=self.port, user=self.user, dbname="postgres", autocommit=True, connect_timeout=5
        ) as conn:
            return conn.execute(statement).fetchone()

    def pause(self) -> None:
        self._sql("SELECT pg_wal_replay_pause()")

    def resume(self) -> None:
        self._sql("SELECT pg_wal_replay_resume()")

    def primary_lsn(self) -> str:
        with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            cursor.execute("SELECT pg_current_wal_lsn()::text")
            return str(cursor.fetchone()[0])

    def wait_received(self, lsn: str, seconds: float = 20) -> None:
        self._wait(f"SELECT pg_last_wal_receive_lsn() >= '{lsn}'::pg_lsn", seconds)

    def wait_replayed(self, seconds: float = 20) -> None:
        self._wait(f"SELECT pg_last_wal_replay_lsn() >= '{self.primary_lsn()}'::pg_lsn", seconds)

    def _wait(self, query: str, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while not self._sql(query)[0]:
            if time.monotonic() > deadline:
                raise AssertionError(f"replica did not get there in {seconds}s: {query}")
            time.sleep(0.05)
