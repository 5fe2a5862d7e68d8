"""Triple Draw rounds through the HTTP API: rounds per second, per-action latency and settlement lag, for 10 and 50
concurrent simulated tablets (gunicorn, a scratch PostgreSQL database, Redis and a Celery worker, all started here).

Each tablet runs its own rng table: start, 7 bets (3 circles), close bets, deal, 7 holds, rows, then polls
(conditional GETs with the round's ETag) until the worker has settled the round (the next round cannot start before).
The same run measures a bare authenticated DRF request (GET /api/v1/me/) so a round's cost can be read relative to it.

Environment: BENCH_DATABASE_URL (a PostgreSQL server URL, default postgres://postgres@127.0.0.1:5432/postgres; a
scratch database is created and dropped), BENCH_REDIS_URL (default redis://127.0.0.1:6379/13, flushed: use a
database of its own), BENCH_SECONDS (per concurrency level, default 20), BENCH_TABLETS (default "10,50").
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from proc_cpu import cpu_seconds, database_backends

ROOT = Path(__file__).resolve().parents[1]
VENV_BIN = Path(sys.executable).parent
SERVER_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")
SECONDS = float(os.environ.get("BENCH_SECONDS", "20"))
LEVELS = [int(n) for n in os.environ.get("BENCH_TABLETS", "10,50").split(",")]
SCRATCH = f"bench_rounds_{os.getpid()}"
SEATS = 7
CIRCLES = 3
BET = 500
ACTIONS = ("start", "bet", "bets_all", "close_bets", "deal", "hold", "holds_all", "rows")
# per_seat: one request per seat's bet and hold (18 actions a round); batched: all bets, all holds at once (6).
MODES = [m for m in os.environ.get("BENCH_MODES", "per_seat,batched").split(",") if m]
POLL_SECONDS = 0.02
SETTLE_WAIT = 30.0


def scratch_url() -> str:
    parts = urlsplit(SERVER_URL)
    return parts._replace(path=f"/{SCRATCH}").geturl()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def env_for_children() -> dict[str, str]:
    return os.environ | {
        "DATABASE_URL": scratch_url(),
        "REDIS_URL": REDIS_URL,
        "DEBUG": "false",
        "SECRET_KEY": "bench-only-secret-key-not-for-production-use-0123456789",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "casino.settings",
    }


def admin_sql(statement: str) -> None:
    import psycopg

    with psycopg.connect(SERVER_URL, autocommit=True) as conn:
        conn.execute(statement)


def flush_redis() -> None:
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()


SETUP = r"""
import json, sys
import django
django.setup()
from django.contrib.auth.models import Group, User
from accounts.services import api_token_issue
from audit.context import acting_as
from tables.services.seats import seat_join
from tables.services.tables import table_assign_dealer, table_create, table_open
from tests.paytables.factories import make_paytable
tablets = int(sys.argv[1])
floor = User.objects.create_user("bench-floor")
floor.groups.add(Group.objects.get(name="floor"))
# Approved directly (no analysis job) so the worker only settles rounds and seals the audit chain.
paytable = make_paytable("jacks_or_better_9_6", approval_reference="BENCH")
out = {"tablets": [], "floor_token": api_token_issue(user=floor, actor=None).token}
with acting_as(user=floor, kind="user"):
    for n in range(tablets):
        dealer = User.objects.create_user(f"bench-dealer-{n}")
        dealer.groups.add(Group.objects.get(name="dealer"))
        table = table_create(name=f"Bench {n}", card_source="rng", paytable=paytable, actor=floor,
                                      max_payout_per_seat_cents=10**9, supervisor_approval_threshold_cents=10**9)
        table_open(table=table, actor=floor)
        table_assign_dealer(table=table, dealer=dealer, actor=floor)
        for seat in range(1, 8):
            seat_join(table=table, seat_number=seat, player_name=f"P{seat}", actor=floor)
        out["tablets"].append({"table": table.pk, "token": api_token_issue(user=dealer, actor=None).token})
