"""A Triple Draw table dealt from a card-reading shoe, on the dealer tablet: the one-second poll shows the deal's and
the rows' progress ("3 of 10 cards read; next: seat 4") and a refused shoe report until the round moves on."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect
from rest_framework.test import APIClient

from tables.models import Round
from tables.services.bets import bet_place
from tables.services.cards import holds_record
from tables.services.devices import device_create
from tables.services.rounds import round_close_bets, round_start
from tests.tablet.conftest import POLL_TIMEOUT_MS, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.slow]

DEAL = ["Js", "Ac", "Jh", "Kc", "4c", "Qc", "7d", "Tc", "9s", "2d"]
ROWS = ["Jc", "2h", "5d", "Qs", "6h", "4d", "4h", "Kh", "2c", "7s", "As", "Ah", "9h", "9d", "Qh"]


def test_the_tablet_follows_the_shoe_and_shows_its_refused_report_until_the_round_moves_on(
    tablet: Any, screenshot: Any, make_table: Any, floor_user: User, dealer_user: User
) -> None:
    table = make_table("Shoe Tablet", card_source="shoe", seated=(2, 4))
    _, token = device_create(table=table, name="shoe 1", actor=floor_user)

    def report(cards: list[str]) -> Any:
        return APIClient().post("/api/v1/shoe/cards/", {"cards": cards}, format="json",
                                HTTP_AUTHORIZATION=f"Device {token}")

    rnd = round_start(table=table, actor=dealer_user)
    for seat in (2, 4):
        bet_place(round=rnd, seat_number=seat, amount_cents=1000, circles=1, actor=dealer_user)
    round_close_bets(round=rnd, actor=dealer_user)
    dealer = tablet()
    sign_in(dealer, "dave")
    dealer.goto(f"/tablet/tables/{table.pk}/")
    progress, refusal = dealer.locator("#shoe-progress"), dealer.locator("#shoe-refusal")
    expect(progress).to_have_text("Waiting for the card-reading shoe to deal the cards: 0 of 10 cards read; "
                                  "next: seat 2 · Player 2.")  # the seat's player named, as on the home tablet
    assert report(DEAL[:3]).status_code == 200
    expect(progress).to_contain_text("3 of 10 cards read; next: seat 4", timeout=POLL_TIMEOUT_MS)
    assert report(["Js", "5h"]).status_code == 400  # the shoe read J♠ again: a card already dealt
    expect(refusal).to_contain_text(re.compile(r"Shoe report refused at \d\d:\d\d:\d\d \(shoe 1: "),
                                    timeout=POLL_TIMEOUT_MS)
    # Neither card is recorded (5♥ was read right): the dealer deals both again.
    expect(refusal).to_contain_text("(shoe 1: J♠ 5♥)")
    expect(refusal).to_contain_text("Nothing was recorded: check the cards and deal all of them again.")
    expect(progress).to_contain_text("3 of 10 cards read; next: seat 4")
    screenshot(dealer, "shoe-refused")
    # The shoe's next card moves the round on: the refusal is history (the audit trail keeps it).
    assert report(DEAL[3:]).status_code == 200
    expect(dealer.locator("#phase")).to_have_text("Holding", timeout=POLL_TIMEOUT_MS)
    expect(refusal).to_have_count(0)
    expect(progress).to_have_count(0)
    rnd = Round.objects.get(pk=rnd.pk)
    holds_record(round=rnd, seat_number=2, held=["Js", "Jh"], actor=dealer_user)
    holds_record(round=rnd, seat_number=4, held=[], actor=dealer_user)
    expect(progress).to_have_text("Waiting for the card-reading shoe to deal the rows: 0 of 15 row cards read; "
                                  "next: row 1.", timeout=POLL_TIMEOUT_MS)
    assert report(ROWS[:4]).status_code == 200
    expect(progress).to_contain_text("4 of 15 row cards read; next: row 1", timeout=POLL_TIMEOUT_MS)
    assert report(["Zz"]).status_code == 400
    expect(refusal).to_contain_text("Zz", timeout=POLL_TIMEOUT_MS)
    screenshot(dealer, "shoe-rows")
