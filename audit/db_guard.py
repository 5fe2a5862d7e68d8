"""Database triggers that make audit rows and chain checks append-only (PostgreSQL and SQLite); one bypass: flush."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

TABLE = "audit_auditevent"
# The columns the sealing UPDATE may fill, once, while they are still empty.
SEAL_COLUMNS = ("sequence", "prev_hash", "hash")
UPDATE_REFUSED = "audit events are append-only: UPDATE refused (only sealing an unsealed row is allowed)"
DELETE_REFUSED = "audit events are append-only: DELETE refused"
TRUNCATE_REFUSED = "audit events are append-only: TRUNCATE refused"
# The stored chain checks: a rewritten "last good head" would hide a recomputed chain, so they never change.
CHECK_TABLE = "audit_chainverification"
CHECK_REFUSED = "audit chain checks are append-only: UPDATE, DELETE and TRUNCATE refused"

# `manage.py flush` (a whole-database reset, used between transactional tests) is the only bypass.
_bypass = threading.local()

_POSTGRES_FUNCTION = f"""
CREATE OR REPLACE FUNCTION audit_event_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        IF coalesce(current_setting('audit.flush', true), '') = 'on' THEN
            RETURN NULL;
        END IF;
        RAISE EXCEPTION '{TRUNCATE_REFUSED}' USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION '{DELETE_REFUSED}' USING ERRCODE = 'insufficient_privilege';
    END IF;
    -- The "columns" trigger fires when an UPDATE names any column other than the three seal columns.
    IF TG_ARGV[0] = 'seal'
       AND OLD.sequence IS NULL AND OLD.hash = '' AND OLD.prev_hash = ''
       AND NEW.sequence IS NOT NULL AND NEW.hash <> '' THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION '{UPDATE_REFUSED}' USING ERRCODE = 'insufficient_privilege';
END;
$$;
"""


_POSTGRES_CHECK_FUNCTION = f"""
CREATE OR REPLACE FUNCTION audit_check_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' AND coalesce(current_setting('audit.flush', true), '') = 'on' THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION '{CHECK_REFUSED}' USING ERRCODE = 'insufficient_privilege';
END;
$$;
"""


def _postgres_check_statements() -> list[str]:
    return [
        _POSTGRES_CHECK_FUNCTION,
        f"DROP TRIGGER IF EXISTS audit_check_append_only_rows ON {CHECK_TABLE}",
        f"CREATE TRIGGER audit_check_append_only_rows BEFORE UPDATE OR DELETE ON {CHECK_TABLE} "
        "FOR EACH ROW EXECUTE FUNCTION audit_check_append_only()",
        f"DROP TRIGGER IF EXISTS audit_check_append_only_truncate ON {CHECK_TABLE}",
        f"CREATE TRIGGER audit_check_append_only_truncate BEFORE TRUNCATE ON {CHECK_TABLE} "
        "FOR EACH STATEMENT EXECUTE FUNCTION audit_check_append_only()",
    ]


def _sqlite_check_statements() -> list[str]:
    return [
        "DROP TRIGGER IF EXISTS audit_check_no_update",
        f"CREATE TRIGGER audit_check_no_update BEFORE UPDATE ON {CHECK_TABLE} "
        f"BEGIN SELECT RAISE(ABORT, '{CHECK_REFUSED}'); END",
        "DROP TRIGGER IF EXISTS audit_check_no_delete",
        f"CREATE TRIGGER audit_check_no_delete BEFORE DELETE ON {CHECK_TABLE} "
        f"WHEN audit_flush_bypass() = 0 BEGIN SELECT RAISE(ABORT, '{CHECK_REFUSED}'); END",
    ]


def _postgres_statements(columns: list[str]) -> list[str]:
    # Sealing may name only the seal columns (UPDATE OF fires on any other column in the SET list, changed or
    # not); that is cheaper per row than comparing whole rows, and it is rebuilt after every migrate so new
    # columns are covered.
    others = ", ".join(f'"{c}"' for c in columns if c not in SEAL_COLUMNS)
    return [
        _POSTGRES_FUNCTION,
        f"DROP TRIGGER IF EXISTS audit_event_append_only_rows ON {TABLE}",
        f"CREATE TRIGGER audit_event_append_only_rows BEFORE UPDATE OR DELETE ON {TABLE} "
        "FOR EACH ROW EXECUTE FUNCTION audit_event_append_only('seal')",
        f"DROP TRIGGER IF EXISTS audit_event_append_only_columns ON {TABLE}",
        f"CREATE TRIGGER audit_event_append_only_columns BEFORE UPDATE OF {others} ON {TABLE} "
        "FOR EACH ROW EXECUTE FUNCTION audit_event_append_only('columns')",
        f"DROP TRIGGER IF EXISTS audit_event_append_only_truncate ON {TABLE}",
        f"CREATE TRIGGER audit_event_append_only_truncate BEFORE TRUNCATE ON {TABLE} "
        "FOR EACH STATEMENT EXECUTE FUNCTION audit_event_append_only('truncate')",
    ]


def _sqlite_statements(columns: list[str]) -> list[str]:
    # SQLite has no row-to-JSON, so the trigger names every column; it is rebuilt after every migrate
    # (a SQLite table rebuild drops triggers, and new columns must be covered).
    unchanged = " AND ".join(f'NEW."{c}" IS OLD."{c}"' for c in columns if c not in SEAL_COLUMNS)
    sealing = (
        "OLD.sequence IS NULL AND OLD.hash = '' AND OLD.prev_hash = '' "
        f"AND NEW.sequence IS NOT NULL AND NEW.hash <> '' AND {unchanged}"
    )
    return [
        "DROP TRIGGER IF EXISTS audit_event_no_update",
        f"CREATE TRIGGER audit_event_no_update BEFORE UPDATE ON {TABLE} "
        f"WHEN NOT ({sealing}) BEGIN SELECT RAISE(ABORT, '{UPDATE_REFUSED}'); END",
        "DROP TRIGGER IF EXISTS audit_event_no_delete",
        # audit_flush_bypass() exists only on Django's connections; any other client fails closed.
        f"CREATE TRIGGER audit_event_no_delete BEFORE DELETE ON {TABLE} "
        f"WHEN audit_flush_bypass() = 0 BEGIN SELECT RAISE(ABORT, '{DELETE_REFUSED}'); END",
    ]


def install(connection: Any) -> None:
    """Create (or refresh) the append-only triggers on this connection's database; idempotent."""
    tables = connection.introspection.table_names()
    if TABLE not in tables:
        return
    with connection.cursor() as cursor:
        columns = [col.name for col in connection.introspection.get_table_description(cursor, TABLE)]
        checks = CHECK_TABLE in tables
        if connection.vendor == "postgresql":
            statements = _postgres_statements(columns) + (_postgres_check_statements() if checks else [])
        elif connection.vendor == "sqlite":
            register_sqlite_functions(connection)
            statements = _sqlite_statements(columns) + (_sqlite_check_statements() if checks else [])
        else:
            raise RuntimeError(f"audit triggers are not written for {connection.vendor}")
        for statement in statements:
            cursor.execute(statement)


