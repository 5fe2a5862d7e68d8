"""Profile Triple Draw rounds in one process: CPU, queries and the top functions of each API action and each job.

The dealer's requests go through Django's whole request stack (test client: middleware, token auth, DRF); the jobs
they queue are captured at the broker and run here afterwards, as a worker would run them, so web and worker costs
are reported apart. PostgreSQL's CPU is the one backend's, read from /proc (all its work, web and jobs).

    BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/profile_round.py \
        [--rounds 30] [--per-seat] [--top 25] [--queries]

A scratch database is created, migrated and dropped. Redis is not used (sends are captured).
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import io
import os
import pstats
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from proc_cpu import cpu_seconds

ROOT = Path(__file__).resolve().parents[1]
SERVER_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
SCRATCH = f"bench_profile_{os.getpid()}"


def scratch_url() -> str:
    return urlsplit(SERVER_URL)._replace(path=f"/{SCRATCH}").geturl()


def admin_sql(statement: str) -> None:
    import psycopg

    with psycopg.connect(SERVER_URL, autocommit=True) as conn:
        conn.execute(statement)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--per-seat", action="store_true")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--queries", action="store_true", help="print each action's SQL of the last round")
    parser.add_argument("--dump", help="write web.prof and jobs.prof (pstats) into this directory")
    parser.add_argument(
        "--time",
        default="",
        help="comma-separated module:function names whose CPU is summed apart "
        "(e.g. tables.selectors.rounds:round_view); with --plain, the real cost of each part",
    )
    parser.add_argument("--plain", action="store_true", help="no profiler, no query capture: CPU figures only")
    opts = parser.parse_args()
    return in_scratch_database(lambda: profile(opts))


def in_scratch_database(body: Callable[[], int]) -> int:
    """Run `body` with Django set up on a new, migrated scratch database, dropped afterwards."""
    env = {
        "DATABASE_URL": scratch_url(),
        "REDIS_URL": "redis://127.0.0.1:6379/14",
        "DEBUG": "false",
        "SECRET_KEY": "bench-only-secret-key-not-for-production-use-0123456789",
        "ALLOWED_HOSTS": "testserver,127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "casino.settings",
    }
    os.environ.update(env)
    admin_sql(f'CREATE DATABASE "{SCRATCH}"')
    try:
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, check=True)
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
        return body()
    finally:
        from django.db import connections

        connections.close_all()
        admin_sql(f'DROP DATABASE IF EXISTS "{SCRATCH}" WITH (FORCE)')


@contextmanager
def statements(connection: Any) -> Iterator[list[str]]:
    """The SQL text of each statement sent meanwhile. An execute wrapper, not Django's CaptureQueriesContext: that
    renders each statement with its values, which with parameters sent apart (prepared statements) costs a client
    cursor's quoting per statement and would be profiled as the statement's own cost."""
    sent: list[str] = []

    def note(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        sent.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(note):
        yield sent


def timed(function: Any, name: str, parts: dict[str, list[float]]) -> Any:
    """`function`, summing its CPU time under `name` (outermost calls only)."""
    depth = [0]

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        depth[0] += 1
        began = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            depth[0] -= 1
            if depth[0] == 0:
                parts[name].append(time.process_time() - began)

    return wrapper


def dealer_at_a_table() -> tuple[Any, Any]:
    """An open rng Triple Draw table with seven players and an assigned dealer, and a DRF client signed in as that
    dealer with an API token (what a tablet sends)."""
    from django.contrib.auth.models import Group, User
    from rest_framework.test import APIClient

    from accounts.services import api_token_issue
    from audit.context import acting_as
    from casino.celery import app
    from tables.services.seats import seat_join
    from tables.services.tables import table_assign_dealer, table_create, table_open
    from tests.paytables.factories import make_paytable

    app.loader.import_default_modules()  # the worker's tasks, as a worker process registers them
    floor = User.objects.create_user("bench-floor")
    floor.groups.add(Group.objects.get(name="floor"))
    dealer = User.objects.create_user("bench-dealer")
    dealer.groups.add(Group.objects.get(name="dealer"))
    paytable = make_paytable("jacks_or_better_9_6", approval_reference="BENCH")
    with acting_as(user=floor, kind="user"):
        table = table_create(
            name="Profile",
            card_source="rng",
            paytable=paytable,
            actor=floor,
            max_payout_per_seat_cents=10**9,
            supervisor_approval_threshold_cents=10**9,
        )
        table_open(table=table, actor=floor)
        table_assign_dealer(table=table, dealer=dealer, actor=floor)
        for seat in range(1, 8):
            seat_join(table=table, seat_number=seat, player_name=f"P{seat}", actor=floor)
    token = api_token_issue(user=dealer, actor=None).token
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return table, client


def captured_sends() -> list[tuple[str, tuple[Any, ...], dict[str, Any]]]:
    """From now on, what the product sends to the broker is kept in the returned list (task, args, kwargs) instead,
    for the caller to run as a worker would."""
    from casino import broker

    sent: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []

    def capture(task_name: str, args: Any = (), kwargs: dict[str, Any] | None = None, **_: Any) -> bool:
        sent.append((task_name, tuple(args), kwargs or {}))
        return True

    broker.send = capture  # type: ignore[assignment]
    return sent


def play_round(call: Callable[..., Any], run_jobs: Callable[[], None], table_id: int, rng: Any, per_seat: bool) -> int:
    """One whole Triple Draw round as a tablet (per-seat) or an API client (batched) plays it, to settled:
    `call(name, method, path, body=None, expect=200)` sends a request and returns its data; `run_jobs()` runs what the
    requests queued, as a worker would, before the last poll. Returns the round's id."""
    state = call("start", "post", f"/api/v1/tables/{table_id}/rounds/", expect=201)
    round_id = state["id"]
    bets = [{"seat": seat, "amount_cents": 500, "circles": 3} for seat in range(1, 8)]
    if per_seat:
        for entry in bets:
            call("bet", "post", f"/api/v1/rounds/{round_id}/bets/", entry)
    else:
        call("bets_all", "post", f"/api/v1/rounds/{round_id}/bets/batch/", {"bets": bets})
    call("close_bets", "post", f"/api/v1/rounds/{round_id}/close-bets/")
    state = call("deal", "post", f"/api/v1/rounds/{round_id}/deal/", {})
    holds = [{"seat": s["seat"], "held": [c for c in s["dealt"] if rng.random() < 0.5]} for s in state["seats"]]
    if per_seat:
        for entry in holds:
            call("hold", "post", f"/api/v1/rounds/{round_id}/holds/", entry)
    else:
        call("holds_all", "post", f"/api/v1/rounds/{round_id}/holds/batch/", {"holds": holds})
    call("rows", "post", f"/api/v1/rounds/{round_id}/rows/", {})
    run_jobs()
    state = call("poll", "get", f"/api/v1/rounds/{round_id}/")
    if state["phase"] != "settled":
        raise RuntimeError(f"round {round_id} is {state['phase']} after its jobs ran")
    return int(round_id)


