"""Fixtures for Triple Draw tables: approved paytables on both bases, open tables with seated players."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from paytables.models import Paytable, PaytableLine
from tables.models import CardSource, Table
from tables.services.seats import seat_join
from tables.services.tables import table_assign_dealer, table_create, table_open

STANDARD = Path(__file__).resolve().parents[2] / "paytables" / "standard"

# A table-style (to_1) paytable: pays 0 is a push (the stake comes back).
HOUSE_TO_1 = {
    "name": "House Triple Draw",
    "basis": "to_1",
    "lines": [
        {"hand": "royal_flush", "pays": 250},
        {"hand": "straight_flush", "pays": 50},
        {"hand": "four_of_a_kind", "pays": 25},
        {"hand": "full_house", "pays": 8},
        {"hand": "flush", "pays": 5},
        {"hand": "straight", "pays": 4},
        {"hand": "three_of_a_kind", "pays": 2},
        {"hand": "two_pair", "pays": 1},
        {"hand": "one_pair", "min_rank": "J", "pays": 0},
    ],
}


def make_paytable(document: dict[str, Any], approver: User) -> Paytable:
    # Written directly (not through paytable_create_draft) so no analysis job is queued for test fixtures.
    paytable = Paytable.objects.create(
        name=document["name"],
        version=1,
        basis=document["basis"],
        wild_ranks=document.get("wild_ranks", []),
        status="draft",  # lines go in while it is a draft: the database refuses them once approved
    )
    for position, line in enumerate(document["lines"], start=1):
        pays = str(line["pays"])
        numerator, _, denominator = pays.partition("/")
        PaytableLine.objects.create(
            paytable=paytable,
            position=position,
            hand=line["hand"],
            min_rank=line.get("min_rank", ""),
            ranks=line.get("ranks", []),
            pays_numerator=int(numerator),
            pays_denominator=int(denominator or 1),
        )
    Paytable.objects.filter(pk=paytable.pk).update(
        status="approved", approval_reference="GC-TEST-1", approved_by=approver, approved_at=timezone.now()
    )
    paytable.refresh_from_db()
    return paytable


@pytest.fixture
def jacks_for_1(floor_user: User) -> Paytable:
    """Jacks or Better 9/6, the video-poker (for 1) basis."""
    return make_paytable(json.loads((STANDARD / "jacks_or_better_9_6.json").read_text()), floor_user)


@pytest.fixture
def house_to_1(floor_user: User) -> Paytable:
    return make_paytable(HOUSE_TO_1, floor_user)


def open_table(
    name: str, source: str, paytable: Paytable, floor: User, dealer: User, seats: int = 7, **limits: Any
) -> Table:
    table = table_create(name=name, card_source=source, paytable=paytable, actor=floor, **limits)
    table_open(table=table, actor=floor)
    table_assign_dealer(table=table, dealer=dealer, actor=floor)
    for number in range(1, seats + 1):
        seat_join(table=table, seat_number=number, player_name=f"Player {number}", actor=floor)
    return Table.objects.get(pk=table.pk)


@pytest.fixture
def manual_table(floor_user: User, dealer_user: User, jacks_for_1: Paytable) -> Table:
    return open_table(
        "Manual 1", CardSource.MANUAL, jacks_for_1, floor_user, dealer_user, min_bet_cents=500, max_bet_cents=10_000
    )


@pytest.fixture
def rng_table(floor_user: User, dealer_user: User, house_to_1: Paytable) -> Table:
    return open_table("RNG 1", CardSource.RNG, house_to_1, floor_user, dealer_user)


def client_for(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def dealer_api(dealer_user: User) -> APIClient:
    return client_for(dealer_user)


@pytest.fixture
def floor_api(floor_user: User) -> APIClient:
    return client_for(floor_user)
