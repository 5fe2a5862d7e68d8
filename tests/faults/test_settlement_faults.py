"""Issue 15: no settlement is ever lost. Real rounds through gunicorn, a real Celery worker process, and a fault:
the broker down when rows are recorded, the whole worker killed with SIGKILL mid-settlement, the worker's database
cut. Each round must end settled exactly once within a minute of the fault ending, with no one tapping Settle,
with balanced ledgers, every outbox job run (the floor's summary refreshes; a paytable analysis asked for while the
broker was down) and an intact audit chain."""

from __future__ import annotations

import time

import psycopg
import pytest
from django.db import connection

from paytables.models import PaytableAnalysis
from tables.models import HandOutcome, Table
from tests.faults.conftest import (
    RECOVERY_SECONDS,
    WRITE_SECONDS,
    Stack,
    assert_each_settled_exactly_once,
    phase,
    wait_settled,
)
from tests.faults.harness import TcpProxy, wait_for

pytestmark = [pytest.mark.faults, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def test_rounds_recorded_while_the_broker_is_down_settle_once_it_is_back(stack: Stack, fault_table: Table) -> None:
    stack.start_redis()
    stack.start_web()
    stack.start_worker()
    stack.wait_ready()
    before = stack.play_to_settling(fault_table)
    wait_settled([before], 30, "a round with everything up")

    stack.stop_redis()
    stack.slowest_write = 0.0
    stranded = stack.play_to_settling(fault_table)
    # The floor asks for the paytable's analysis too: another job that must not be lost.
    stack.call("POST", f"paytables/{fault_table.paytable_id}/analysis/", token=stack.floor_token)
    # Every write was answered, and quickly: the rows stand, settlement and analysis wait for the broker.
    assert stack.slowest_write < WRITE_SECONDS, f"a write took {stack.slowest_write:.1f}s with the broker down"
    health = stack.healthz()
    assert health["status"] == "degraded"
    assert health["waiting"]["rounds_settling"] == 1
    assert health["waiting"]["jobs"].get("tables.settle_round", 0) >= 1
    assert health["waiting"]["jobs"].get("paytables.analyze_paytable", 0) == 1
    time.sleep(3)
    assert phase(stranded) == "settling"

    stack.start_redis()  # empty, as a restarted broker that kept nothing
    took = wait_settled([stranded], RECOVERY_SECONDS, "the stranded round after the broker came back")
    wait_for(
        lambda: PaytableAnalysis.objects.filter(paytable_id=fault_table.paytable_id, status="done").exists(),
        RECOVERY_SECONDS,
        "the paytable analysis after the broker came back",
        step=0.5,
    )
    after = stack.play_to_settling(fault_table)
    wait_settled([after], 30, "a round after recovery")
    assert_each_settled_exactly_once([before, stranded, after])
    assert stack.healthz()["waiting"]["rounds_settling"] == 0
    print(f"stranded round settled {took:.1f}s after the broker came back")


def test_a_worker_killed_mid_settlement_leaves_nothing_stranded(stack: Stack, fault_table: Table) -> None:
    # The broker's visibility timeout stays at its hour: only the outbox's sweeper can bring the job back in time.
    stack.start_redis()
    stack.start_web()
    stack.start_worker()
    stack.wait_ready()
    before = stack.play_to_settling(fault_table)
    wait_settled([before], 30, "a round with everything up")

    blocker = psycopg.connect(stack.database_url, autocommit=False)
    try:
        # Hold the ledger: the job locks the round, writes the outcomes, then waits to post. (A row lock would not
        # do: foreign keys are checked at COMMIT, which completes even after its client is gone.)
        blocker.execute("LOCK TABLE tables_ledgerentry IN SHARE MODE")
        stranded = stack.play_to_settling(fault_table)

        def worker_waits_on_the_ledger() -> bool:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                    " AND wait_event_type = 'Lock' AND query ILIKE %s",
                    ["%tables_ledgerentry%"],
                )
                return bool(cursor.fetchone()[0])

        wait_for(worker_waits_on_the_ledger, 30, "the worker to block mid-settlement")
        stack.processes.kill(stack.worker)  # SIGKILL to the whole worker (and its beat): nothing acknowledged
    finally:
        blocker.rollback()
        blocker.close()
    assert phase(stranded) == "settling"
    assert not HandOutcome.objects.filter(round_id=stranded).exists()  # its transaction died with it

    stack.start_worker()
    took = wait_settled([stranded], RECOVERY_SECONDS, "the stranded round after a new worker started")
    after = stack.play_to_settling(fault_table)
    wait_settled([after], 30, "a round after recovery")
    assert_each_settled_exactly_once([before, stranded, after])
    print(f"stranded round settled {took:.1f}s after the new worker started")


def test_a_worker_that_loses_its_database_drops_nothing(stack: Stack, fault_table: Table, db_proxy: TcpProxy) -> None:
    # The worker reaches PostgreSQL only through the proxy; the web process directly. One retry only, so the
    # outage outlasts the job's own retries and the job is dropped, as it was after nine tries in issue 15.
    through_proxy = stack.database_url.replace(
        f":{connection.settings_dict['PORT'] or 5432}/", f":{db_proxy.port}/"
    )
    stack.start_redis()
    stack.start_web()
    stack.start_worker(database_url=through_proxy, settlement_retries=1)
    stack.wait_ready()
    before = stack.play_to_settling(fault_table)
    wait_settled([before], 30, "a round with everything up")

    db_proxy.cut()
    stranded = stack.play_to_settling(fault_table)
    def job_dropped() -> bool:
        """The worker tried, retried once, then gave the job up (Celery logs "raised unexpected")."""
        lines = [line for line in stack.processes.log("worker").splitlines() if "Task tables.settle_round[" in line]
        return any("retry: Retry in" in line for line in lines) and "raised unexpected" in lines[-1]

    wait_for(job_dropped, 30, "the settlement job to fail, retry, and be dropped")
    assert phase(stranded) == "settling"

    db_proxy.restore()
    took = wait_settled([stranded], RECOVERY_SECONDS, "the stranded round after the database came back")
    after = stack.play_to_settling(fault_table)
    wait_settled([after], 30, "a round after recovery")
    assert_each_settled_exactly_once([before, stranded, after])
    print(f"stranded round settled {took:.1f}s after the worker's database came back")
