"""Edit audit rows behind the triggers' back, the way an attacker with database rights would."""

from __future__ import annotations

from typing import Any

from django.db import connection

from audit import db_guard


def tamper(sql: str, params: list[Any] | None = None, *, table: str = db_guard.TABLE) -> None:
    """Run `sql` with the append-only triggers of `table` disabled (as its owner may), then put them back."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
            try:
                cursor.execute(sql, params or [])
            finally:
                cursor.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")
        else:
            db_guard.uninstall(connection)
            try:
                cursor.execute(sql, params or [])
            finally:
                db_guard.install(connection)
