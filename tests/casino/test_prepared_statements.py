"""PostgreSQL prepares the statements the product repeats (DATABASE_PREPARED_STATEMENTS, on by default)."""

from __future__ import annotations

import pytest
from django.db import connection

from tables.models import Table

PROBE = 'FROM "tables_table" WHERE "tables_table"."name" = $'


def _prepared_statements() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


@pytest.mark.django_db
def test_a_statement_repeated_on_a_connection_is_prepared_once_and_reused(require_postgres: None) -> None:
    queryset = Table.objects.filter(name="prepared-probe")
    for _ in range(4):
        assert not queryset.exists()
    # Not yet: psycopg prepares a statement on its fifth use on a connection (prepare_threshold).
    assert not [s for s in _prepared_statements() if PROBE in s]
    for _ in range(3):
        assert not queryset.exists()
    mine = [s for s in _prepared_statements() if PROBE in s]
    # Parameters travel apart from the statement (server-side binding), so one statement serves every value.
    assert len(mine) == 1, mine
    assert not Table.objects.filter(name="another value").exists()
    assert len([s for s in _prepared_statements() if PROBE in s]) == 1
    assert "prepared-probe" not in " ".join(_prepared_statements())
