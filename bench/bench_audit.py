"""Audit trail speed on a scratch PostgreSQL database (created and dropped here): business-transaction inserts
with concurrent writers (seal after commit vs. an inline hash chain), loading, sealing and verifying 1,000,000
events, p95 of the compliance list filters at that size, and a 100,000-row CSV export with its memory."""

from __future__ import annotations

import multiprocessing as mp
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SERVER = os.environ.get("BENCH_PG_SERVER", "postgres://postgres@127.0.0.1:5432")
DB_NAME = os.environ.get("BENCH_AUDIT_DB", "casino_bench_audit")
EVENTS = int(os.environ.get("BENCH_AUDIT_EVENTS", "1000000"))
WRITERS = int(os.environ.get("BENCH_AUDIT_WRITERS", "4"))
TXNS_PER_WRITER = int(os.environ.get("BENCH_AUDIT_TXNS", "1000"))
QUERIES = int(os.environ.get("BENCH_AUDIT_QUERIES", "40"))  # per filter kind
EXPORT_ROWS = min(100_000, EVENTS)
TABLES, ACTORS, EVENTS_PER_ROUND = 200, 60, 30
ACTIONS = [
    "round_start", "bet_place", "bet_place", "bet_place", "bet_clear", "round_close_bets", "cards_deal",
    "holds_record", "holds_record", "rows_record", "round_settle", "round_settlement", "seat_join", "seat_leave",
    "round_void", "round_approve_payout", "table_open", "table_close",
]  # fmt: skip

os.environ["DATABASE_URL"] = f"{SERVER}/{DB_NAME}"
os.environ.pop("REDIS_URL", None)  # sealing is driven explicitly below; no broker needed
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
os.environ.setdefault("LOG_LEVEL", "WARNING")


def admin_sql(statement: str) -> None:
    import psycopg

    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        conn.execute(statement)


def rss_mb() -> float:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


# --- business-transaction inserts with concurrent writers -------------------------------------------------


def writer(mode: str, count: int, seed: int, out: Any) -> None:
    """One process of business transactions, each writing one event as a service would."""
    import django

    django.setup()
    from django.db import connection, transaction

    from audit import services

    services._queue_seal = lambda: None  # the broker publish; sealing is the separate sealer process
    rng = random.Random(seed)
    latencies = []
    for i in range(count):
        began = time.perf_counter()
        with transaction.atomic():
            services.audit_record(
                action=rng.choice(ACTIONS),
                object_type="tables.round",
                object_id=i,
                table=rng.randrange(1, TABLES),
                round=seed * 1_000_000 + i,
                seat_number=rng.randrange(1, 7),
                after={"amount_cents": rng.randrange(500, 50_000)},
            )
            if mode == "inline":
                # The design we did not take: chain the event inside the business transaction, which holds the
                # chain lock until commit, so every writer queues behind every other.
                services.audit_chain_seal()
        latencies.append(time.perf_counter() - began)
    connection.close()
    out.put(latencies)


def sealer_loop(stop: Any, out: Any) -> None:
    import django

    django.setup()
    from django.db import connection

    from audit.services import audit_chain_seal

    sealed = 0
    while not stop.is_set():
        sealed += audit_chain_seal() or 0
        time.sleep(0.05)
    sealed += audit_chain_seal() or 0
    connection.close()
    out.put(sealed)


def concurrent_inserts(mode: str) -> dict[str, float]:
    ctx = mp.get_context("fork")
    out, stop, sealed_q = ctx.Queue(), ctx.Event(), ctx.Queue()
    sealer = ctx.Process(target=sealer_loop, args=(stop, sealed_q)) if mode == "after_commit" else None
    if sealer:
        sealer.start()
    procs = [ctx.Process(target=writer, args=(mode, TXNS_PER_WRITER, n + 1, out)) for n in range(WRITERS)]
    began = time.perf_counter()
    for proc in procs:
        proc.start()
    latencies = [x for _ in procs for x in out.get(timeout=1800)]
    elapsed = time.perf_counter() - began
    for proc in procs:
        proc.join()
    lag_began = time.perf_counter()
    stop.set()
    sealed = sealed_q.get(timeout=600) if sealer else len(latencies)
    if sealer:
        sealer.join()
    return {
        "events": len(latencies),
        "rate": len(latencies) / elapsed,
        "p50_ms": percentile(latencies, 0.5) * 1000,
        "p95_ms": percentile(latencies, 0.95) * 1000,
        "sealed": sealed,
        "drain_s": time.perf_counter() - lag_began,
    }


# --- bulk load, seal, verify ----------------------------------------------------------------------------------


