"""On a real Celery worker (PostgreSQL + Redis), the summary rows follow settled rounds within moments."""

from __future__ import annotations

import time
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db.models import Sum

from floor.models import TableHour
from tables.models import LedgerAccount, LedgerEntry, Table

pytestmark = [pytest.mark.redis, pytest.mark.postgres]


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_keeps_the_summaries_up_to_date_as_rounds_settle(
    require_postgres: None, celery_worker: Any, rng_tables: list[Table], floor_user: User
) -> None:
    table = rng_tables[0]
    call_command("simulate_rounds", table=table.name, rounds=4, seats=2, circles=2, user="fiona", stdout=StringIO())
    legs = LedgerEntry.objects.filter(table=table, account=LedgerAccount.TABLE_BANKROLL)
    expected = {
        "rounds": 4,
        "handle": 4 * 2 * 2 * table.min_bet_cents,
        "win": legs.aggregate(w=Sum("amount_cents"))["w"],
    }
    deadline = time.monotonic() + 60
    found: dict[str, Any] = {}
    while time.monotonic() < deadline:
        found = TableHour.objects.filter(table=table).aggregate(
            rounds=Sum("rounds"), handle=Sum("handle_cents"), win=Sum("win_cents")
        )
        if found == expected:
            break
        time.sleep(0.2)
    assert found == expected
