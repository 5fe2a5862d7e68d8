"""The hand-written reads and locks of casino.sql give the instances the ORM gives: every field, with the database's
values converted as Django converts them (aware datetimes, JSON, booleans), on PostgreSQL and SQLite alike."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, transaction
from django.forms.models import model_to_dict
from rest_framework.test import APIClient

from casino import sql
from tables.models import HomeGame, HomeGamePlayer, Table
from tests.tables.test_home_api import open_game

pytestmark = pytest.mark.django_db


def fields_of(obj: object) -> dict[str, object]:
    return {field.attname: getattr(obj, field.attname) for field in type(obj)._meta.concrete_fields}  # type: ignore[attr-defined]


def test_select_rows_loads_what_the_orm_loads(home_table: Callable[..., Table], dealer_api: APIClient) -> None:
    game = open_game(dealer_api, home_table("three-legged-race"), players=3)
    where = f"{sql.column(HomeGamePlayer, 'game')} = %s"

    rows = sql.select_rows(HomeGamePlayer, where, [game["id"]], order_by=sql.column(HomeGamePlayer, "seat"))

    expected = list(HomeGamePlayer.objects.filter(game_id=game["id"]).order_by("seat"))
    assert [fields_of(row) for row in rows] == [fields_of(row) for row in expected]
    assert all(row.joined_at.tzinfo is not None for row in rows)
    assert all(not row._state.adding for row in rows)  # saved instances: a later save() updates, never inserts
    assert sql.select_rows(HomeGamePlayer, where, [game["id"] + 1000]) == []


def test_update_returning_bumps_and_reads_back_the_row_or_none(
    home_table: Callable[..., Table], dealer_api: APIClient
) -> None:
    game = open_game(dealer_api, home_table("five-card-draw"), players=2)
    before = HomeGame.objects.get(pk=game["id"])
    version = sql.column(HomeGame, "version")
    key = f"{sql.column(HomeGame, 'pk')} = %s"

    with transaction.atomic():
        locked = sql.update_returning(HomeGame, f"{version} = {version} + 1", key, [game["id"]])
        missing = sql.update_returning(HomeGame, f"{version} = {version} + 1", key, [game["id"] + 1000])

    assert locked is not None
    assert missing is None
    assert locked.version == before.version + 1 == HomeGame.objects.get(pk=game["id"]).version
    assert model_to_dict(locked, exclude=["version"]) == model_to_dict(before, exclude=["version"])
    assert locked.rules == before.rules
    assert isinstance(locked.rules, dict)


def test_update_returning_joined_loads_the_related_row_with_the_lock(
    home_table: Callable[..., Table], dealer_api: APIClient, django_assert_max_num_queries: Callable[..., Any]
) -> None:
    table = home_table("freak-of-nature")
    game = open_game(dealer_api, table, players=2)
    version = sql.column(HomeGame, "version")

    statements = 1 if connection.vendor == "postgresql" else 2  # SQLite: the lock, then a read

    with transaction.atomic(), django_assert_max_num_queries(statements):
        locked = sql.update_returning_joined(
            HomeGame, f"{version} = {version} + 1", f"{sql.column(HomeGame, 'pk')} = %s", [game["id"]], "table"
        )
        assert locked is not None
        loaded = fields_of(locked.table)  # no query: the table came with the lock
    assert loaded == fields_of(Table.objects.get(pk=table.pk))
