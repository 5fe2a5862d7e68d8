"""Home-game tables through the API: complete hands per second for 6 players on an rng table, and the latency of
one action (p50/p99) with 10 and 50 tables in play, against a Triple Draw bet's cost as the reference.

Sets up a scratch PostgreSQL database (created and dropped here), a dealer with an in-process API client
(DRF's test client: the whole Django request stack, no network), rng Five Card Draw tables (fixed limit, six players)
and plays each hand to its end: every betting turn checks or calls, every draw exchanges three cards. Bounded: at
most BENCH_HOME_HANDS hands for the hands-per-second figure (default 60) and BENCH_HOME_ROUNDS hands per table for
the 10- and 50-table figures (default 2). The audit chain is sealed by a worker in production, so the requests here
leave it unsealed (BENCH_HOME_SEAL=inline seals in each request, as an embedded run without a broker does), and
the floor's figures, refreshed by a worker after each settled hand, are not recomputed (BENCH_HOME_REFRESH=inline).

Then the same through real HTTP: gunicorn (2 workers x 8 threads, 127.0.0.1 only) and a Celery worker (which seals
the audit chain and refreshes the floor's figures, as in production), BENCH_HOME_CLIENTS clients (default 10), each
a dealer's tablet with its own table of six players, playing hands at once for BENCH_HOME_SECONDS (default 15) and
at most BENCH_HOME_HTTP_HANDS hands each (default 200): complete hands per second for all of them, the action
latency, and the CPU of gunicorn, the worker and PostgreSQL per hand.

Environment: BENCH_DATABASE_URL (a PostgreSQL server URL, default postgres://postgres@127.0.0.1:5432/postgres),
BENCH_REDIS_URL (default redis://127.0.0.1:6379/13, flushed), BENCH_HOME_PORT (default 8610), BENCH_HOME_HTTP=0 skips
the HTTP part.
"""

from __future__ import annotations

import http.client
import json
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from proc_cpu import cpu_seconds, database_backends

ROOT = Path(__file__).resolve().parents[1]
SERVER_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
HANDS = int(os.environ.get("BENCH_HOME_HANDS", "60"))
ROUNDS = int(os.environ.get("BENCH_HOME_ROUNDS", "2"))
SCRATCH = f"bench_home_tables_{os.getpid()}"
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")
PORT = int(os.environ.get("BENCH_HOME_PORT", "8610"))
CLIENTS = int(os.environ.get("BENCH_HOME_CLIENTS", "10"))
SECONDS = float(os.environ.get("BENCH_HOME_SECONDS", "15"))
HTTP_HANDS = int(os.environ.get("BENCH_HOME_HTTP_HANDS", "200"))
VENV_BIN = Path(sys.executable).parent
RULES = {"ante_cents": 100, "betting": "fixed_limit", "small_bet_cents": 200, "big_bet_cents": 400}


def admin_sql(statement: str) -> None:
    import psycopg

    with psycopg.connect(SERVER_URL, autocommit=True) as conn:
        conn.execute(statement)  # type: ignore[arg-type]


def setup_django() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ["DATABASE_URL"] = urlsplit(SERVER_URL)._replace(path=f"/{SCRATCH}").geturl()
    os.environ.pop("REDIS_URL", None)  # audit sealing runs in this process after each commit
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    os.environ["TESTING"] = "true"
    os.environ["LOG_LEVEL"] = "ERROR"
    os.environ["ALLOWED_HOSTS"] = "testserver"
    # As production runs (and the HTTP part's server): with DEBUG on, Django logs every statement with its
    # parameters, which cost the home requests (about ten statements each) more than the Triple Draw reference.
    os.environ["DEBUG"] = "false"
    os.environ["SECURE_SSL_REDIRECT"] = "false"
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def staff() -> tuple[Any, Any]:
    from django.contrib.auth.models import Group, User

    floor = User.objects.create_user("bench-floor", password="x")
    floor.groups.add(Group.objects.get(name="floor"))
    dealer = User.objects.create_user("bench-dealer", password="x")
    dealer.groups.add(Group.objects.get(name="dealer"))
    return floor, dealer