print(json.dumps(out))
"""

LAG_SQL = r"""
import json, sys
import django
django.setup()
from tables.models import Round
ids = json.loads(sys.stdin.read())
rows = Round.objects.filter(pk__in=ids).values_list("phase", "rows_recorded_at", "settled_at")
print(json.dumps([[p, (s - r).total_seconds() if s and r else None] for p, r, s in rows]))
"""


def django_child(code: str, *args: str, stdin: str = "") -> Any:
    result = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        env=env_for_children(),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if result.returncode != 0:
        raise RuntimeError(result.stderr[-3000:])
    return json.loads(result.stdout.strip().splitlines()[-1])


class Client:
    """One keep-alive HTTP connection with a dealer's token (one simulated tablet)."""

    def __init__(self, port: int, token: str) -> None:
        self.port = port
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.etag = ""

    def call(self, method: str, path: str, body: Any = None, etag: str = "") -> tuple[int, Any, float]:
        """One request; with `etag`, a conditional GET (304 and no body while unchanged). Sets `self.etag`."""
        data = json.dumps(body) if body is not None else None
        headers = self.headers | ({"If-None-Match": etag} if etag else {})
        for attempt in range(2):
            began = time.perf_counter()
            try:
                self.conn.request(method, path, body=data, headers=headers)
                response = self.conn.getresponse()
                payload = response.read()
                self.etag = response.getheader("ETag") or ""
                return response.status, json.loads(payload) if payload else None, time.perf_counter() - began
            except (http.client.HTTPException, ConnectionError):
                # The server closed an idle keep-alive connection: reconnect once.
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                if attempt:
                    raise
        raise AssertionError("unreachable")


def play(
    client: Client, table_id: int, deadline: float, rng: random.Random, out: dict[str, Any], batched: bool
) -> None:
    """Back-to-back rounds until the deadline; records latency per action and every round id."""
    latencies: dict[str, list[float]] = out["latencies"]

    def act(name: str, method: str, path: str, body: Any = None, expect: int = 200) -> Any:
        status, payload, seconds = client.call(method, path, body)
        if status != expect:
            raise RuntimeError(f"{name}: HTTP {status} {payload}")
        latencies[name].append(seconds)
        return payload

    while time.monotonic() < deadline:
        began = time.perf_counter()
        state = act("start", "POST", f"/api/v1/tables/{table_id}/rounds/", expect=201)
        round_id = state["id"]
        bets = [{"seat": seat, "amount_cents": BET, "circles": CIRCLES} for seat in range(1, SEATS + 1)]
        if batched:
            act("bets_all", "POST", f"/api/v1/rounds/{round_id}/bets/batch/", {"bets": bets})
        else:
            for entry in bets:
                act("bet", "POST", f"/api/v1/rounds/{round_id}/bets/", entry)
        act("close_bets", "POST", f"/api/v1/rounds/{round_id}/close-bets/")
        state = act("deal", "POST", f"/api/v1/rounds/{round_id}/deal/", {})
        holds = [
            {"seat": seat["seat"], "held": [card for card in seat["dealt"] if rng.random() < 0.5]}
            for seat in state["seats"]
        ]
        if batched:
            act("holds_all", "POST", f"/api/v1/rounds/{round_id}/holds/batch/", {"holds": holds})
        else:
            for entry in holds:
                act("hold", "POST", f"/api/v1/rounds/{round_id}/holds/", entry)
        state = act("rows", "POST", f"/api/v1/rounds/{round_id}/rows/", {})
        waited_until = time.monotonic() + SETTLE_WAIT
        # The answer carries the state's ETag, so even the first poll is conditional.
        etag, phase = client.etag, state["phase"]
        while phase != "settled":
            # Conditional polls, as a tablet holding the state would send: 304 (no body) until the round changes.
            status, payload, _ = client.call("GET", f"/api/v1/rounds/{round_id}/", etag=etag)
            out["polls"] += 1
            if status == 200:
                etag, phase = client.etag, payload["phase"]
                if phase == "settled":
                    break
            elif status != 304:
                raise RuntimeError(f"poll: HTTP {status} {payload}")
            if time.monotonic() > waited_until:
                raise RuntimeError(f"round {round_id} not settled after {SETTLE_WAIT}s (phase {phase})")
            time.sleep(POLL_SECONDS)
        out["rounds"].append(round_id)
        out["round_seconds"].append(time.perf_counter() - began)


