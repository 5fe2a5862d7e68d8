"""Floor reports at a year of a 200-table floor: 1,000,000 settled rounds in the ledger, the summary rows rebuilt from
it, then each report over the whole year through Django's test client (in-process, no network).

Sets up a scratch PostgreSQL database and loads it in bulk with SQL (generate_series): 200 Triple Draw tables in 10
pits, 100 dealers, 4 paytable versions with stored analyses, and BENCH_ROUNDS settled rounds over 2025 in sessions of
about 40 rounds a minute apart at random tables and hours, each with 1-4 bets of $5-$50 and one balanced ledger
posting per bet (the ledger's per-row triggers are disabled during the load only; the scratch database is dropped).
Then it times:
  - rebuild_floor_summaries over the year (the ledger -> summary rows, as after a restore or a settings change),
  - the summary job for one table-hour (what each settled round queues), at that ledger size,
  - every report over the year: p50 / p95 of BENCH_RUNS requests, and SQL queries per request,
  - the same reports when every table played every hour of the year (200 x 8,760 hour rows and their shift rows,
    loaded in bulk): the most summary rows a year of this floor can have, whatever its number of rounds.

Environment: BENCH_DATABASE_URL (a PostgreSQL server URL, default postgres://postgres@127.0.0.1:5432/postgres),
BENCH_ROUNDS (default 1,000,000), BENCH_RUNS (default 30).
"""

# ruff: noqa: S608 -- the SQL is built from this module's constants only, never from input.
from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from io import StringIO
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
SERVER_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "1000000"))
RUNS = int(os.environ.get("BENCH_RUNS", "30"))
SCRATCH = f"bench_reports_{os.getpid()}"
TABLES, PITS, DEALERS = 200, 10, 100
YEAR = ("2025-01-01", "2025-12-31")
# Plausible stored analyses (exact return as a fraction, variance per unit bet) for the bench's four versions.
ANALYSES = [("99544/100000", 19.51), ("99017/100000", 19.84), ("100173/100000", 20.91), ("97990/100000", 11.12)]


def admin_sql(statement: str) -> None:
    import psycopg

    with psycopg.connect(SERVER_URL, autocommit=True) as conn:
        conn.execute(statement)  # type: ignore[arg-type]


def setup_django() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ["DATABASE_URL"] = urlsplit(SERVER_URL)._replace(path=f"/{SCRATCH}").geturl()
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    os.environ["TESTING"] = "true"
    os.environ["LOG_LEVEL"] = "ERROR"
    os.environ["ALLOWED_HOSTS"] = "testserver"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def timed(label: str, action: Callable[[], Any]) -> Any:
    start = time.perf_counter()
    result = action()
    print(f"  {label:<58} {time.perf_counter() - start:8.1f} s", flush=True)
    return result


def sql(statement: str, params: list[Any] | None = None) -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(statement, params)


def load_floor() -> Any:
    """Tables, pits, dealers, paytables with analyses; returns the floor supervisor who reads the reports."""
    from django.contrib.auth.models import Group, User
    from django.utils import timezone

    from paytables.models import Paytable, PaytableAnalysis
    from tables.models import Table

    floor = User.objects.create_user("bench-floor", password="x")
    floor.groups.add(Group.objects.get(name="floor"))
    dealer_group = Group.objects.get(name="dealer")
    dealers = User.objects.bulk_create(User(username=f"dealer-{n:03d}") for n in range(DEALERS))
    dealer_group.user_set.add(*dealers)
    now = timezone.now()
    for number, (exact, variance) in enumerate(ANALYSES, start=1):
        paytable = Paytable.objects.create(
            name=f"Bench {number}", basis="for_1", status="approved", approval_reference="BENCH", approved_at=now
        )
        PaytableAnalysis.objects.create(
            paytable=paytable,
            spec_hash="bench",
            status="done",
            progress=100,
            queued_at=now,
            finished_at=now,
            return_exact=exact,
            return_ratio=float(Fraction(exact)),
            house_edge=float(1 - Fraction(exact)),
            variance=variance,
            std_dev=variance**0.5,
        )
    Table.objects.bulk_create(
        Table(name=f"Table {n:03d}", pit=f"Pit {n % PITS + 1}", card_source="rng", is_open=True)
        for n in range(1, TABLES + 1)
    )
    return floor


