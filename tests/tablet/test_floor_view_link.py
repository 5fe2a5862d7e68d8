"""A floor supervisor who opens a table's screen from the floor view has one tap back to it ("Floor view", 48 px, in
the header at both tablet sizes); a dealer, who has no floor view, is not offered it. Triple Draw and home-game
tables alike."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from tables.models import Table
from tests.tables.conftest import open_home_table
from tests.tablet.conftest import SIZES, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def both_kinds(make_table: Callable[..., Any], floor_user: User, dealer_user: User) -> list[Table]:
    """A Triple Draw table with a seated player and a Five Card Draw table, both dealt by Dave."""
    return [make_table("Main Pit Seven", seated=(1,)),
            open_home_table("Salon Draw Three", "five-card-draw", floor_user, dealer_user)]


def test_the_floor_goes_from_the_floor_view_to_a_table_and_back_in_one_tap(
    both_kinds: list[Table], tablet: Callable[..., Any], screenshot: Callable[[Any, str], None]
) -> None:
    page = tablet("portrait")
    sign_in(page, "fiona")
    for table in both_kinds:
        page.goto("/floor/")
        page.locator(f"#table-{table.pk}").get_by_role("link", name="Open the table screen").tap()
        expect(page.locator("#table-title")).to_have_text(table.name)
        back = page.locator("header.bar").get_by_role("link", name="Floor view", exact=True)
        for size in SIZES.values():
            page.set_viewport_size(size)
            expect(back).to_be_visible()
            box = back.bounding_box()
            assert box is not None
            assert min(box["height"], box["width"]) >= 48, box
        # It sits in the header with the other ways off the table, not among the dealer's controls.
        expect(page.locator("main").get_by_role("link", name="Floor view")).to_have_count(0)
        screenshot(page, f"floor-{table.table_type}")
        back.tap()
        expect(page).to_have_url(re.compile(r"/floor/$"))


def test_a_dealer_is_not_offered_the_floor_view(
    both_kinds: list[Table], tablet: Callable[..., Any], screenshot: Callable[[Any, str], None]
) -> None:
    page = tablet("portrait")
    sign_in(page, "dave")
    for table in both_kinds:
        page.goto(f"/tablet/tables/{table.pk}/")
        expect(page.locator("#table-title")).to_have_text(table.name)
        expect(page.get_by_role("link", name="All tables")).to_be_visible()
        expect(page.get_by_role("link", name="Floor view")).to_have_count(0)
        screenshot(page, f"dealer-{table.table_type}")
