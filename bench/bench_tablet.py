"""Dealer tablet polling: what one tablet's once-a-second poll costs when nothing changed (204) and when it did.

Sets up a scratch PostgreSQL database with two seven-seat tables (one round holding, one settled with results),
signs a dealer in through Django's test client, and times in-process requests (no network, no browser):
  - the poll while nothing changed (answered 204 from the newest audit event id),
  - the poll after a change (the whole round section re-rendered),
  - the full table screen.
Prints wall median / p95 and Django-process CPU milliseconds and SQL queries per request (PostgreSQL's own time
is in the wall figures only).

Environment: BENCH_DATABASE_URL (a PostgreSQL server URL, default postgres://postgres@127.0.0.1:5432/postgres; a
scratch database is created and dropped), BENCH_REQUESTS (per measurement, default 300).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
SERVER_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
REQUESTS = int(os.environ.get("BENCH_REQUESTS", "300"))
SCRATCH = f"bench_tablet_{os.getpid()}"


def admin_sql(statement: str) -> None:
    import psycopg

    with psycopg.connect(SERVER_URL, autocommit=True) as conn:
        conn.execute(statement)  # type: ignore[arg-type]


def setup_django() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ["DATABASE_URL"] = urlsplit(SERVER_URL)._replace(path=f"/{SCRATCH}").geturl()
    os.environ.pop("REDIS_URL", None)  # settlement runs eagerly in this process
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    os.environ["TESTING"] = "true"
    os.environ["LOG_LEVEL"] = "ERROR"
    os.environ["ALLOWED_HOSTS"] = "testserver"  # Django test client
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def seed() -> tuple[Any, list[Any]]:
    from django.contrib.auth.models import Group, User

    from audit.context import acting_as
    from tables.services.bets import bet_place
    from tables.services.cards import cards_deal, holds_record, rows_record
    from tables.services.rounds import round_close_bets, round_start
    from tables.services.seats import seat_join
    from tables.services.tables import table_assign_dealer, table_create, table_open
    from tests.paytables.factories import make_paytable

    floor = User.objects.create_user("bench-floor", password="x")
    floor.groups.add(Group.objects.get(name="floor"))
    dealer = User.objects.create_user("bench-dealer", password="x")
    dealer.groups.add(Group.objects.get(name="dealer"))
    paytable = make_paytable("jacks_or_better_9_6", floor, approval_reference="BENCH")
    tables = []
    with acting_as(user=floor, kind="user", name="bench-floor"):
        for name, finish in (("Holding", False), ("Settled", True)):
            table = table_create(name=name, actor=floor, card_source="rng", paytable=paytable)
            table_assign_dealer(table=table, dealer=dealer, actor=floor)
            table_open(table=table, actor=floor)
            for seat in range(1, 8):
                seat_join(table=table, seat_number=seat, actor=floor, player_name=f"P{seat}")
            round_ = round_start(table=table, actor=dealer)
            for seat in range(1, 8):
                bet_place(round=round_, seat_number=seat, amount_cents=500, circles=3, actor=dealer)
            round_close_bets(round=round_, actor=dealer)
            cards_deal(round=round_, actor=dealer)
            if finish:
                for hand in round_.seat_hands.all():
                    holds_record(round=round_, seat_number=hand.seat_number, held=hand.dealt[:2], actor=dealer)
                rows_record(round=round_, actor=dealer)
                from tables.tasks import settle_round

                settle_round.apply(args=[round_.pk])
            tables.append(table)
    return dealer, tables


def measure(call: Callable[[], Any], expected_status: int) -> tuple[list[float], float, int]:
    from django.db import connection

    for _ in range(10):  # warm caches (templates, sessions, query plans)
        call()
    queries: list[str] = []

    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        queries.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        response = call()
    assert response.status_code == expected_status, response.status_code
    timings = []
    cpu_start = time.process_time()
    for _ in range(REQUESTS):
        start = time.perf_counter()
        response = call()
        timings.append((time.perf_counter() - start) * 1000)
    cpu_ms = (time.process_time() - cpu_start) * 1000 / REQUESTS
    return timings, cpu_ms, len(queries)


def report(label: str, timings: list[float], cpu_ms: float, queries: int) -> None:
    """Wall times suffer on a shared machine; CPU time per request (this process only) is the steadier figure."""
    timings.sort()
    median = statistics.median(timings)
    p95 = timings[int(len(timings) * 0.95) - 1]
    print(f"  {label:<44} wall median {median:6.2f} ms  p95 {p95:6.2f} ms  CPU {cpu_ms:5.2f} ms  {queries:2d} queries")


def main() -> int:
    admin_sql(f'CREATE DATABASE "{SCRATCH}"')
    try:
        setup_django()
        from django.test import Client
        from django.urls import reverse

        from tables.selectors.rounds import table_token as table_version

        dealer, tables = seed()
        client = Client()
        client.force_login(dealer)
        print(f"Dealer tablet requests, in-process, {REQUESTS} each (scratch PostgreSQL, one core):")
        for table in tables:
            state = reverse("tablet:state", args=[table.pk])
            version = str(table_version(table))
            print(f"{table.name} table (7 seats x 3 circles):")
            report(
                "poll, nothing changed (204)",
                *measure(lambda: client.get(state, {"v": version}, HTTP_HX_REQUEST="true"), 204),  # noqa: B023
            )
            report(
                "poll after a change (round section rendered)",
                *measure(lambda: client.get(state, {"v": "0"}, HTTP_HX_REQUEST="true"), 200),  # noqa: B023
            )
            screen = reverse("tablet:table", args=[table.pk])
            report("whole table screen", *measure(lambda: client.get(screen), 200))  # noqa: B023
        return 0
    finally:
        if "django.db" in sys.modules:
            from django.db import connections

            connections.close_all()
        admin_sql(f'DROP DATABASE IF EXISTS "{SCRATCH}" WITH (FORCE)')


if __name__ == "__main__":
    sys.exit(main())