def load_ledger() -> None:
    """ROUNDS settled rounds, their bets and one balanced posting per bet, in sessions over the year."""
    sql("SELECT setseed(0.42)")
    # A session: a table, a start at a random minute of the year, about 40 rounds a minute apart.
    sql(
        f"""
        CREATE TEMP TABLE bench_session AS
        SELECT s AS id,
               (SELECT min(id) FROM tables_table) + floor(random() * {TABLES})::int AS table_id,
               timestamptz '2025-01-01 14:00+00' + floor(random() * 364 * 24 * 60) * interval '1 minute' AS start,
               (SELECT min(id) FROM auth_user WHERE username LIKE 'dealer-%%') + floor(random() * {DEALERS})::int
                   AS dealer_id,
               (SELECT min(id) FROM paytables_paytable) + floor(random() * {len(ANALYSES)})::int AS paytable_id
        FROM generate_series(0, {ROUNDS // 40}) s
        """
    )
    sql(
        f"""
        INSERT INTO tables_round (table_id, number, version, phase, paytable_id, paytable_snapshot, dealer_id,
                                  started_at, bets_closed_at, rows_recorded_at, settle_queued_at, settled_at,
                                  void_reason)
        SELECT s.table_id, g, 1, 'settled', s.paytable_id, '{{}}'::jsonb, s.dealer_id,
               s.start + (g % 40) * interval '1 minute', NULL, NULL, NULL,
               s.start + (g % 40) * interval '1 minute' + interval '50 seconds', ''
        FROM generate_series(0, {ROUNDS - 1}) g JOIN bench_session s ON s.id = g / 40
        """
    )
    sql(
        """
        INSERT INTO tables_bet (round_id, seat_number, circle, amount_cents, placed_at)
        SELECT r.id, seat, 1, 500 * (1 + (r.id + seat) % 10), r.started_at
        FROM tables_round r, generate_series(1, 4) seat
        WHERE seat <= 1 + r.id % 4
        """
    )
    sql("ALTER TABLE tables_ledgerentry DISABLE TRIGGER USER")
    # Each bet returns nothing (about 55 %), its stake (25 %), twice its stake (15 %) or ten times it (5 %).
    sql(
        """
        CREATE TEMP TABLE bench_paid AS
        SELECT b.id AS bet_id, b.round_id, r.table_id, b.seat_number, r.settled_at,
               b.amount_cents * (CASE WHEN x < 0.55 THEN 0 WHEN x < 0.80 THEN 1 WHEN x < 0.95 THEN 2 ELSE 10 END)
                   AS paid, b.amount_cents AS stake
        FROM (SELECT *, random() AS x FROM tables_bet) b JOIN tables_round r ON r.id = b.round_id
        """
    )
    sql(
        """
        INSERT INTO tables_ledgerentry (round_id, bet_id, table_id, account, seat_number, amount_cents, posted_at)
        SELECT round_id, bet_id, table_id, 'seat', seat_number, paid - stake, settled_at FROM bench_paid
        UNION ALL
        SELECT round_id, bet_id, table_id, 'table_bankroll', seat_number, stake - paid, settled_at FROM bench_paid
        """
    )
    sql("ALTER TABLE tables_ledgerentry ENABLE TRIGGER USER")
    sql("ANALYZE")


def fill_every_hour() -> None:
    """The densest year: a summary row for every table and hour (one dealer, one paytable version each)."""
    sql("TRUNCATE floor_tablehour")
    sql(
        f"""
        INSERT INTO floor_tablehour (table_id, hour_start, gaming_day, shift, hour_of_day, dealer_id, paytable_id,
                                     rounds, handle_cents, paid_cents, win_cents, stake_squares, hands, games,
                                     pots_cents, rake_cents, time_charge_cents, updated_at)
        SELECT t.id, h, (h AT TIME ZONE %s - interval '6 hours')::date,
               CASE WHEN extract(hour FROM h AT TIME ZONE %s) BETWEEN 6 AND 13 THEN 'day'
                    WHEN extract(hour FROM h AT TIME ZONE %s) BETWEEN 14 AND 21 THEN 'swing' ELSE 'grave' END,
               extract(hour FROM h AT TIME ZONE %s)::int,
               (SELECT min(id) FROM auth_user WHERE username LIKE 'dealer-%%') + (t.id + extract(epoch FROM h)::int)
                   %% {DEALERS},
               (SELECT min(id) FROM paytables_paytable) + t.id %% {len(ANALYSES)},
               30, 30 * 1500, 30 * 1450, 30 * 50, 30 * 1500 * 1500, 0, 0, 0, 0, 0, now()
        FROM tables_table t,
             generate_series(timestamptz '2025-01-01 14:00+00', timestamptz '2026-01-01 13:00+00', interval '1 hour') h
        """,
        ["America/Los_Angeles"] * 4,
    )
    sql("TRUNCATE floor_tableshift")
    sql(
        """
        INSERT INTO floor_tableshift (table_id, gaming_day, shift, paytable_id, rounds, handle_cents, paid_cents,
                                      win_cents, stake_squares, hands, games, pots_cents, rake_cents,
                                      time_charge_cents, updated_at)
        SELECT table_id, gaming_day, shift, paytable_id, sum(rounds), sum(handle_cents), sum(paid_cents),
               sum(win_cents), sum(stake_squares), 0, 0, 0, 0, 0, now()
        FROM floor_tablehour GROUP BY table_id, gaming_day, shift, paytable_id
        """
    )
    sql("ANALYZE floor_tablehour")
    sql("ANALYZE floor_tableshift")


