"""A compliance search finds a table by a name it had before a rename (renames are audited) as well as by its name
today: a round by "Friday 1 round 1" or "Main 1 round 1" whichever the table was called when it was played, and the
free-text search by the table's whole name, earlier or present, finds every event at the table. Before, only the
present name counted, and a round kept the name it was played under."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client

from audit.models import AuditEvent
from tables.models import Round, Table
from tables.services.rounds import round_start, round_void
from tables.services.tables import table_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def renamed(manual_table: Table, dealer_user: User, floor_user: User) -> tuple[Round, Round]:
    """Round 1 played at "Friday 1", the table renamed "Main 1", then round 2 played there."""
    table = table_update(table=manual_table, actor=floor_user, name="Friday 1")
    first = round_void(round=round_start(table=table, actor=dealer_user), reason="a misdeal", actor=floor_user)
    table = table_update(table=Table.objects.get(pk=table.pk), actor=floor_user, name="Main 1")
    second = round_start(table=table, actor=dealer_user)
    cache.clear()  # the filters' lists of names are cached for a minute
    return first, second


@pytest.fixture
def search(compliance_user: User) -> Callable[..., set[int]]:
    """The ids of the events the trail's export lists for these filters (the page shows the same filter's)."""
    client = Client()
    client.force_login(compliance_user)

    def listed(**filters: str) -> set[int]:
        response = client.get("/compliance/export.csv", filters)
        body = b"".join(response.streaming_content).decode()  # type: ignore[attr-defined]
        return {int(row["id"]) for row in csv.DictReader(io.StringIO(body))}

    return listed


def _events(**where: object) -> set[int]:
    return set(AuditEvent.objects.filter(**where).values_list("pk", flat=True))


def test_a_round_is_found_under_the_tables_earlier_name_and_its_present_one(
    renamed: tuple[Round, Round], search: Callable[..., set[int]]
) -> None:
    first, second = renamed
    assert _events(round_id=first.pk)
    assert search(round="Friday 1 round 1") == _events(round_id=first.pk)
    assert search(round="friday 1  ROUND 1") == _events(round_id=first.pk)
    assert search(round="Main 1 round 1") == _events(round_id=first.pk)
    assert search(round="Friday 1 round 2") == _events(round_id=second.pk)
    assert search(round="Main 1 round 2") == _events(round_id=second.pk)


def test_a_missing_round_under_an_earlier_name_is_said_under_the_tables_present_name(
    renamed: tuple[Round, Round], compliance_user: User
) -> None:
    client = Client()
    client.force_login(compliance_user)
    page = client.get("/compliance/", {"round": "friday 1 round 9"}).content.decode()
    assert "No round 9 at table Main 1." in page


def test_the_free_text_search_finds_every_event_at_a_table_by_an_earlier_name(
    renamed: tuple[Round, Round], search: Callable[..., set[int]]
) -> None:
    table_id = renamed[0].table_id
    everything = _events(table_id=table_id)
    assert _events(round_id=renamed[1].pk) <= everything
    assert search(q="Friday 1") == everything
    assert search(q="main 1") == everything
