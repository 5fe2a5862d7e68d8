"""Keeping the summary rows (floor.models TableHour and TableShift): refresh one table's hour, and the shift it falls
in, as money is posted there; rebuild a range of gaming days from the ledger in bulk.

Summary rows are derived data: each is recomputed whole from the ledger (and the home-game source), never
incremented, so a job run twice, late or concurrently leaves the same rows. Refreshing them changes no business
record, so it writes no audit event; the rebuild command records one, as an operator's act.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.db import connection, transaction
from django.db.models import QuerySet, Sum
from django.utils import timezone

from floor.gaming_day import day_window, gaming_day, hour_bucket, shift_code
from floor.models import TableHour, TableShift
from floor.sources import home_figures
from floor.summary_statements import (
    FIGURES,
    hour_rows_replace,
    lock_tables,
    shift_rows_replace,
    table_type_locked,
    triple_draw_figures,
)
from tables.models import LedgerEntry, Table, TableType

# SQLite has no advisory locks; in-process writers (eager jobs, runserver threads) queue here instead.
_sqlite_lock = threading.Lock()
REBUILD_CHUNK_DAYS = 7


@dataclass
class Bucket:
    """The figures of one summary row while they are being added up."""

    rounds: int = 0
    handle_cents: int = 0
    win_cents: int = 0
    stake_squares: int = 0
    hands: int = 0
    games: int = 0
    pots_cents: int = 0
    rake_cents: int = 0
    time_charge_cents: int = 0


Key = tuple[int, datetime, int | None, int | None]  # table, hour, dealer, paytable


def _buckets(table_ids: list[int], start: datetime, end: datetime) -> dict[Key, Bucket]:
    """Every summary row's figures for these tables in [start, end), from the ledger and the home-game source."""
    buckets: dict[Key, Bucket] = {}
    _add_triple_draw(buckets, table_ids, start, end)
    home_tables = Table.objects.exclude(table_type=TableType.TRIPLE_DRAW).filter(pk__in=table_ids)
    _add_home(buckets, list(home_tables.values_list("pk", flat=True)), start, end)
    return buckets


def _add_triple_draw(buckets: dict[Key, Bucket], table_ids: list[int], start: datetime, end: datetime) -> None:
    for table_id, hour, dealer, paytable, rounds, handle, win, squares in triple_draw_figures(table_ids, start, end):
        bucket = buckets.setdefault((table_id, hour, dealer, paytable), Bucket())
        bucket.rounds += rounds
        bucket.handle_cents += handle
        bucket.win_cents += win
        bucket.stake_squares += squares


def _add_home(buckets: dict[Key, Bucket], table_ids: list[int], start: datetime, end: datetime) -> None:
    for figure in home_figures(table_ids=table_ids, start=start, end=end):
        bucket = buckets.setdefault((figure.table_id, hour_bucket(figure.hour_start), figure.dealer_id, None), Bucket())
        bucket.hands += figure.hands
        bucket.games += figure.games
        bucket.pots_cents += figure.pots_cents
        bucket.rake_cents += figure.rake_cents
        bucket.time_charge_cents += figure.time_charge_cents


def _hour_buckets(table_id: int, table_type: str, start: datetime, end: datetime) -> dict[Key, Bucket]:
    """One table's summary rows for the hour [start, end) (its type known, so one source is asked, not both)."""
    buckets: dict[Key, Bucket] = {}
    if table_type == TableType.TRIPLE_DRAW:
        _add_triple_draw(buckets, [table_id], start, end)
    else:
        _add_home(buckets, [table_id], start, end)
    return buckets