def home_tables(floor: Any, dealer: Any, count: int, prefix: str) -> list[int]:
    """`count` open rng Five Card Draw tables, each with a game of six players; returns the game ids."""
    from tables.services.home_config import home_config_set
    from tables.services.home_games import game_open
    from tables.services.tables import table_assign_dealer, table_create, table_open

    games = []
    for number in range(count):
        table = table_create(name=f"{prefix} {number}", table_type="five-card-draw", card_source="rng", actor=floor)
        table = table_open(table=table, actor=floor)
        table_assign_dealer(table=table, dealer=dealer, actor=floor)
        home_config_set(table=table, actor=floor, rules=RULES, buy_in_min_cents=1_000, buy_in_max_cents=10_000_000)
        game = game_open(
            table=table,
            actor=dealer,
            players=[{"seat": seat, "name": f"P{seat}", "buy_in_cents": 5_000_000} for seat in range(1, 7)],
        )
        games.append(game.pk)
    return games


class Player:
    """Plays hands over the API and times every action request."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.latencies: list[float] = []
        self.actions = 0

    def post(self, url: str, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
        started = time.perf_counter()
        response = self.client.post(url, body, format="json")
        self.latencies.append((time.perf_counter() - started) * 1000)
        assert response.status_code == status, response.content
        self.actions += 1
        return dict(response.json())

    def start(self, game_id: int) -> dict[str, Any]:
        return self.post(f"/api/v1/games/{game_id}/hands/", {}, 201)

    def step(self, hand: dict[str, Any]) -> dict[str, Any]:
        seat = hand["awaiting"]["seat"]
        if hand["legal"] is not None:
            body = {"seat": seat, "action": "check" if "check" in hand["legal"]["actions"] else "call"}
        else:
            held = next(p["cards"] for p in hand["players"] if p["seat"] == seat)
            body = {"seat": seat, "action": "draw", "cards": held[:3]}
        return self.post(f"/api/v1/hands/{hand['id']}/actions/", body)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def hands_per_second(player: Player, game_id: int) -> None:
    for _ in range(3):  # warm caches and query plans
        hand = player.start(game_id)
        while hand["status"] == "in_play":
            hand = player.step(hand)
    player.latencies.clear()
    player.actions = 0
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(HANDS):
        hand = player.start(game_id)
        while hand["status"] == "in_play":
            hand = player.step(hand)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"One rng table, 6 players, {HANDS} complete hands through the API (in-process):")
    print(f"  {HANDS / wall:6.1f} hands/s  ({player.actions / HANDS:.1f} requests a hand: start, bets, draws)")
    print(
        f"  per request: wall p50 {percentile(player.latencies, 0.5):6.2f} ms  p99 "
        f"{percentile(player.latencies, 0.99):6.2f} ms  Django CPU {cpu * 1000 / player.actions:5.2f} ms"
    )


def many_tables(player: Player, games: list[int]) -> None:
    """Hands in play at every table at once: one action at each table in turn, as many dealers would tap."""
    player.latencies.clear()
    player.actions = 0
    cpu = time.process_time()
    for _ in range(ROUNDS):
        hands = {game: player.start(game) for game in games}
        while hands:
            for game in list(hands):
                hand = player.step(hands[game])
                if hand["status"] == "in_play":
                    hands[game] = hand
                else:
                    del hands[game]
    cpu = time.process_time() - cpu
    print(
        f"  {len(games):2d} tables in play, {ROUNDS} hands each: action wall p50 "
        f"{percentile(player.latencies, 0.5):6.2f} ms  p99 {percentile(player.latencies, 0.99):6.2f} ms  "
        f"Django CPU {cpu * 1000 / player.actions:5.2f} ms"
    )


def triple_draw_bet_cost(floor: Any, dealer: Any, client: Any) -> None:
    """The reference: a Triple Draw bet placed through the API (one seat's bets), same process and database."""
    from tables.services.seats import seat_join
    from tables.services.tables import table_assign_dealer, table_create, table_open
    from tests.paytables.factories import make_paytable

    paytable = make_paytable("jacks_or_better_9_6", floor, approval_reference="BENCH")
    table = table_create(name="TD bench", actor=floor, card_source="rng", paytable=paytable)
    table_assign_dealer(table=table, dealer=dealer, actor=floor)
    table = table_open(table=table, actor=floor)
    for seat in range(1, 7):
        seat_join(table=table, seat_number=seat, actor=floor, player_name=f"P{seat}")
    latencies: list[float] = []
    cpu, count = time.process_time(), 0
    for _ in range(max(3, HANDS // 4)):
        round_id = client.post(f"/api/v1/tables/{table.pk}/rounds/").json()["id"]
        for seat in range(1, 7):
            started = time.perf_counter()
            response = client.post(
                f"/api/v1/rounds/{round_id}/bets/", {"seat": seat, "amount_cents": 500, "circles": 3}, format="json"
            )
            latencies.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200, response.content
            count += 1
        client.post(f"/api/v1/rounds/{round_id}/void/", {"reason": "bench"}, format="json")
    cpu = time.process_time() - cpu
    print(
        f"Reference, a Triple Draw bet through the API: wall p50 {statistics.median(latencies):6.2f} ms  "
        f"(CPU per round incl. start and void {cpu * 1000 / count:5.2f} ms per bet)"
    )


class HttpTablet:
    """One dealer's tablet: a keep-alive HTTP connection with the dealer's token, playing its table's hands."""

    def __init__(self, token: str, game_id: int) -> None:
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        self.game_id = game_id
        self.conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
        self.latencies: list[float] = []
        self.hands = 0
        self.errors: list[str] = []

    def post(self, path: str, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
        started = time.perf_counter()
        self.conn.request("POST", path, body=json.dumps(body), headers=self.headers)
        response = self.conn.getresponse()
        payload = response.read()
        self.latencies.append((time.perf_counter() - started) * 1000)
        if response.status != status:
            raise RuntimeError(f"{path}: {response.status} {payload[:300]!r}")
        return dict(json.loads(payload))

    def play(self, until: float, most: int) -> None:
        try:
            while time.perf_counter() < until and self.hands < most:
                hand = self.post(f"/api/v1/games/{self.game_id}/hands/", {}, 201)
                while hand["status"] == "in_play":
                    hand = self.post(f"/api/v1/hands/{hand['id']}/actions/", next_action(hand))
                self.hands += 1
        except Exception as exc:  # reported with the figures, not raised from a thread
            self.errors.append(repr(exc))


def next_action(hand: dict[str, Any]) -> dict[str, Any]:
    """Check or call every betting turn, exchange three cards at every draw (as `Player.step`)."""
    seat = hand["awaiting"]["seat"]
    if hand["legal"] is not None:
        return {"seat": seat, "action": "check" if "check" in hand["legal"]["actions"] else "call"}
    held = next(p["cards"] for p in hand["players"] if p["seat"] == seat)
    return {"seat": seat, "action": "draw", "cards": held[:3]}


def child_env() -> dict[str, str]:
    from django.conf import settings

    return os.environ | {
        "DATABASE_URL": urlsplit(SERVER_URL)._replace(path=f"/{SCRATCH}").geturl(),
        "REDIS_URL": REDIS_URL,
        "CELERY_KEY_PREFIX": "bench_home:",
        "DEBUG": "false",
        "TESTING": "false",
        # The tokens were issued in this process: the server must sign with the same key to accept them.
        "SECRET_KEY": settings.SECRET_KEY,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "LOG_LEVEL": "ERROR",
        "DJANGO_SETTINGS_MODULE": "casino.settings",
    }


def start(command: list[str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(command, cwd=ROOT, env=child_env(), start_new_session=True)


def stop(process: subprocess.Popen[bytes] | None) -> None:
    if process is None or process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)  # the parent shuts its children down
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


def wait_for_port(process: subprocess.Popen[bytes], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("gunicorn exited during start-up")
        try:
            with socket.create_connection(("127.0.0.1", PORT), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"gunicorn did not listen on {PORT} within {seconds}s")


def http_tablets(floor: Any) -> list[tuple[str, int]]:
    """CLIENTS dealers, each with a token and an rng table of six players of their own."""
    from django.contrib.auth.models import Group, User

    from accounts.services import api_token_issue
    from audit.context import acting_as

    tablets = []
    with acting_as(user=floor, kind="user", name="bench-floor"):
        for number in range(CLIENTS):
            dealer = User.objects.create_user(f"bench-http-dealer-{number}")
            dealer.groups.add(Group.objects.get(name="dealer"))
            game = home_tables(floor, dealer, 1, f"HTTP {number}")[0]
            tablets.append((api_token_issue(user=dealer, actor=None).token, game))
    return tablets


def through_http(floor: Any) -> None:
    """Complete hands per second with CLIENTS tablets at once through gunicorn, and the CPU each hand costs."""
    import redis
    from django.db import connections

    redis.Redis.from_url(REDIS_URL).flushdb()
    tablets = http_tablets(floor)
    connections.close_all()  # this process's connection is not part of the figures
    gunicorn = worker = None
    try:
        gunicorn = start(
            [
                str(VENV_BIN / "gunicorn"),
                "casino.wsgi:application",
                "--bind",
                f"127.0.0.1:{PORT}",
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
            ]
        )
        worker = start(
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
            ]
        )
        wait_for_port(gunicorn)
        # One unmeasured hand per tablet: every gunicorn thread opens its database connection.
        warm = [HttpTablet(token, game) for token, game in tablets]
        run_tablets(warm, 60.0, 1)
        backends = database_backends(SERVER_URL, SCRATCH)
        before = (cpu_seconds(pgid=gunicorn.pid), cpu_seconds(pgid=worker.pid), cpu_seconds(pids=backends))
        clients = [HttpTablet(token, game) for token, game in tablets]
        wall = time.perf_counter()
        run_tablets(clients, SECONDS, HTTP_HANDS)
        wall = time.perf_counter() - wall
        backends |= database_backends(SERVER_URL, SCRATCH)
        after = (cpu_seconds(pgid=gunicorn.pid), cpu_seconds(pgid=worker.pid), cpu_seconds(pids=backends))
    finally:
        stop(gunicorn)
        stop(worker)
        redis.Redis.from_url(REDIS_URL).flushdb()
    hands = sum(client.hands for client in clients)
    latencies = [ms for client in clients for ms in client.latencies]
    web, work, database = (b - a for a, b in zip(before, after, strict=True))
    errors = [error for client in clients + warm for error in client.errors]
    print(
        f"Through HTTP: gunicorn 2 workers x 8 threads, Celery worker (2 processes), {CLIENTS} tablets at once, "
        f"each its own rng table of 6 players, {wall:.1f} s:"
    )
    print(
        f"  {hands / wall:6.1f} complete hands/s  ({hands} hands, {len(latencies)} requests, "
        f"{len(latencies) / wall:.0f} requests/s)"
    )
    print(f"  request wall p50 {percentile(latencies, 0.5):6.2f} ms  p99 {percentile(latencies, 0.99):6.2f} ms")
    if hands:
        print(
            f"  CPU per hand: gunicorn {web * 1000 / hands:.0f} ms, Celery worker {work * 1000 / hands:.0f} ms, "
            f"PostgreSQL {database * 1000 / hands:.0f} ms; per request: gunicorn "
            f"{web * 1000 / len(latencies):.2f} ms"
        )
    if errors:
        print(f"  {len(errors)} tablets stopped on an error, the first: {errors[0]}")


def run_tablets(clients: list[HttpTablet], seconds: float, most: int) -> None:
    until = time.perf_counter() + seconds
    threads = [threading.Thread(target=client.play, args=(until, most)) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 120)


def main() -> int:
    admin_sql(f'CREATE DATABASE "{SCRATCH}"')
    try:
        setup_django()
        from rest_framework.test import APIClient

        from audit.context import acting_as

        if os.environ.get("BENCH_HOME_SEAL", "") != "inline":
            # In production a Celery worker seals the audit chain after each commit; here (no broker) it would run
            # inside every request, as much again as the action itself. BENCH_HOME_SEAL=inline keeps it.
            from audit import services

            services._queue_seal = lambda: None
        if os.environ.get("BENCH_HOME_REFRESH", "") != "inline":
            # Likewise the floor's figures: a settled hand queues a refresh of its table's hour, which a worker runs
            # (the HTTP part below counts it there). Here the job would run inside the hand's last request, about
            # 16 ms of CPU a hand; the request still writes and sends the job, only the recomputation is left out.
            # The Triple Draw reference voids its rounds, which post nothing and queue no refresh.
            import floor.tasks

            floor.tasks.table_hour_refresh = lambda **_: 0
        floor, dealer = staff()
        client = APIClient()
        client.force_authenticate(dealer)
        with acting_as(user=floor, kind="user", name="bench-floor"):
            single = home_tables(floor, dealer, 1, "Speed")
        hands_per_second(Player(client), single[0])
        with acting_as(user=floor, kind="user", name="bench-floor"):
            ten = home_tables(floor, dealer, 10, "Ten")
            fifty = home_tables(floor, dealer, 40, "Fifty") + ten
        print("Action latency with many tables in play (one dealer client, in-process):")
        many_tables(Player(client), ten)
        many_tables(Player(client), fifty)
        floor_client = APIClient()
        floor_client.force_authenticate(floor)
        triple_draw_bet_cost(floor, dealer, floor_client)
        if os.environ.get("BENCH_HOME_HTTP", "1") != "0":
            through_http(floor)
        return 0
    finally:
        if "django.db" in sys.modules:
            from django.db import connections

            connections.close_all()
        admin_sql(f'DROP DATABASE IF EXISTS "{SCRATCH}" WITH (FORCE)')


if __name__ == "__main__":
    sys.exit(main())
