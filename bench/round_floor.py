"""The least CPU a Triple Draw round (or a home hand) can cost here with its guarantees: one that does nothing else.

Issue 17 asks for a batched round at <= 35 ms of CPU (web + worker + PostgreSQL). This measures what is left when a
round does no work at all but what every round must do whatever its rules: six dealer writes (start, bets, close,
deal, holds, rows) through the whole request stack (token auth, middleware, DRF), each in one transaction that locks
the round row, checks the dealer's assignment, raises the version and records its audit event; one conditional poll
answered "unchanged"; one settlement job that does the same; and the hash-chain seal jobs those commits queue (real
jobs, with the exception scan). No bets, cards, hands, evaluation, ledger, outbox, state answers or floor summaries:
every real round costs more than this. `--style per-seat`: 18 writes, as a per-seat round; `--style home-hand`: the
19 writes of a home-game hand (issue 12's aim). Same process layout and accounting as profile_round.py:

    BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/round_floor.py [--rounds 60] \
        [--style batched|per-seat|home-hand]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from typing import Any

from proc_cpu import cpu_seconds
from profile_round import captured_sends, dealer_at_a_table, in_scratch_database

BATCHED = ("start", "bets", "close", "deal", "holds", "rows")
PER_SEAT = (
    "start",
    *(f"bet {seat}" for seat in range(1, 8)),
    "close",
    "deal",
    *(f"hold {seat}" for seat in range(1, 8)),
    "rows",
)
HOME_HAND = ("start", *(f"action {n}" for n in range(1, 19)))
STYLES = {"batched": BATCHED, "per-seat": PER_SEAT, "home-hand": HOME_HAND}
urlpatterns: list[Any] = []  # this module is the URL configuration while it runs: the product's plus the floor's


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument(
        "--style",
        choices=sorted(STYLES),
        default="batched",
        help="batched: 6 writes a round; per-seat: 18 (a bet and a hold per seat); home-hand: a six-player Five Card "
        "Draw hand as bench_home_tables plays it, 19 writes (start, 18 actions) with no poll and no settlement job",
    )
    opts = parser.parse_args()
    return in_scratch_database(lambda: measure(opts.rounds, opts.style))


def minimal_write(round_id: int, actor: Any, action: Any) -> str:
    """One write with every guarantee and no content: lock, assignment check, version, audit event, commit."""
    from django.db import transaction

    from audit.services import audit_record
    from tables.access import require_operator
    from tables.models import Round
    from tables.selectors.rounds import state_token
    from tables.services.locks import lock_round

    with transaction.atomic():
        rnd = lock_round(Round(pk=round_id))
        if actor is not None:
            require_operator(actor, rnd.table)
        audit_record(action=action, obj=rnd, table=rnd.table, round=rnd, after={"version": rnd.version}, actor=actor)
    return state_token(rnd.table, rnd)


def install_floor_routes() -> None:
    from django.conf import settings
    from django.urls import path
    from rest_framework.request import Request
    from rest_framework.response import Response
    from rest_framework.views import APIView

    from casino.celery import app
    from casino.urls import urlpatterns as product
    from casino.users import request_user
    from tables import actions

    class FloorWriteApi(APIView):
        def post(self, request: Request, round_id: int) -> Response:
            token = minimal_write(round_id, request_user(request), actions.BET_PLACE)
            response = Response({"round": round_id})
            response["ETag"] = f'"{token}"'
            return response

    @app.task(name="bench.floor_settle")
    def floor_settle(round_id: int) -> None:
        minimal_write(round_id, None, actions.ROUND_SETTLEMENT)

    urlpatterns[:] = [*product, path("bench/floor/<int:round_id>/", FloorWriteApi.as_view())]
    settings.ROOT_URLCONF = __name__


def measure(rounds: int, style: str) -> int:
    writes = STYLES[style]
    from django.db import connection

    from casino.celery import app

    sent = captured_sends()
    table, client = dealer_at_a_table()
    install_floor_routes()
    started = client.post(f"/api/v1/tables/{table.pk}/rounds/", format="json")
    round_id = started.data["id"]
    cpu: dict[str, float] = defaultdict(float)

    def timed(name: str, run: Any, measured: bool) -> Any:
        began = time.process_time()
        result = run()
        if measured:
            cpu[name] += time.process_time() - began
        return result

    backend_began = 0.0
    backend: set[int] = set()
    for n in range(rounds + 5):
        measured = n >= 5  # five warm-up rounds
        if n == 5:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                backend = {int(cursor.fetchone()[0])}
            backend_began = cpu_seconds(pids=backend)
        etag = ""
        for name in writes:
            response = timed(f"web: {name}", lambda: client.post(f"/bench/floor/{round_id}/", format="json"), measured)
            if response.status_code != 200:
                raise RuntimeError(f"{name}: {response.status_code} {response.content[:300]!r}")
            etag = response["ETag"]
        if style != "home-hand":
            poll = timed(
                "web: poll (304)",
                lambda: client.get(f"/api/v1/rounds/{round_id}/", HTTP_IF_NONE_MATCH=etag),  # noqa: B023
                measured,
            )
            if poll.status_code != 304:
                raise RuntimeError(f"poll: {poll.status_code}, expected 304")
            sent.append(("bench.floor_settle", (round_id,), {}))
        while sent:
            task_name, args, kwargs = sent.pop(0)
            timed(f"jobs: {task_name}", lambda: app.tasks[task_name].apply(args, kwargs), measured)  # noqa: B023
    database_ms = (cpu_seconds(pids=backend) - backend_began) / rounds * 1000
    web = sum(seconds for name, seconds in cpu.items() if name.startswith("web")) / rounds * 1000
    jobs = sum(seconds for name, seconds in cpu.items() if name.startswith("jobs")) / rounds * 1000
    print(f"{rounds} {style} floor rounds of {len(writes)} writes; CPU per round (ms)")
    for name, seconds in cpu.items():
        print(f"  {name:32} {seconds / rounds * 1000:6.2f}")
    print(
        f"  floor per round: web {web:.1f} + jobs {jobs:.1f} + PostgreSQL {database_ms:.1f} (10 ms clock ticks)"
        f" = {web + jobs + database_ms:.1f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
