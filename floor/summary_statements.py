"""The floor summaries' statements, written out: per table, UTC hour, dealer and paytable version, the Triple Draw
figures of the ledger; the job's hour and shift rows replaced; the writers' lock. The summary job runs them after
every settlement (Django building its grouped queries cost more CPU than the database running them), and the bulk
rebuild runs the same statements over a week of every table, so there is one definition of each figure.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime
from functools import cache
from typing import Any

from django.db import connection

from casino import sql
from floor.models import DealerSession, TableHour, TableShift
from tables.models import Bet, LedgerAccount, LedgerEntry, Round, Table

# pg_advisory_xact_lock(namespace, table id): refreshes of one table's rows queue behind each other ("floo").
SUMMARY_LOCK = 0x666C6F6F

# The figures both summaries keep (floor.models.SummaryFigures); a shift row adds up its hour rows' figures.
FIGURES = (
    "rounds",
    "handle_cents",
    "paid_cents",
    "win_cents",
    "stake_squares",
    "hands",
    "games",
    "pots_cents",
    "rake_cents",
    "time_charge_cents",
)

# table, UTC hour, dealer, paytable, rounds, handle, win, sum of squared stakes
TripleDrawRow = tuple[int, datetime, int | None, int | None, int, int, int, int]


def lock_tables(table_ids: Iterable[int]) -> None:
    """Serialize summary writers per table (PostgreSQL: advisory locks held to commit, taken in id order)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            for table_id in sorted(set(table_ids)):
                cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [SUMMARY_LOCK, table_id])


def table_type_locked(table_id: int) -> str | None:
    """The table's type (None: no such table), after taking its summary lock (held to commit)."""
    # The lock is taken before anything is read, so later statements see every posting committed before it.
    lock_tables([table_id])
    where = f"WHERE {sql.column(Table, 'pk')} = %s"
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {sql.column(Table, 'table_type')} FROM {sql.table(Table)} {where}", [table_id])  # noqa: S608
        row = cursor.fetchone()
    return None if row is None else str(row[0])


def utc_hour_sql(column_sql: str) -> tuple[str, tuple[Any, ...]]:
    """This database's SQL for the UTC hour a datetime column falls in, and its parameters (Django's own Trunc)."""
    # Django 4.2+ returns (sql, params); the type stubs still say str.
    truncated: Any = connection.ops.datetime_trunc_sql("hour", column_sql, (), "UTC")
    return str(truncated[0]), tuple(truncated[1])


def utc_hour_read(value: Any) -> datetime:
    """An hour read back from utc_hour_sql as an aware UTC datetime (PostgreSQL: naive UTC timestamp; SQLite: text)."""
    moment = datetime.fromisoformat(value) if isinstance(value, str) else value
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


@cache
def _triple_draw_sql(tables: int, vendor: str) -> tuple[str, tuple[Any, ...]]:
    e, r, b, s = (sql.table(m) for m in (LedgerEntry, Round, Bet, DealerSession))
    stake = f"CAST(b.{sql.column(Bet, 'amount_cents')} AS BIGINT)"
    hour, hour_params = utc_hour_sql(f"e.{sql.column(LedgerEntry, 'posted_at')}")
    # The dealer is the round's, else the one signed in at the table when the round started.
    signed_in = (
        f"SELECT s.{sql.column(DealerSession, 'dealer')} FROM {s} s "  # noqa: S608 (metadata)
        f"WHERE s.{sql.column(DealerSession, 'table')} = e.{sql.column(LedgerEntry, 'table')} "
        f"AND s.{sql.column(DealerSession, 'signed_in_at')} <= r.{sql.column(Round, 'started_at')} "
        f"AND (s.{sql.column(DealerSession, 'signed_out_at')} IS NULL "
        f"OR s.{sql.column(DealerSession, 'signed_out_at')} > r.{sql.column(Round, 'started_at')}) "
        f"ORDER BY s.{sql.column(DealerSession, 'signed_in_at')} DESC LIMIT 1"
    )
    # Grouped by position: the hour's expression carries parameters, which would not match a repeated copy.
    statement = (
        f"SELECT e.{sql.column(LedgerEntry, 'table')}, {hour}, "  # noqa: S608 (metadata)
        f"COALESCE(r.{sql.column(Round, 'dealer')}, ({signed_in})), r.{sql.column(Round, 'paytable')}, "
        f"COUNT(DISTINCT e.{sql.column(LedgerEntry, 'round')}), SUM({stake}), "
        f"SUM(e.{sql.column(LedgerEntry, 'amount_cents')}), SUM({stake} * {stake}) "
        f"FROM {e} e JOIN {r} r ON r.{sql.column(Round, 'pk')} = e.{sql.column(LedgerEntry, 'round')} "
        f"JOIN {b} b ON b.{sql.column(Bet, 'pk')} = e.{sql.column(LedgerEntry, 'bet')} "
        f"WHERE e.{sql.column(LedgerEntry, 'table')} IN ({sql.placeholders(tables)}) "
        f"AND e.{sql.column(LedgerEntry, 'account')} = %s "
        f"AND e.{sql.column(LedgerEntry, 'posted_at')} >= %s AND e.{sql.column(LedgerEntry, 'posted_at')} < %s "
        "GROUP BY 1, 2, 3, 4"
    )
    return statement, hour_params