def _rows(buckets: dict[Key, Bucket]) -> Iterator[TableHour]:
    now = timezone.now()
    for (table_id, hour, dealer_id, paytable_id), bucket in buckets.items():
        local = timezone.localtime(hour)
        yield TableHour(
            table_id=table_id,
            hour_start=hour,
            gaming_day=gaming_day(hour),
            shift=shift_code(hour),
            hour_of_day=local.hour,
            dealer_id=dealer_id,
            paytable_id=paytable_id,
            rounds=bucket.rounds,
            handle_cents=bucket.handle_cents,
            paid_cents=bucket.handle_cents - bucket.win_cents,
            win_cents=bucket.win_cents,
            stake_squares=bucket.stake_squares,
            hands=bucket.hands,
            games=bucket.games,
            pots_cents=bucket.pots_cents,
            rake_cents=bucket.rake_cents,
            time_charge_cents=bucket.time_charge_cents,
            updated_at=now,
        )


def _writer_lock() -> AbstractContextManager[object]:
    return _sqlite_lock if connection.vendor == "sqlite" else nullcontext()


def _shift_rows(hours: QuerySet[TableHour]) -> list[TableShift]:
    """TableShift rows adding up these hour rows per table, gaming day, shift and paytable version."""
    now = timezone.now()
    grouped = (
        hours.values("table_id", "gaming_day", "shift", "paytable_id")
        .annotate(**{f"total_{name}": Sum(name) for name in FIGURES})
        .order_by()
    )
    return [
        TableShift(
            table_id=row["table_id"],
            gaming_day=row["gaming_day"],
            shift=row["shift"],
            paytable_id=row["paytable_id"],
            updated_at=now,
            **{name: int(row[f"total_{name}"] or 0) for name in FIGURES},  # type: ignore[literal-required]
        )
        for row in grouped
    ]


def table_hour_refresh(*, table_id: int, at: datetime) -> int:
    """Recompute one table's summary rows for the hour holding `at`, and its shift's; returns the hour's rows."""
    start = hour_bucket(at)
    end = start + timedelta(hours=1)
    with _writer_lock(), transaction.atomic():
        # The lock comes first: rows read after it include every posting committed before this refresh began.
        table_type = table_type_locked(table_id)
        if table_type is None:
            return 0
        rows = list(_rows(_hour_buckets(table_id, table_type, start, end)))
        hour_rows_replace(table_id, start, rows)
        shift_rows_replace(table_id, gaming_day(start), shift_code(start), timezone.now())
    return len(rows)


def summaries_rebuild(*, first_day: date, last_day: date) -> int:
    """Recompute every summary row of gaming days first_day..last_day from the ledger, a week per transaction;
    returns the number of rows written."""
    written = 0
    day = first_day
    while day <= last_day:
        chunk_last = min(last_day, day + timedelta(days=REBUILD_CHUNK_DAYS - 1))
        start, end = hour_bucket(day_window(day)[0]), hour_bucket(day_window(chunk_last)[1])
        with _writer_lock(), transaction.atomic():
            tables = list(Table.objects.values_list("pk", flat=True))
            lock_tables(tables)
            # Naming every table lets the ledger's (table, posted_at) index serve the week's range.
            rows = list(_rows(_buckets(tables, start, end)))
            TableHour.objects.filter(hour_start__gte=start, hour_start__lt=end).delete()
            TableHour.objects.bulk_create(rows, batch_size=5000)
            days = {"gaming_day__gte": day, "gaming_day__lte": chunk_last}
            TableShift.objects.filter(**days).delete()
            TableShift.objects.bulk_create(_shift_rows(TableHour.objects.filter(**days)), batch_size=5000)
        written += len(rows)
        day = chunk_last + timedelta(days=1)
    return written


def ledger_day_range() -> tuple[date, date] | None:
    """The first and last gaming days with a ledger posting (None for an empty ledger)."""
    first = LedgerEntry.objects.order_by("posted_at").values_list("posted_at", flat=True).first()
    last = LedgerEntry.objects.order_by("-posted_at").values_list("posted_at", flat=True).first()
    if first is None or last is None:
        return None
    return gaming_day(first), gaming_day(last)
