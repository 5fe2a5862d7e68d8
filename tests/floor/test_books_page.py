"""The shift sheet's "Start a table's books" form: a blank count is refused rather than recorded as $0.00, and a
refusal is shown beside that form with what was typed, as on every other form of the sheet."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User

from audit.models import AuditEvent
from floor.demo import played_at
from floor.models import ChipCount, Shift
from tables.models import Table
from tests.floor.conftest import local
from tests.floor.test_books import DAY
from tests.floor.test_books_api import page_client

pytestmark = pytest.mark.django_db

ACTION = f"/floor/shifts/{DAY}/day/inventory/"


def start_form(page: str) -> str:
    """The HTML of the sheet's "Start a table's books" section."""
    found = re.search(r'<section class="books" aria-labelledby="start-title">(.*?)</section>', page, re.DOTALL)
    assert found is not None, "the sheet has no 'Start a table's books' form"
    return found.group(1)


def test_a_blank_opening_inventory_is_refused_beside_the_start_form_and_records_nothing(
    rng_tables: list[Table], floor_user: User
) -> None:
    table = rng_tables[1]
    floor = page_client(floor_user)
    events = AuditEvent.objects.count()
    with played_at(local(DAY, 7)):
        refused = floor.post(ACTION, {"table_id": table.pk, "kind": "opening"})
    assert refused.status_code == 400
    form = start_form(refused.content.decode())
    assert "enter the number of chips of at least one denomination" in form
    assert re.search(rf'<option value="{table.pk}" selected>', form), "the table chosen stays chosen"
    assert not ChipCount.objects.exists()
    assert not Shift.objects.exists()
    assert AuditEvent.objects.count() == events


def test_an_explicit_zero_count_is_still_an_inventory(rng_tables: list[Table], floor_user: User) -> None:
    with played_at(local(DAY, 7)):
        done = page_client(floor_user).post(ACTION, {"table_id": rng_tables[0].pk, "kind": "opening", "chips-100": "0"})
    assert done.status_code == 302
    assert ChipCount.objects.get().total_cents == 0


def test_a_refused_start_form_keeps_what_was_typed_and_says_why(rng_tables: list[Table], floor_user: User) -> None:
    table = rng_tables[1]
    with played_at(local(DAY, 7)):
        refused = page_client(floor_user).post(
            ACTION, {"table_id": table.pk, "kind": "opening", "chips-500": "-4", "chips-10000": "20"}
        )
    assert refused.status_code == 400
    form = start_form(refused.content.decode())
    assert "cannot be negative" in form
    assert 'name="chips-10000" min="0" step="1" inputmode="numeric" value="20"' in form
    assert not ChipCount.objects.exists()


def test_a_recorded_inventory_shows_its_chips_by_denomination_in_its_re_count_form(
    rng_tables: list[Table], floor_user: User
) -> None:
    table = rng_tables[0]
    floor = page_client(floor_user)
    with played_at(local(DAY, 7)):
        floor.post(ACTION, {"table_id": table.pk, "kind": "opening", "chips-10000": "20", "chips-500": "3"})
        page = floor.get(f"/floor/shifts/?day={DAY}&shift=day").content.decode()

    def form(name: str) -> str:
        found = re.search(rf'<form[^>]*aria-label="{name} of {table.name}">(.*?)</form>', page, re.DOTALL)
        assert found is not None, name
        return found.group(1)

    def typed(html: str, denomination: int) -> str:
        found = re.search(rf'name="chips-{denomination}"[^>]*value="([^"]*)"', html)
        assert found is not None
        return found.group(1)

    opening, closing = form("Opening inventory"), form("Closing inventory")
    assert (typed(opening, 10000), typed(opening, 500), typed(opening, 100)) == ("20", "3", "0")
    assert (typed(closing, 10000), typed(closing, 500)) == ("", "")


def test_a_shift_without_books_says_no_count_is_recorded_not_that_nothing_happened(
    rng_tables: list[Table], floor_user: User
) -> None:
    """Tables may have played all shift before the first count: the heading is about the books, not the play."""
    page = page_client(floor_user).get(f"/floor/shifts/?day={DAY}&shift=day").content.decode()
    heading = re.search(r"<h1>(.*?)</h1>", page, re.DOTALL)
    assert heading is not None
    assert "Books not started: no count recorded yet" in heading.group(1)
    assert "Nothing recorded" not in page
