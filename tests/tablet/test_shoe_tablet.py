"""A Triple Draw table dealt from a card-reading shoe, on the dealer tablet: the one-second poll shows the deal's and
the rows' progress ("3 of 10 cards read; next: seat 4") and a refused shoe report until the round moves on."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from tables.models import Round, Table
from tables.services.bets import bet_place
from tables.services.cards import holds_record
from tables.services.devices import device_create
from tables.services.rounds import round_close_bets, round_start
from tables.tasks import settle_round
from tests.tables.shoe_support import DEAL, ROWS, shoe_post
from tests.tablet.conftest import POLL_TIMEOUT_MS, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def round_with_bets_closed(table: Table, dealer: User) -> Round:
    """A round at `table` with seats 2 and 4 betting $10 on one circle, its bets closed."""
    rnd = round_start(table=table, actor=dealer)
    for seat in (2, 4):
        bet_place(round=rnd, seat_number=seat, amount_cents=1000, circles=1, actor=dealer)
    return round_close_bets(round=rnd, actor=dealer)


def test_the_tablet_follows_the_shoe_and_shows_its_refused_report_until_the_round_moves_on(
    tablet: Any, screenshot: Any, make_table: Any, floor_user: User, dealer_user: User
) -> None:
    table = make_table("Shoe Tablet", card_source="shoe", seated=(2, 4))
    _, token = device_create(table=table, name="shoe 1", actor=floor_user)

    def report(cards: list[str]) -> Any:
        return shoe_post(token, cards)

    rnd = round_with_bets_closed(table, dealer_user)
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


def test_the_tablet_explains_a_late_retry_of_the_last_rounds_report_refused_in_the_next_round(
    tablet: Any, screenshot: Any, make_table: Any, floor_user: User, dealer_user: User
) -> None:
    table = make_table("Shoe Retry", card_source="shoe", seated=(2, 4))
    _, token = device_create(table=table, name="shoe 1", actor=floor_user)
    played = round_with_bets_closed(table, dealer_user)
    assert shoe_post(token, DEAL).status_code == 200
    for seat, held in ((2, ["Js", "Jh"]), (4, [])):
        holds_record(round=Round.objects.get(pk=played.pk), seat_number=seat, held=held, actor=dealer_user)
    assert shoe_post(token, ROWS).status_code == 200
    settle_round.apply(args=[played.pk]).get()
    following = round_with_bets_closed(table, dealer_user)
    dealer = tablet()
    sign_in(dealer, "dave")
    dealer.goto(f"/tablet/tables/{table.pk}/")
    expect(dealer.locator("#shoe-progress")).to_contain_text("0 of 10 cards read")
    retry = shoe_post(token, ROWS[-1:])  # the last round's last card again, its first answer lost
    assert (retry.status_code, retry.json()["error"]["code"]) == (409, "round_unclear")
    refusal = dealer.locator("#shoe-refusal")
    expect(refusal).to_contain_text(f"for round id {played.pk}, and round 2 (id {following.pk}) has none from it",
                                    timeout=POLL_TIMEOUT_MS)
    expect(refusal).to_contain_text("Nothing was recorded: if no card of this round is on the felt yet, nothing is "
                                    "missing (a late retry of the last round's report)")
    expect(dealer.locator("#shoe-progress")).to_contain_text("0 of 10 cards read")
    screenshot(dealer, "shoe-late-retry")
