"""The least CPU a Triple Draw round (or a home hand) can cost here with its guarantees: one that does nothing else.

Issue 17 asks for a batched round at <= 35 ms of CPU (web + worker + PostgreSQL). This measures what is left when a
round does no work at all but what every round must do whatever its rules: six dealer writes (start, bets, close,
deal, holds, rows) through the whole request stack (token auth, middleware, DRF), each in one transaction that locks
the round row, checks the dealer's assignment, raises the version and records its audit event; one conditional poll
answered "unchanged"; one settlement job that does the same; and the hash-chain seal jobs those commits queue (real
jobs, with the exception scan). No bets, cards, hands, evaluation, ledger, outbox, state answers or floor summaries:
every real round costs more than this. `--style per-seat`: 18 writes, as a per-seat round; `--style home-hand`: the
19 writes of a home-game hand (issue 12's aim); `--style three-writes`: a round of three requests, a protocol the
product does not have, for the team's decision. Floor rounds alternate with real ones (profile_round.py's round, same
process, same accounting), so the machine's slow spells weigh on both alike; a home hand's floor runs alone:

    BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/round_floor.py [--rounds 60] \
        [--style batched|per-seat|home-hand]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from functools import partial
from typing import Any

from proc_cpu import cpu_seconds
from profile_round import captured_sends, dealer_at_a_table, in_scratch_database, play_round

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
# Not a protocol the product has: what a round would cost at least if a request did two of today's steps.
THREE = ("start and bets", "close and deal", "holds and rows")
STYLES = {"batched": BATCHED, "per-seat": PER_SEAT, "home-hand": HOME_HAND, "three-writes": THREE}
urlpatterns: list[Any] = []  # this module is the URL configuration while it runs: the product's plus the floor's


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument(
        "--style",
        choices=sorted(STYLES),
        default="batched",
        help="batched: 6 writes a round; per-seat: 18 (a bet and a hold per seat); home-hand: a six-player Five Card "
        "Draw hand as bench_home_tables plays it, 19 writes (start, 18 actions) with no poll and no settlement job; "
        "three-writes: a round if each request did two of today's steps (no such protocol exists)",
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
    import random

    from django.db import connection

    from casino.celery import app

    writes = STYLES[style]
    sent = captured_sends()
    table, client = dealer_at_a_table()
    install_floor_routes()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = {int(cursor.fetchone()[0])}  # this process's one connection: web calls and jobs alike
    rng = random.Random(7)
    cpu: dict[tuple[str, str], float] = defaultdict(float)  # (kind, part) -> CPU seconds over the measured rounds
    measuring = [False]

    def timed(kind: str, part: str, run: Any) -> Any:
        began = time.process_time()
        result = run()
        if measuring[0]:
            cpu[kind, part] += time.process_time() - began
        return result

    def run_jobs(kind: str) -> None:
        while sent:
            task_name, args, kwargs = sent.pop(0)
            timed(kind, f"job {task_name}", lambda: app.tasks[task_name].apply(args, kwargs))  # noqa: B023

    def real_call(name: str, method: str, path: str, body: Any = None, expect: int = 200) -> Any:
        response = timed("real", f"web {name}", lambda: getattr(client, method)(path, body, format="json"))
        if response.status_code != expect:
            raise RuntimeError(f"{name}: {response.status_code} {getattr(response, 'data', '')}")
        return response.data

    def floor_round(round_id: int) -> None:
        etag = ""
        for name in writes:
            response = timed("floor", f"web {name}", lambda: client.post(f"/bench/floor/{round_id}/", format="json"))
            if response.status_code != 200:
                raise RuntimeError(f"{name}: {response.status_code} {response.content[:300]!r}")
            etag = response["ETag"]
        if style != "home-hand":
            poll = timed(
                "floor",
                "web poll (304)",
                lambda: client.get(f"/api/v1/rounds/{round_id}/", HTTP_IF_NONE_MATCH=etag),
            )
            if poll.status_code != 304:
                raise RuntimeError(f"poll: {poll.status_code}, expected 304")
            sent.append(("bench.floor_settle", (round_id,), {}))
        run_jobs("floor")

    # Real and floor rounds alternate, so that whatever slows this shared machine for a while slows both alike.
    # The floor's writes lock the real round just settled (a write with nothing in it needs no particular phase).
    # A home hand's floor has no Triple Draw round to stand beside: bench_home_tables.py measures the real hands.
    kinds = ("floor",) if style == "home-hand" else ("real", "floor")
    database: dict[str, float] = defaultdict(float)
    round_id = 0
    for n in range(rounds + 3):
        measuring[0] = n >= 3  # three warm-up rounds of each
        for kind in kinds:
            began = cpu_seconds(pids=backend)
            if kind == "real":
                per_seat = style == "per-seat"
                round_id = play_round(real_call, partial(run_jobs, "real"), table.pk, rng, per_seat=per_seat)
            else:
                round_id = round_id or real_round_started(client, table.pk)
                floor_round(round_id)
            if measuring[0]:
                database[kind] += cpu_seconds(pids=backend) - began
    report(rounds, style, writes, kinds, cpu, database)
    return 0


def real_round_started(client: Any, table_id: int) -> int:
    response = client.post(f"/api/v1/tables/{table_id}/rounds/", format="json")
    if response.status_code != 201:
        raise RuntimeError(f"start: {response.status_code} {response.data}")
    return int(response.data["id"])


def report(
    rounds: int,
    style: str,
    writes: tuple[str, ...],
    kinds: tuple[str, ...],
    cpu: dict[tuple[str, str], float],
    database: dict[str, float],
) -> None:
    def ms(seconds: float) -> float:
        return seconds / rounds * 1000

    print(
        f"{rounds} {style} rounds of each kind, alternating; the floor's has {len(writes)} writes. CPU per round (ms)"
    )
    for (kind, part), seconds in cpu.items():
        if kind == "floor":
            print(f"  floor {part:36} {ms(seconds):6.2f}")
    totals: dict[str, float] = {}
    for kind in kinds:
        web = ms(sum(seconds for (k, part), seconds in cpu.items() if k == kind and part.startswith("web")))
        jobs = ms(sum(seconds for (k, part), seconds in cpu.items() if k == kind and part.startswith("job")))
        totals[kind] = web + jobs + ms(database[kind])
        print(
            f"  {kind:5} round: web {web:5.1f} + jobs {jobs:5.1f} + PostgreSQL {ms(database[kind]):5.1f}"
            f" = {totals[kind]:6.1f} ms"
        )
    if "real" in totals:
        print(f"  floor / real: {totals['floor'] / totals['real']:.2f} (PostgreSQL from 10 ms clock ticks)")


if __name__ == "__main__":
    sys.exit(main())