def uninstall(connection: Any) -> None:
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"DROP TRIGGER IF EXISTS audit_event_append_only_rows ON {TABLE}")
            cursor.execute(f"DROP TRIGGER IF EXISTS audit_event_append_only_columns ON {TABLE}")
            cursor.execute(f"DROP TRIGGER IF EXISTS audit_event_append_only_truncate ON {TABLE}")
            cursor.execute("DROP FUNCTION IF EXISTS audit_event_append_only()")
            cursor.execute(f"DROP TRIGGER IF EXISTS audit_check_append_only_rows ON {CHECK_TABLE}")
            cursor.execute(f"DROP TRIGGER IF EXISTS audit_check_append_only_truncate ON {CHECK_TABLE}")
            cursor.execute("DROP FUNCTION IF EXISTS audit_check_append_only()")
        else:
            cursor.execute("DROP TRIGGER IF EXISTS audit_event_no_update")
            cursor.execute("DROP TRIGGER IF EXISTS audit_event_no_delete")
            cursor.execute("DROP TRIGGER IF EXISTS audit_check_no_update")
            cursor.execute("DROP TRIGGER IF EXISTS audit_check_no_delete")


def _flush_bypass() -> int:
    return 1 if getattr(_bypass, "on", False) else 0


def register_sqlite_functions(connection: Any) -> None:
    connection.ensure_connection()
    connection.connection.create_function("audit_flush_bypass", 0, _flush_bypass)


def on_connection_created(sender: Any, connection: Any, **kwargs: Any) -> None:
    """connection_created receiver: SQLite connections need the bypass function the trigger calls."""
    if connection.vendor == "sqlite":
        connection.connection.create_function("audit_flush_bypass", 0, _flush_bypass)


@contextlib.contextmanager
def flush_bypass(connection: Any) -> Iterator[None]:
    """Let this thread's `flush` empty the audit table (a whole-database reset, not an edit)."""
    _bypass.on = True
    postgres = connection.vendor == "postgresql"
    try:
        if postgres:
            with connection.cursor() as cursor:
                cursor.execute("SET audit.flush = 'on'")
        yield
    finally:
        _bypass.on = False
        if postgres:
            with connection.cursor() as cursor:
                cursor.execute("RESET audit.flush")
