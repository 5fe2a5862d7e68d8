"""A dealer running the Triple Draw tablet at speed. Each test failed on the screen before its fix."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from tables.models import Round, Seat
from tests.tablet.conftest import sign_in


@pytest.mark.browser
@pytest.mark.slow
def test_players_sit_down_and_leave_between_rounds_so_an_empty_table_can_start(
    tablet: Any, screenshot: Any, make_table: Any, dealer_user: User
) -> None:
    # Before: between rounds the screen showed only "Start a round", refused with "seat a player first", and had no
    # control to seat one (seats could be taken only while a round was betting): an empty table was a dead end.
    table = make_table("Empty One")
    page = tablet("portrait")
    sign_in(page, "dave")
    page.goto(f"/tablet/tables/{table.pk}/")
    for number, name in ((2, "Ann"), (5, "Bo")):
        seat = page.locator(f"#seat-{number}")
        seat.get_by_label(f"Seat {number} Player name (optional)").fill(name)
        seat.get_by_role("button", name=f"Seat a player at seat {number}").tap()
        expect(page.locator(f"#seat-{number}-title")).to_have_text(f"Seat {number} · {name}")
    screenshot(page, "seated-before-a-round")
    # Bo leaves before the round: confirmed, the seat is free again, and the confirmation says so.
    seat5 = page.locator("#seat-5")
    seat5.locator("summary").tap()
    seat5.get_by_role("button", name="Player leaves seat 5").tap()
    expect(seat5.get_by_role("alertdialog")).to_contain_text("The seat becomes free.")
    page.get_by_role("button", name="Yes, the player leaves").tap()
    expect(page.locator("#seat-5").get_by_role("button", name="Seat a player at seat 5")).to_be_visible()
    assert list(Seat.objects.filter(table=table, occupied=True).values_list("number", flat=True)) == [2]

    page.get_by_role("button", name="Start a round").tap()
    expect(page.locator("#phase")).to_have_text("Betting")
    expect(page.locator("#seat-2").get_by_role("button", name="Place bet for seat 2")).to_be_visible()
    assert Round.objects.filter(table=table, phase="betting").count() == 1