def bulk_load(count: int) -> float:
    """COPY `count` realistic events (200 tables, rounds of 30 events, 30 days) into the table."""
    import json

    from django.db import connection

    rng = random.Random(7)
    start = time.time() - 30 * 86400
    step = 30 * 86400 / count
    columns = (
        "occurred_at, actor_id, actor_username, actor_role, actor_kind, action, exception_kind, object_type, "
        "object_id, object_repr, table_id, table_repr, round_id, round_repr, seat_number, before, after, reason, "
        "approver_id, approver_username, correlation_id, client_address, prev_hash, hash"
    )
    began = time.perf_counter()
    with (
        connection.cursor() as cursor,
        cursor.connection.cursor().copy(f"COPY audit_auditevent ({columns}) FROM STDIN") as copy,
    ):
        for i in range(count):
            round_id = i // EVENTS_PER_ROUND + 1
            table = round_id % TABLES + 1
            action = ACTIONS[i % EVENTS_PER_ROUND % len(ACTIONS)]
            actor = rng.randrange(ACTORS)
            amount = rng.randrange(100, 100_000)
            kind = {"round_void": "void", "round_approve_payout": "approval"}.get(action, "")
            when = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(start + i * step)) + "+00"
            copy.write_row(
                (
                    when, None, f"dealer{actor:02d}", "dealer", "user", action, kind, "tables.round", str(round_id),
                    f"Round {round_id}", table, f"Table {table}", round_id, f"Round {round_id}", 1 + i % 6,
                    json.dumps({"amount_cents": amount - 100}), json.dumps({"amount_cents": amount}),
                    "misdeal" if kind == "void" else "", None, "", f"{round_id:032x}", "10.0.0.1", "", "",
                )
            )  # fmt: skip
    connection.commit() if not connection.get_autocommit() else None
    elapsed = time.perf_counter() - began
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE audit_auditevent")
    return elapsed


def timed(label: str, func: Callable[[], Any]) -> tuple[float, Any]:
    began = time.perf_counter()
    result = func()
    elapsed = time.perf_counter() - began
    print(f"  {label}: {elapsed:.1f} s", flush=True)
    return elapsed, result


# --- list queries and CSV export ------------------------------------------------------------------------------