def profile(opts: argparse.Namespace) -> int:
    import random

    from django.db import connection

    from casino.celery import app

    sent = captured_sends()
    parts: dict[str, list[float]] = defaultdict(list)
    for name in filter(None, opts.time.split(",")):
        # module:attribute.path, patched where it is looked up (a module that imported the name holds its own copy)
        module_name, path = name.split(":")
        owner: Any = importlib.import_module(module_name)
        *outer, attribute = path.split(".")
        for step in outer:
            owner = getattr(owner, step)
        setattr(owner, attribute, timed(getattr(owner, attribute), name, parts))
    table, client = dealer_at_a_table()
    rng = random.Random(7)
    # CPU time, not wall: waiting for PostgreSQL is not this process's cost.
    web = cProfile.Profile(time.process_time)
    jobs = cProfile.Profile(time.process_time)
    profiling = not opts.plain
    cpu: dict[str, list[float]] = defaultdict(list)
    queries: dict[str, list[int]] = defaultdict(list)
    last_sql: dict[str, list[str]] = {}

    def sql_sent() -> AbstractContextManager[list[str]]:
        return statements(connection) if profiling else nullcontext([])

    def call(name: str, method: str, path: str, body: Any = None, expect: int = 200, measure: bool = True) -> Any:
        began = time.process_time()
        with sql_sent() as captured:
            if measure and profiling:
                web.enable()
            response = getattr(client, method)(path, body, format="json")
            if measure and profiling:
                web.disable()
        if measure:
            cpu[name].append(time.process_time() - began)
            queries[name].append(len(captured))
            last_sql[name] = list(captured)
        if response.status_code != expect:
            raise RuntimeError(f"{name}: {response.status_code} {getattr(response, 'data', '')}")
        return response.data if response.status_code != 304 else None

    def run_jobs(measure: bool) -> None:
        while sent:
            task_name, args, kwargs = sent.pop(0)
            began = time.process_time()
            with sql_sent() as captured:
                if measure and profiling:
                    jobs.enable()
                app.tasks[task_name].apply(args, kwargs)
                if measure and profiling:
                    jobs.disable()
            if measure:
                cpu[f"job {task_name}"].append(time.process_time() - began)
                queries[f"job {task_name}"].append(len(captured))
                last_sql[f"job {task_name}"] = list(captured)

    for n in range(60):  # a bare authenticated request: the floor under every action's cost
        call("bare GET /api/v1/me/", "get", "/api/v1/me/", measure=n >= 10)
    rounds_measured = 0
    backend: set[int] = set()
    backend_began = 0.0
    for n in range(opts.rounds + 3):
        measure = n >= 3  # three warm-up rounds
        if n == 3:
            # This process's one connection serves web calls and jobs alike: its backend's CPU is PostgreSQL's share.
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                backend = {int(cursor.fetchone()[0])}
            backend_began = cpu_seconds(pids=backend)
        play_round(partial(call, measure=measure), partial(run_jobs, measure), table.pk, rng, per_seat=opts.per_seat)
        rounds_measured += int(measure)
    database_ms = (cpu_seconds(pids=backend) - backend_began) / rounds_measured * 1000

    style = "per-seat" if opts.per_seat else "batched"
    print(f"{rounds_measured} rounds, {style}; CPU per call (ms), statements (BEGIN and COMMIT not counted)")
    web_total = job_total = 0.0
    for name, values in cpu.items():
        per_round = sum(values) / rounds_measured * 1000
        if name.startswith("job"):
            job_total += per_round
        elif not name.startswith("bare"):
            web_total += per_round
        mean = sum(values) / len(values) * 1000
        # --plain counts no statements (the counting wrapper would weigh on the CPU it measures): not "0".
        counted = f"{sum(queries[name]) / len(queries[name]):5.1f}" if profiling else "  n/a"
        print(
            f"  {name:28} calls/round {len(values) / rounds_measured:5.2f}  mean {mean:6.2f}"
            f"  per round {per_round:6.2f}  queries {counted}"
        )
    print(
        f"  web per round {web_total:.1f} ms, jobs per round {job_total:.1f} ms,"
        f" PostgreSQL backend per round {database_ms:.1f} ms (10 ms clock ticks)"
    )
    for name, values in parts.items():
        mean = sum(values) / len(values) * 1000
        print(
            f"  part {name:40} calls/round {len(values) / rounds_measured:5.2f}  mean {mean:6.2f}"
            f"  per round {sum(values) / rounds_measured * 1000:6.2f}"
        )
    for title, prof in (("web", web), ("jobs", jobs)) if profiling else ():
        if opts.dump:
            prof.dump_stats(os.path.join(opts.dump, f"{title}.prof"))
        stream = io.StringIO()
        pstats.Stats(prof, stream=stream).sort_stats("cumulative").print_stats(opts.top)
        print(f"\n===== {title}: top by cumulative time =====")
        print(stream.getvalue()[-12000:])
        stream = io.StringIO()
        pstats.Stats(prof, stream=stream).sort_stats("tottime").print_stats(opts.top)
        print(f"\n===== {title}: top by own time =====")
        print(stream.getvalue()[-8000:])
    if opts.queries:
        for name, sql in last_sql.items():
            print(f"\n===== {name}: {len(sql)} queries =====")
            for statement in sql:
                print("  " + statement[:300])
    return 0


if __name__ == "__main__":
    sys.exit(main())