def triple_draw_figures(table_ids: Iterable[int], start: datetime, end: datetime) -> list[TripleDrawRow]:
    """Per (table, UTC hour, dealer, paytable version locked on the round): rounds, handle, win and the sum of squared
    stakes posted to these tables' bankrolls in [start, end). Each bet posts one table-bankroll leg: stake - paid; the
    stake is the bet's amount."""
    ids = sorted(set(table_ids))
    if not ids:
        return []
    statement, hour_params = _triple_draw_sql(len(ids), connection.vendor)
    ops = connection.ops
    params: list[Any] = [*hour_params, *ids, LedgerAccount.TABLE_BANKROLL.value]
    params += [ops.adapt_datetimefield_value(start), ops.adapt_datetimefield_value(end)]
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        rows = cursor.fetchall()
    return [
        (int(table), utc_hour_read(hour), _id(dealer), _id(paytable), int(rounds), int(handle), int(win), int(squares))
        for table, hour, dealer, paytable, rounds, handle, win, squares in rows
    ]


def _id(value: Any) -> int | None:
    return None if value is None else int(value)


def hour_rows_replace(table_id: int, hour_start: datetime, rows: list[TableHour]) -> None:
    """The table's summary rows of this hour become these."""
    where = f"{sql.column(TableHour, 'table')} = %s AND {sql.column(TableHour, 'hour_start')} = %s"
    with connection.cursor() as cursor:
        cursor.execute(
            f"DELETE FROM {sql.table(TableHour)} WHERE {where}",  # noqa: S608 (metadata)
            [table_id, connection.ops.adapt_datetimefield_value(hour_start)],
        )
    sql.insert_rows(rows)


def shift_rows_replace(table_id: int, day: date, shift: str, now: datetime) -> None:
    """The table's shift rows of this gaming day and shift become its hour rows there, added up per paytable."""
    h, s = sql.table(TableHour), sql.table(TableShift)
    keys = [sql.column(TableShift, name) for name in ("table", "gaming_day", "shift", "paytable")]
    figures = [sql.column(TableShift, name) for name in FIGURES]
    where = " AND ".join(f"{key} = %s" for key in keys[:3])
    params = [table_id, connection.ops.adapt_datefield_value(day), shift]
    sums = ", ".join(f"SUM({name})" for name in figures)
    insert = (
        f"INSERT INTO {s} ({', '.join(keys + figures)}, {sql.column(TableShift, 'updated_at')}) "  # noqa: S608
        f"SELECT {', '.join(keys)}, {sums}, %s FROM {h} WHERE {where} GROUP BY {', '.join(keys)}"
    )
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {s} WHERE {where}", params)  # noqa: S608 (metadata)
        cursor.execute(insert, [connection.ops.adapt_datetimefield_value(now), *params])