def run_level(port: int, tablets: list[dict[str, Any]], batched: bool, seconds: float = SECONDS) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    results = [
        {"latencies": defaultdict(list), "rounds": [], "round_seconds": [], "polls": 0, "error": None} for _ in tablets
    ]

    def worker(index: int) -> None:
        client = Client(port, tablets[index]["token"])
        try:
            play(client, tablets[index]["table"], deadline, random.Random(index), results[index], batched)
        except Exception as exc:  # reported in the figures, never hidden
            results[index]["error"] = repr(exc)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(tablets))]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + SETTLE_WAIT + 60)
    elapsed = time.perf_counter() - began
    latencies: dict[str, list[float]] = defaultdict(list)
    for result in results:
        for name, values in result["latencies"].items():
            latencies[name].extend(values)
    rounds = [r for result in results for r in result["rounds"]]
    return {
        "elapsed": elapsed,
        "rounds": rounds,
        "latencies": latencies,
        "round_seconds": [s for result in results for s in result["round_seconds"]],
        "polls": sum(result["polls"] for result in results),
        "errors": [result["error"] for result in results if result["error"]],
    }


def bare_requests(port: int, token: str, clients: int, count: int) -> dict[str, float]:
    """GET /api/v1/me/ (token auth, role lookup, JSON) from `clients` threads, `count` requests each."""
    latencies: list[float] = []
    lock = threading.Lock()

    def worker() -> None:
        client = Client(port, token)
        mine = []
        for _ in range(count):
            status, _, seconds = client.call("GET", "/api/v1/me/")
            if status != 200:
                raise RuntimeError(f"bare request: HTTP {status}")
            mine.append(seconds)
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=worker) for _ in range(clients)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    elapsed = time.perf_counter() - began
    return {"per_second": len(latencies) / elapsed, **percentiles(latencies)}


def percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {"p50": float("nan"), "p95": float("nan"), "p99": float("nan"), "mean": float("nan")}
    ordered = sorted(values)

    def pick(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    return {"p50": pick(0.50), "p95": pick(0.95), "p99": pick(0.99), "mean": statistics.fmean(ordered) * 1000}


def wait_for_port(port: int, process: subprocess.Popen[bytes], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("gunicorn exited during start-up")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"gunicorn did not listen on {port} within {seconds}s")


def stop(process: subprocess.Popen[bytes] | None) -> None:
    if process is None or process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)  # the parent shuts its children down (warm shutdown)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


def report(level: str, figures: dict[str, Any], lags: list[float], bare: dict[str, float]) -> dict[str, Any]:
    rounds = len(figures["rounds"])
    per_second = rounds / figures["elapsed"]
    actions = sum(len(v) for v in figures["latencies"].values())
    all_actions = [s for v in figures["latencies"].values() for s in v]
    print(
        f"\n{level}: {rounds} rounds in {figures['elapsed']:.1f}s = {per_second:.1f} rounds/s "
        f"({actions} dealer actions, {actions / figures['elapsed']:.0f}/s; {figures['polls']} status polls)"
    )
    print(f"  {'action':<11} {'count':>6} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}")
    for name in ACTIONS:
        values = figures["latencies"].get(name, [])
        if not values:
            continue
        p = percentiles(values)
        print(f"  {name:<11} {len(values):>6} {p['p50']:>8.1f} {p['p95']:>8.1f} {p['p99']:>8.1f}")
    overall = percentiles(all_actions)
    print(f"  {'all':<11} {len(all_actions):>6} {overall['p50']:>8.1f} {overall['p95']:>8.1f} {overall['p99']:>8.1f}")
    lag = percentiles(lags)
    print(
        f"  settlement lag (rows recorded -> settled): p50 {lag['p50']:.0f} ms, p95 {lag['p95']:.0f} ms, "
        f"p99 {lag['p99']:.0f} ms"
    )
    round_time = percentiles(figures["round_seconds"])
    print(
        f"  one tablet's round, first action to settled: p50 {round_time['p50']:.0f} ms, p95 {round_time['p95']:.0f} ms"
    )
    if bare["per_second"]:
        print(
            f"  a round costs {bare['per_second'] / per_second if per_second else float('nan'):.0f} bare requests "
            f"of server throughput; an action's p50 is {overall['p50'] / bare['p50']:.1f}x a bare request's"
        )
    if rounds:
        web, work, database = (seconds / rounds * 1000 for seconds in figures["cpu"])
        total = web + work + database
        print(
            f"  CPU per round: web {web:.0f} ms, Celery worker {work:.0f} ms, PostgreSQL {database:.0f} ms "
            f"= {total:.0f} ms, i.e. at most {2000 / total:.1f} rounds/s on two otherwise idle cores"
        )
    for error in figures["errors"]:
        print(f"  ERROR {error}")
    return {
        "tablets": level,
        "rounds": rounds,
        "rounds_per_second": per_second,
        "p99_ms": overall["p99"],
        "settle_lag_p95_ms": lag["p95"],
        "errors": figures["errors"],
    }


