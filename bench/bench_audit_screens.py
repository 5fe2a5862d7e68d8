"""Compliance screens at 1,000,000 events on a scratch PostgreSQL database (created and dropped here): p50/p95 of
the event list and the exception queue, served whole through the real views (filters, keyset page, chain status,
template), with about one exception case per fifteen events. Everything is loaded with COPY, never service by
service; the run is bounded by BENCH_AUDIT_EVENTS and BENCH_SCREEN_QUERIES."""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("BENCH_AUDIT_DB", "casino_bench_audit_screens")

import bench_audit as base  # noqa: E402 (sets DATABASE_URL to the scratch database first)

QUERIES = int(os.environ.get("BENCH_SCREEN_QUERIES", "40"))  # per screen and filter
CASE_EVERY = 15
STATUSES = ("new", "new", "under_review", "closed")
KINDS = ("void", "approval", "large_payout", "limit_change", "cash_reporting", "late_settlement")


def load_cases(events: int) -> int:
    """COPY one exception case per CASE_EVERY events, spread over the same 30 days, statuses and kinds mixed."""
    import datetime as dt

    from django.db import connection

    rng = random.Random(5)
    start = time.time() - 30 * 86400
    count = events // CASE_EVERY
    step = 30 * 86400 / max(1, count)
    columns = (
        "key, kind, event_id, occurred_at, gaming_day, table_id, table_repr, round_id, round_repr, seat_number, "
        "caused_by, caused_by_ids, amount_cents, summary, status, reviewer_username, signed_off_username, created_at"
    )
    with (
        connection.cursor() as cursor,
        cursor.connection.cursor().copy(f"COPY audit_exceptioncase ({columns}) FROM STDIN") as copy,
    ):
        for i in range(count):
            moment = start + i * step
            when = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(moment)) + "+00"
            day = dt.date.fromtimestamp(moment - 6 * 3600).isoformat()
            round_id = i * CASE_EVERY // base.EVENTS_PER_ROUND + 1
            table = round_id % base.TABLES + 1
            status = rng.choice(STATUSES)
            copy.write_row(
                (
                    f"bench:{i}", rng.choice(KINDS), i * CASE_EVERY + 1, when, day, table, f"Table {table}",
                    round_id, f"Round {round_id}", 1 + i % 6, f"dealer{rng.randrange(base.ACTORS):02d}", "[]",
                    rng.randrange(100, 2_000_000), f"Bench case {i}", status,
                    "carl" if status != "new" else "", "carl" if status == "closed" else "", when,
                )
            )  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE audit_exceptioncase")
    return count


def screens() -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    from django.contrib.auth.models import Group, User
    from django.test import Client

    user = User.objects.create_user("bench-compliance", password="bench-pw-12345")
    user.groups.add(Group.objects.get(name="compliance"))
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(user)
    rng = random.Random(3)
    rounds = max(1, base.EVENTS // base.EVENTS_PER_ROUND)
    days = [time.strftime("%Y-%m-%d", time.gmtime(time.time() - d * 86400)) for d in range(2, 28)]
    urls = {
        "list, unfiltered": lambda: "/compliance/",
        "list, table": lambda: f"/compliance/?table={rng.randrange(1, base.TABLES + 1)}",
        "list, actor": lambda: f"/compliance/?actor=dealer{rng.randrange(base.ACTORS):02d}",
        "list, action": lambda: f"/compliance/?action={rng.choice(base.ACTIONS)}",
        "list, round by name": lambda: f"/compliance/?round=Round+{rng.randrange(1, rounds + 1)}",
        "list, date-time range": lambda: f"/compliance/?since={(d := rng.choice(days))}T10:00&until={d}T14:00",
        "list, table+action": lambda: (
            f"/compliance/?table={rng.randrange(1, base.TABLES + 1)}&action={rng.choice(base.ACTIONS)}"
        ),
        "queue, open": lambda: "/compliance/exceptions/",
        "queue, closed": lambda: "/compliance/exceptions/?status=closed",
        "queue, kind": lambda: f"/compliance/exceptions/?status=all&kind={rng.choice(KINDS)}",
        "queue, table": lambda: f"/compliance/exceptions/?table={rng.randrange(1, base.TABLES + 1)}",
        "queue, gaming days": lambda: (
            f"/compliance/exceptions/?status=all&day_from={(d := rng.choice(days))}&day_to={d}"
        ),
    }
    for url in ("/compliance/", "/compliance/exceptions/"):
        assert client.get(url).status_code == 200  # warm: the filter lists are cached for a minute
    times: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}  # this process only (Django and the template); the database works elsewhere
    for name, make in urls.items():
        times[name], cpu[name] = [], []
        for _ in range(QUERIES):
            url = make()
            began, began_cpu = time.perf_counter(), time.process_time()
            response = client.get(url)
            times[name].append(time.perf_counter() - began)
            cpu[name].append(time.process_time() - began_cpu)
            assert response.status_code == 200, (url, response.status_code)
    return times, cpu


def main() -> int:
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores (wall times stretch with it)")
    print(f"scratch database {base.DB_NAME}; {base.EVENTS:,} events", flush=True)
    base.admin_sql(f"DROP DATABASE IF EXISTS {base.DB_NAME}")
    base.admin_sql(f"CREATE DATABASE {base.DB_NAME}")
    try:
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connection, connections

        from audit.services import audit_chain_seal, audit_chain_verify

        call_command("migrate", verbosity=0)
        load_s = base.bulk_load(base.EVENTS)
        print(f"  COPY events: {load_s:.1f} s", flush=True)
        base.timed("seal into the chain", audit_chain_seal)
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE audit_auditevent")
        _, cases = base.timed("COPY exception cases", lambda: load_cases(base.EVENTS))
        print(f"    {cases:,} cases", flush=True)
        base.timed("verify the chain (so the screens show a fresh check)", audit_chain_verify)
        # The cases above stand for what the rules found in these events: the rules resume after them (else the
        # first sign-in's sealing job would read the million events again, a back-fill, not a page view).
        from audit.models import AuditEvent, ExceptionScan

        head = AuditEvent.objects.order_by("-sequence").values_list("sequence", flat=True).first() or 0
        ExceptionScan.objects.update_or_create(pk=1, defaults={"last_sequence": head})
        print(f"\nwhole screens through the views (first page of 50), {QUERIES} requests each:")
        times, cpu = screens()
        print(f"  load average now: {os.getloadavg()[0]:.2f}")
        for group in ("list", "queue"):
            values = [t for name, ts in times.items() if name.startswith(group) for t in ts]
            cpus = [t for name, ts in cpu.items() if name.startswith(group) for t in ts]
            for name, ts in times.items():
                if name.startswith(group):
                    p50, p95 = base.percentile(ts, 0.5) * 1000, base.percentile(ts, 0.95) * 1000
                    c95 = base.percentile(cpu[name], 0.95) * 1000
                    print(f"  {name:<24} wall p50 {p50:6.1f} ms  p95 {p95:6.1f} ms   CPU p95 {c95:5.1f} ms")
            p50, p95 = base.percentile(values, 0.5) * 1000, base.percentile(values, 0.95) * 1000
            c95 = base.percentile(cpus, 0.95) * 1000
            label = group + ", all"
            print(f"  {label:<24} wall p50 {p50:6.1f} ms  p95 {p95:6.1f} ms   CPU p95 {c95:5.1f} ms (target < 100 ms)")
        connections.close_all()
    finally:
        base.admin_sql(f"DROP DATABASE IF EXISTS {base.DB_NAME} WITH (FORCE)")
        print(f"\ndropped {base.DB_NAME}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
