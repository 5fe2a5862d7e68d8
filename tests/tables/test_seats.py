"""Seats by table type: Triple Draw seats 7, five-card draw and its variants 10, Three Legged Race 6 (its rule sheet:
"at most 6 players"); the services refuse a seat beyond the type's, and so does the database."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from rest_framework.test import APIClient

from tables.models import Seat, Table
from tables.services.seats import seat_join
from tables.services.tables import table_create, table_open
from tests.tables.conftest import HOUSE_TO_1, make_paytable
from tests.tables.helpers import ok

TYPES = [
    ("triple-draw", 7),
    ("five-card-draw", 10),
    ("pregnant-threes", 10),
    ("three-legged-race", 6),
    ("freak-of-nature", 10),
]


@pytest.fixture
def tables_of_every_type(floor_user: User) -> dict[str, Table]:
    made = {}
    for table_type, _ in TYPES:
        # A Triple Draw table opens only with a paytable; the home games have none.
        paytable = make_paytable(HOUSE_TO_1, floor_user) if table_type == "triple-draw" else None
        table = table_create(name=f"T {table_type}", table_type=table_type, actor=floor_user, paytable=paytable)
        made[table_type] = table_open(table=table, actor=floor_user)
    return made


@pytest.mark.parametrize(("table_type", "seats"), TYPES)
def test_a_table_has_the_seats_of_its_type(
    tables_of_every_type: dict[str, Table], floor_api: APIClient, table_type: str, seats: int
) -> None:
    state = ok(floor_api.get(f"/api/v1/tables/{tables_of_every_type[table_type].pk}/"))
    assert [seat["seat"] for seat in state["seats"]] == list(range(1, seats + 1))


@pytest.mark.parametrize(("table_type", "seats"), TYPES)
def test_a_player_may_take_the_last_seat_but_not_one_beyond(
    tables_of_every_type: dict[str, Table], floor_api: APIClient, table_type: str, seats: int
) -> None:
    table = tables_of_every_type[table_type]
    ok(floor_api.post(f"/api/v1/tables/{table.pk}/seats/", {"seat": seats, "player_name": "Ann"}, format="json"))
    response = floor_api.post(f"/api/v1/tables/{table.pk}/seats/", {"seat": seats + 1}, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == {
        "code": "bad_seat",
        "message": f"seat must be a number from 1 to {seats}, got {seats + 1}",
        "field": "seat",
    }
    assert not Seat.objects.filter(table=table, number=seats + 1).exists()


def test_the_database_refuses_a_seat_beyond_the_table_type(tables_of_every_type: dict[str, Table]) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=tables_of_every_type["triple-draw"], number=8)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=tables_of_every_type["three-legged-race"], number=7)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=tables_of_every_type["five-card-draw"], number=11)


def test_the_database_refuses_a_type_with_fewer_seats_than_the_table_has(
    tables_of_every_type: dict[str, Table], floor_user: User
) -> None:
    draw = tables_of_every_type["five-card-draw"]
    seat_join(table=draw, seat_number=9, player_name="Nine", actor=floor_user)
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.filter(pk=draw.pk).update(table_type="triple-draw")
    assert Table.objects.get(pk=draw.pk).table_type == "five-card-draw"


def test_a_round_cannot_start_with_no_player_seated(
    tables_of_every_type: dict[str, Table], floor_api: APIClient
) -> None:
    table = tables_of_every_type["triple-draw"]
    response = floor_api.post(f"/api/v1/tables/{table.pk}/rounds/")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "no_players"
    assert "seat a player first" in response.json()["error"]["message"]
    assert not table.rounds.exists()