def list_queries(max_id: int) -> dict[str, list[float]]:
    from django.http import QueryDict

    from audit.filters import filter_events
    from audit.selectors import event_page

    rng = random.Random(11)
    rounds = max(1, EVENTS // EVENTS_PER_ROUND)
    days = [time.strftime("%Y-%m-%d", time.localtime(time.time() - d * 86400)) for d in range(1, 29)]
    kinds: dict[str, Callable[[], str]] = {
        "table": lambda: f"table={rng.randrange(1, TABLES + 1)}",
        "round": lambda: f"round={rng.randrange(1, rounds + 1)}",
        "actor": lambda: f"actor=dealer{rng.randrange(ACTORS):02d}",
        "action": lambda: f"action={rng.choice(ACTIONS)}",
        "object": lambda: f"object_type=tables.round&object_id={rng.randrange(1, rounds + 1)}",
        "date range (1 day)": lambda: f"date_from={(d := rng.choice(days))}&date_to={d}",
        "table+action": lambda: f"table={rng.randrange(1, TABLES + 1)}&action={rng.choice(ACTIONS)}",
        "actor+date": lambda: f"actor=dealer{rng.randrange(ACTORS):02d}&date_from={rng.choice(days)}",
        "exceptions": lambda: "exception=any",
        "deep page (before=)": lambda: f"table={rng.randrange(1, TABLES + 1)}&before={rng.randrange(1, max_id)}",
        "unfiltered": lambda: "",
    }
    times: dict[str, list[float]] = {}
    for name, make in kinds.items():
        times[name] = []
        for _ in range(QUERIES):
            params = QueryDict(make())
            before = params.get("before")
            began = time.perf_counter()
            queryset, form = filter_events(params)
            page = event_page(queryset, before=int(before) if before else None, size=50)
            times[name].append(time.perf_counter() - began)
            assert not form.errors, form.errors
            assert page.events or name in {"deep page (before=)", "date range (1 day)", "actor+date"}
    return times


def csv_export(rows: int) -> dict[str, Any]:
    """Stream the export of whole days of events (about `rows`) through the real view, sampling memory."""
    import datetime as dt

    from django.contrib.auth.models import Group, User
    from django.http import QueryDict
    from django.test import Client
    from django.utils import timezone

    from audit.filters import filter_events

    user = User.objects.create_user("bench-compliance", password="bench-pw-12345")
    user.groups.add(Group.objects.get(name="compliance"))
    per_day = max(1, EVENTS // 30)
    days = max(1, round(rows / per_day))
    first = timezone.localdate() - dt.timedelta(days=days + 5)
    query = f"date_from={first}&date_to={first + dt.timedelta(days=days - 1)}"
    expected = filter_events(QueryDict(query))[0].count()
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(user)
    samples, total_bytes, lines = [], 0, 0
    began = time.perf_counter()
    response = client.get(f"/compliance/export.csv?{query}")
    for chunk in response.streaming_content:
        total_bytes += len(chunk)
        lines += chunk.count(b"\n")
        if lines // 10_000 > len(samples):
            samples.append((lines, rss_mb()))
    elapsed = time.perf_counter() - began
    assert lines - 1 == expected, (lines, expected)
    return {"rows": lines - 1, "seconds": elapsed, "mb": total_bytes / 2**20, "rss": samples, "query": query}


def main() -> int:
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores (wall times stretch with it)")
    print(f"scratch database {DB_NAME} on {SERVER}; {EVENTS:,} events", flush=True)
    admin_sql(f"DROP DATABASE IF EXISTS {DB_NAME}")
    admin_sql(f"CREATE DATABASE {DB_NAME}")
    try:
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connection, connections

        call_command("migrate", verbosity=0)
        from audit.models import AuditEvent
        from audit.services import audit_chain_seal, audit_chain_verify

        connections.close_all()
        print(f"\nbusiness transactions, {WRITERS} concurrent writer processes x {TXNS_PER_WRITER} (one event each):")
        for mode, label in (("after_commit", "seal after commit (ours)"), ("inline", "inline chain, hot lock")):
            r = concurrent_inserts(mode)
            print(
                f"  {label:<26} {r['rate']:7.0f} events/s, transaction p50 {r['p50_ms']:.1f} ms, "
                f"p95 {r['p95_ms']:.1f} ms"
                + (f"; all sealed {r['drain_s']:.1f} s after the last commit" if mode == "after_commit" else ""),
                flush=True,
            )
        assert audit_chain_verify().ok
        with connection.cursor() as cursor:
            cursor.execute("ALTER TABLE audit_auditevent DISABLE TRIGGER USER")
            cursor.execute("TRUNCATE audit_auditevent RESTART IDENTITY")
            cursor.execute("ALTER TABLE audit_auditevent ENABLE TRIGGER USER")
            cursor.execute("TRUNCATE audit_chainverification")

        print(f"\n{EVENTS:,} events:", flush=True)
        load_s = bulk_load(EVENTS)
        print(f"  COPY load: {load_s:.1f} s = {EVENTS / load_s:,.0f} events/s", flush=True)
        seal_s, sealed = timed("seal into the chain", audit_chain_seal)
        print(f"    = {sealed / seal_s:,.0f} events/s sealed", flush=True)
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE audit_auditevent")
        verify_s, report = timed("verify the whole chain", audit_chain_verify)
        print(f"    = {report.checked / verify_s:,.0f} events/s verified ({report.message})", flush=True)
        assert report.ok, report.message
        assert report.checked == EVENTS

        max_id = AuditEvent.objects.order_by("-id").values_list("id", flat=True).first()
        print(f"\nfiltered list query (first page of 50, keyset), {QUERIES} runs each, at {EVENTS:,} rows:")
        times = list_queries(max_id)
        everything = [t for values in times.values() for t in values]
        for name, values in times.items():
            p50, p95 = percentile(values, 0.5) * 1000, percentile(values, 0.95) * 1000
            print(f"  {name:<22} p50 {p50:6.1f} ms  p95 {p95:6.1f} ms")
        print(f"  all filters            p50 {percentile(everything, 0.5) * 1000:6.1f} ms  p95 "
              f"{percentile(everything, 0.95) * 1000:6.1f} ms (target <= 50 ms)")  # fmt: skip

        result = csv_export(EXPORT_ROWS)
        rss = result["rss"]
        print(
            f"\nCSV export through /compliance/export.csv?{result['query']}: {result['rows']:,} rows, "
            f"{result['mb']:.1f} MB in "
            f"{result['seconds']:.1f} s ({result['rows'] / result['seconds']:,.0f} rows/s)"
        )
        print("  resident memory while streaming: " + ", ".join(f"{n // 1000}k rows {mb:.0f} MB" for n, mb in rss))
        print(f"  memory growth from 10k to {rss[-1][0] // 1000}k rows: {rss[-1][1] - rss[0][1]:+.1f} MB")
        connections.close_all()
    finally:
        admin_sql(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        print(f"\ndropped {DB_NAME}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