def main() -> int:
    import psycopg

    try:
        psycopg.connect(SERVER_URL, connect_timeout=3).close()
        flush_redis()
    except Exception as exc:
        print(f"skipped: needs PostgreSQL ({SERVER_URL}) and Redis ({REDIS_URL}): {exc}")
        return 0
    admin_sql(f'CREATE DATABASE "{SCRATCH}"')
    gunicorn = worker = None
    summary = []
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=ROOT,
            env=env_for_children(),
            check=True,
            timeout=600,
        )
        setup = django_child(SETUP, str(max(LEVELS)))
        port = free_port()
        gunicorn = subprocess.Popen(
            [
                str(VENV_BIN / "gunicorn"),
                "casino.wsgi:application",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                "2",
                "--worker-class",
                "gthread",
                "--threads",
                "8",
                "--keep-alive",
                "30",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env_for_children(),
            start_new_session=True,
        )
        worker = subprocess.Popen(
            [
                str(VENV_BIN / "celery"),
                "-A",
                "casino.celery:app",
                "worker",
                "--concurrency",
                "2",
                "--loglevel",
                "WARNING",
                "--without-gossip",
                "--without-mingle",
            ],
            cwd=ROOT,
            env=env_for_children(),
            start_new_session=True,
        )
        wait_for_port(port, gunicorn)
        print(
            f"gunicorn 2 workers x 8 threads on 127.0.0.1:{port}; Celery worker (2 processes); PostgreSQL {SCRATCH}; "
            f"Redis {REDIS_URL}; {SECONDS:.0f}s per level; {SEATS} seats x {CIRCLES} circles per round"
        )
        bare_requests(port, setup["floor_token"], 4, 25)  # warm up both gunicorn workers
        bare = bare_requests(port, setup["floor_token"], 10, 100)
        print(
            f"bare authenticated DRF request (GET /api/v1/me/, 10 clients): {bare['per_second']:.0f}/s, "
            f"p50 {bare['p50']:.1f} ms, p99 {bare['p99']:.1f} ms"
        )
        for mode in MODES:
            batched = mode == "batched"
            for level in LEVELS:
                tablets = setup["tablets"][:level]
                # One unmeasured round per tablet first: every gunicorn thread opens its database connection.
                run_level(port, tablets, batched, seconds=0.1)
                # Backends are pooled per gunicorn thread and per worker process, so they outlive the level.
                backends = database_backends(SERVER_URL, SCRATCH)
                before = (cpu_seconds(pgid=gunicorn.pid), cpu_seconds(pgid=worker.pid), cpu_seconds(pids=backends))
                figures = run_level(port, tablets, batched)
                backends |= database_backends(SERVER_URL, SCRATCH)
                after = (cpu_seconds(pgid=gunicorn.pid), cpu_seconds(pgid=worker.pid), cpu_seconds(pids=backends))
                figures["cpu"] = [b - a for a, b in zip(before, after, strict=True)]
                rows = django_child(LAG_SQL, stdin=json.dumps(figures["rounds"]))
                lags = [lag for _, lag in rows if lag is not None]
                summary.append(report(f"{level} tablets, {mode}", figures, lags, bare))
    finally:
        stop(gunicorn)
        stop(worker)
        flush_redis()
        admin_sql(f'DROP DATABASE IF EXISTS "{SCRATCH}" WITH (FORCE)')
    print("\n" + json.dumps({"bench": "rounds", "levels": summary}))
    return 1 if any(level["errors"] for level in summary) else 0


if __name__ == "__main__":
    sys.exit(main())