def measure(client: Any, url: str) -> tuple[float, float, int, float]:
    """p50 and p95 wall ms, SQL queries, CPU ms of this process per request."""
    from django.db import connection

    queries: list[str] = []

    def count(execute: Any, statement: str, params: Any, many: bool, context: Any) -> Any:
        queries.append(statement)
        return execute(statement, params, many, context)

    for _ in range(3):
        assert client.get(url).status_code == 200
    with connection.execute_wrapper(count):
        response = client.get(url)
        if hasattr(response, "streaming_content"):
            b"".join(response.streaming_content)
    timings = []
    cpu = time.process_time()
    for _ in range(RUNS):
        start = time.perf_counter()
        response = client.get(url)
        if hasattr(response, "streaming_content"):
            b"".join(response.streaming_content)
        timings.append((time.perf_counter() - start) * 1000)
    cpu_ms = (time.process_time() - cpu) * 1000 / RUNS
    timings.sort()
    return statistics.median(timings), timings[max(0, int(len(timings) * 0.95) - 1)], len(queries), cpu_ms


REPORTS = [
    ("tables report, JSON (/api/v1/reports/tables/)", "/api/v1/reports/tables/?{year}"),
    ("per dealer (/api/v1/reports/groups/?by=dealer)", "/api/v1/reports/groups/?{year}&by=dealer"),
    ("per pit", "/api/v1/reports/groups/?{year}&by=pit"),
    ("per gaming day (365 rows)", "/api/v1/reports/groups/?{year}&by=day"),
    ("hold over time, per day (/hold-series/)", "/api/v1/reports/hold-series/?{year}"),
    ("handle by hour of day (/hours/)", "/api/v1/reports/hours/?{year}"),
    ("one pit, one shift", "/api/v1/reports/tables/?{year}&pit=Pit%203&shift=swing"),
    ("tables report, CSV", "/floor/reports/export.csv?{year}&report=tables"),
    ("the reports page (HTML, three reports)", "/floor/reports/?{year}&by=dealer"),
]


def report_all(client: Any, title: str) -> None:
    from floor.models import TableHour, TableShift

    print(
        f"{title} ({TableHour.objects.count():,} hour rows, {TableShift.objects.count():,} shift rows); "
        f"p50 / p95 of {RUNS}, queries, CPU of Django:"
    )
    year = f"from={YEAR[0]}&to={YEAR[1]}"
    for label, url in REPORTS:
        p50, p95, queries, cpu = measure(client, url.format(year=year))
        print(f"  {label:<48} p50 {p50:7.1f} ms  p95 {p95:7.1f} ms  {queries:2d} queries  CPU {cpu:6.1f} ms")


def refresh_job(rounds: int) -> None:
    """What each settled round queues: the refresh of its table's hour, timed at this ledger size."""
    from floor.summaries import table_hour_refresh
    from tables.models import LedgerEntry

    posted = list(LedgerEntry.objects.order_by("?").values_list("table_id", "posted_at")[:rounds])
    timings = []
    for table_id, at in posted:
        start = time.perf_counter()
        table_hour_refresh(table_id=table_id, at=at)
        timings.append((time.perf_counter() - start) * 1000)
    timings.sort()
    print(
        f"  summary job (refresh one table-hour), {len(timings)} runs: p50 {statistics.median(timings):.1f} ms"
        f"  p95 {timings[int(len(timings) * 0.95) - 1]:.1f} ms"
    )


def main() -> int:
    admin_sql(f'CREATE DATABASE "{SCRATCH}"')
    try:
        setup_django()
        from django.core.management import call_command
        from django.test import Client

        from tables.models import Bet, LedgerEntry, Round

        print(
            f"Floor reports: {TABLES} tables, {ROUNDS:,} settled rounds over {YEAR[0]}..{YEAR[1]} (scratch PostgreSQL)"
        )
        floor = timed("tables, dealers, paytables with analyses", load_floor)
        timed("rounds, bets and ledger postings (bulk SQL)", load_ledger)
        print(
            f"  loaded {Round.objects.count():,} rounds, {Bet.objects.count():,} bets, "
            f"{LedgerEntry.objects.count():,} ledger legs"
        )
        timed(
            "rebuild_floor_summaries over the year (from the ledger)",
            lambda: call_command("rebuild_floor_summaries", "--from", YEAR[0], "--to", YEAR[1], stdout=StringIO()),
        )
        refresh_job(200)
        client = Client()
        client.force_login(floor)
        report_all(client, "Reports over the year, summary rows of that play")
        timed("every table, every hour of the year (bulk SQL)", fill_every_hour)
        report_all(client, "Reports over the year, every table-hour filled")
        return 0
    finally:
        if "django.db" in sys.modules:
            from django.db import connections

            connections.close_all()
        admin_sql(f'DROP DATABASE IF EXISTS "{SCRATCH}" WITH (FORCE)')


if __name__ == "__main__":
    sys.exit(main())
