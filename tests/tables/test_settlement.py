"""Settlement: exactly once (twice, concurrently, after a killed worker), the per-seat cap, supervisor approval."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection, connections
from django.db.models import Sum
from rest_framework.test import APIClient

from audit.context import acting_as
from audit.models import AuditEvent
from tables.models import HandOutcome, LedgerEntry, Round, Table
from tables.services.bets import bet_place
from tables.services.cards import cards_deal, holds_record, rows_record
from tables.services.rounds import round_close_bets, round_start, round_void
from tables.services.settlement import round_settlement_apply
from tables.services.tables import table_update_limits
from tests.tables.helpers import ok, settle_now

ROOT = Path(__file__).resolve().parents[2]
SEATS = {
    1: ("Js Jh 4c 7d 9s", "Js Jh", 3),
    2: ("Ac Kc Qc Tc 2d", "Ac Kc Qc Tc", 2),
    3: ("3s 3d 3h 8c 8d", "3s 3d 3h 8c 8d", 1),
}
ROWS = [["Jc", "2h", "5d", "Qs", "6h"], ["4d", "4h", "Kh", "2c", "7s"], ["As", "Ah", "9h", "9d", "Qh"]]
BETS = 3 + 2 + 1


def to_drawing(table: Table, actor: User) -> Round:
    """A manual round with three seats, dealt and held, waiting for its rows (services, as the floor)."""
    with acting_as(user=actor, kind="user"):
        rnd = round_start(table=table, actor=actor)
        for seat, (_, _, circles) in SEATS.items():
            bet_place(round=rnd, seat_number=seat, amount_cents=1000, circles=circles, actor=actor)
        round_close_bets(round=rnd, actor=actor)
        cards_deal(round=rnd, cards={s: d.split() for s, (d, _, _) in SEATS.items()}, actor=actor)
        for seat, (_, held, _) in SEATS.items():
            holds_record(round=rnd, seat_number=seat, held=held.split(), actor=actor)
    return Round.objects.get(pk=rnd.pk)


def assert_settled_once(round_id: int) -> None:
    assert Round.objects.get(pk=round_id).phase == "settled"
    assert HandOutcome.objects.filter(round_id=round_id).count() == BETS
    assert LedgerEntry.objects.filter(round_id=round_id).count() == 2 * BETS
    assert LedgerEntry.objects.filter(round_id=round_id).aggregate(t=Sum("amount_cents"))["t"] == 0
    assert AuditEvent.objects.filter(round_id=round_id, action="round_settlement").count() == 1


@pytest.mark.django_db
def test_settling_twice_gives_one_settlement(manual_table: Table, floor_user: User, floor_api: APIClient) -> None:
    rnd = to_drawing(manual_table, floor_user)
    rows_record(round=rnd, rows=ROWS, actor=floor_user)
    assert settle_now(rnd.pk) == "settled"
    assert settle_now(rnd.pk) == "settled"
    assert round_settlement_apply(round_id=rnd.pk) == "settled"
    assert_settled_once(rnd.pk)
    # Asking for settlement again is a wrong-phase error, not a second payout.
    response = floor_api.post(f"/api/v1/rounds/{rnd.pk}/settle/")
    assert (response.status_code, response.json()["error"]["code"]) == (409, "wrong_phase")


@pytest.mark.django_db(transaction=True)
def test_twenty_concurrent_settlements_settle_once(
    require_postgres: None, manual_table: Table, floor_user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tables.services.cards.queue_settlement", lambda rnd: None)  # the 20 calls below are the jobs
    rnd = to_drawing(manual_table, floor_user)
    with acting_as(user=floor_user, kind="user"):
        rows_record(round=rnd, rows=ROWS, actor=floor_user)
    assert Round.objects.get(pk=rnd.pk).phase == "settling"
    barrier = threading.Barrier(20)
    results: list[str] = []
    errors: list[BaseException] = []

    def settle() -> None:
        try:
            barrier.wait(timeout=30)
            results.append(round_settlement_apply(round_id=rnd.pk))
        except BaseException as exc:  # collected and asserted below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=settle) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    assert results == ["settled"] * 20
    assert_settled_once(rnd.pk)


@pytest.mark.django_db
def test_the_seat_cap_limits_a_seats_winnings(manual_table: Table, floor_user: User) -> None:
    # DESIGN 5: "a seat's total winnings in one round are capped there (posted cap)".
    table_update_limits(
        table=manual_table,
        actor=floor_user,
        min_bet_cents=500,
        max_bet_cents=10_000,
        max_payout_per_seat_cents=50_000,
        supervisor_approval_threshold_cents=0,
    )
    rnd = to_drawing(manual_table, floor_user)
    rows_record(round=rnd, rows=ROWS, actor=floor_user)
    settle_now(rnd.pk)
    royal = HandOutcome.objects.get(round=rnd, seat_number=2, circle=1)
    assert (royal.category, royal.return_cents) == ("royal_flush", 800_000)
    seat_two = HandOutcome.objects.filter(round=rnd, seat_number=2).aggregate(p=Sum("paid_cents"))["p"]
    assert seat_two - 2000 == 50_000  # winnings (returns minus the two stakes) stop at the cap
    seat_ledger = LedgerEntry.objects.filter(round=rnd, seat_number=2, account="seat").aggregate(t=Sum("amount_cents"))
    assert seat_ledger["t"] == 50_000


@pytest.mark.django_db
def test_a_payout_at_the_threshold_waits_for_a_floor_supervisor(
    manual_table: Table, floor_user: User, dealer_api: APIClient, floor_api: APIClient
) -> None:
    table_update_limits(
        table=manual_table,
        actor=floor_user,
        min_bet_cents=500,
        max_bet_cents=10_000,
        max_payout_per_seat_cents=10_000_000,
        supervisor_approval_threshold_cents=798_000,
    )
    rnd = to_drawing(manual_table, floor_user)
    rows_record(round=rnd, rows=ROWS, actor=floor_user)
    assert settle_now(rnd.pk) == "awaiting_approval"
    assert HandOutcome.objects.filter(round=rnd).count() == BETS
    assert not LedgerEntry.objects.filter(round=rnd).exists()  # no money moves before approval
    response = dealer_api.post(f"/api/v1/rounds/{rnd.pk}/approve/")
    assert (response.status_code, response.json()["error"]["code"]) == (403, "floor_only")
    state = ok(floor_api.post(f"/api/v1/rounds/{rnd.pk}/approve/"))
    assert (state["phase"], state["approved_by"]) == ("settled", floor_user.username)
    assert LedgerEntry.objects.filter(round=rnd).count() == 2 * BETS
    assert settle_now(rnd.pk) == "settled"
    assert LedgerEntry.objects.filter(round=rnd).count() == 2 * BETS
    assert AuditEvent.objects.filter(round_id=rnd.pk, action="round_approve_payout", approver_username="fiona").exists()


@pytest.mark.django_db
def test_an_awaiting_round_can_be_voided_without_any_ledger(manual_table: Table, floor_user: User) -> None:
    table_update_limits(
        table=manual_table,
        actor=floor_user,
        min_bet_cents=500,
        max_bet_cents=10_000,
        max_payout_per_seat_cents=10_000_000,
        supervisor_approval_threshold_cents=1000,
    )
    rnd = to_drawing(manual_table, floor_user)
    rows_record(round=rnd, rows=ROWS, actor=floor_user)
    settle_now(rnd.pk)
    round_void(round=rnd, reason="card reader fault found on review", actor=floor_user)
    assert Round.objects.get(pk=rnd.pk).phase == "voided"
    assert not LedgerEntry.objects.filter(round=rnd).exists()


def _worker(queue: str, db_url: str, redis_url: str) -> subprocess.Popen[bytes]:
    """A real Celery worker process on `queue`, with a 2-second visibility timeout so a lost task comes back fast."""
    code = (
        "import django; django.setup()\n"
        "from casino.celery import app\n"
        "app.conf.broker_transport_options = {**app.conf.broker_transport_options, 'visibility_timeout': 2,"
        " 'unacked_restore_interval': 1, 'unacked_restore_throttle': 1}\n"
        f"app.worker_main(['worker', '--pool=solo', '-Q', {queue!r}, '--loglevel=WARNING', '--without-gossip',"
        " '--without-mingle', '--without-heartbeat'])\n"
    )
    env = os.environ | {"DATABASE_URL": db_url, "REDIS_URL": redis_url, "DJANGO_SETTINGS_MODULE": "casino.settings"}
    return subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def _kill(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=10)


def _forget_queue(client: Any, queue: str) -> None:
    """Leave nothing of the test queue in Redis: its list, bindings and any unacknowledged copies."""
    from casino.celery import app

    p = app.conf.broker_transport_options.get("global_keyprefix", "")  # CELERY_KEY_PREFIX (CI sets one)
    for tag, raw in client.hgetall(f"{p}unacked").items():
        if json.loads(raw)[2] == queue:
            client.hdel(f"{p}unacked", tag)
            client.zrem(f"{p}unacked_index", tag)
    priority_lists = [f"{p}{queue}\x06\x16{step}" for step in (3, 6, 9)]  # kombu's lists for priorities above 0
    client.delete(p + queue, *priority_lists, f"{p}_kombu.binding.{queue}", f"{p}_kombu.binding_permanent.{queue}")


def _wait_for(predicate: Any, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out after {seconds}s waiting for {what}")


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_settlement_is_redelivered_and_settles_once(
    require_postgres: None, require_redis: str, manual_table: Table, floor_user: User
) -> None:
    import psycopg
    import redis

    from casino.celery import app

    queue = f"test-kill-{uuid.uuid4().hex[:8]}"
    s = connection.settings_dict
    db_url = f"postgres://{s['USER']}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"
    previous_queue = app.conf.task_default_queue
    app.conf.task_default_queue = queue
    blocker = psycopg.connect(db_url, autocommit=False)
    workers: list[subprocess.Popen[bytes]] = []
    try:
        rnd = to_drawing(manual_table, floor_user)
        with acting_as(user=floor_user, kind="user"):
            rows_record(round=rnd, rows=ROWS, actor=floor_user)  # commits, queues the job on `queue`
        # Hold the ledger table: the job locks the round, writes the outcomes, then blocks inserting the ledger.
        # (Not a row lock the ledger's foreign keys would wait for: Django's foreign keys are checked at COMMIT,
        # and a backend blocked inside COMMIT commits once the lock is released, whether its worker lives or not.)
        blocker.execute("LOCK TABLE tables_ledgerentry IN SHARE MODE")
        workers.append(_worker(queue, db_url, require_redis))

        def worker_blocked() -> bool:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND wait_event_type = 'Lock'",
                    [s["NAME"]],
                )
                return bool(cursor.fetchone()[0])

        _wait_for(worker_blocked, 60, "the worker to start settling and block")
        _kill(workers[0])  # SIGKILL mid-job: its transaction is rolled back, the task is still unacknowledged
        blocker.rollback()
        assert Round.objects.get(pk=rnd.pk).phase == "settling"
        assert not HandOutcome.objects.filter(round=rnd).exists()
        workers.append(_worker(queue, db_url, require_redis))
        _wait_for(lambda: Round.objects.get(pk=rnd.pk).phase == "settled", 90, "redelivery and settlement")
        time.sleep(3)  # a further redelivery would show up as a second settlement here
        assert_settled_once(rnd.pk)
    finally:
        blocker.close()
        for worker in workers:
            _kill(worker)
        app.conf.task_default_queue = previous_queue
        _forget_queue(redis.Redis.from_url(require_redis), queue)
