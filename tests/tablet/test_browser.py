"""Whole Triple Draw rounds played by tapping in Debian's Chromium, checked against the engine's payouts."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from casino.engine.cards import Card, check_unique, parse_cards
from casino.engine.paytable import PaytableSpec
from casino.engine.triple_draw import compose_hand
from tables.models import Bet, DrawRow, Round, SeatHand
from tables.services.bets import bet_place
from tables.services.cards import cards_deal, holds_record, rows_record
from tables.services.rounds import round_close_bets, round_start
from tables.templatetags.tablet import card_name
from tests.tablet.conftest import POLL_TIMEOUT_MS, STANDARD_PAYTABLE, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SPEC = PaytableSpec.from_dict(json.loads(STANDARD_PAYTABLE.read_text()))


def expected_returns(held: list[str], rows: list[list[str]], circles: int, bet_cents: int) -> list[int]:
    """The engine's verdict for one seat: held cards + the first 5 - k cards of row r, paid by the paytable.

    Triple Draw rule sheet: "Players holding two cards will use Draw Cards 1, 2, and 3".
    """
    held_cards = parse_cards(held)
    return [
        SPEC.settle_hand(compose_hand(held_cards, parse_cards(rows[circle])), bet_cents).return_cents
        for circle in range(circles)
    ]


def tap_cards(page: Page, codes: str) -> None:
    for code in codes.split():
        page.locator(f'button.pick[data-card="{code}"]').tap()


def place_bet(page: Page, seat: int, amount: str, circles: int) -> None:
    box = page.locator(f"#seat-{seat}")
    box.get_by_label(f"Seat {seat} bet per circle ($)").fill(amount)
    box.locator(f'label[data-circles="{circles}"]').tap()
    box.get_by_role("button", name=f"Place bet for seat {seat}").tap()


def shown_returns(page: Page, seat: int) -> list[int]:
    """What each circle's hand returned, stake included, as the results carry it (data-returned-cents)."""
    rows = page.locator(f"#result-seat-{seat} tr.outcome")
    return [int(rows.nth(index).get_attribute("data-returned-cents") or "-1") for index in range(rows.count())]


def record_hold(page: Page, seat: int, *, last: bool = False) -> None:
    """Tap Record hold; the last seat's hold moves the round on, so the tablet asks to confirm it first."""
    page.locator(f"#seat-{seat}").get_by_role("button", name="Record hold").tap()
    if last:
        page.get_by_role("button", name="Yes, record the last hold").tap()


# A manual round with known cards: seat 1 holds a pair of aces for three circles, seat 4 a pair of nines for one.
DEALT = {1: "As Ah Kd 7c 2s", 4: "9c 9d 5h 3s Jc"}
HELD = {1: ["As", "Ah"], 4: ["9c", "9d"]}
ROWS = ["Ac Kh 4d 8s 6c", "Qs Qh 3d Td 8h", "5c 6d 7h 8d Th"]


def test_dealer_plays_a_manual_round_by_tapping_and_a_second_tablet_follows_and_approves(
    tablet: Any, screenshot: Any, make_table: Any, dealer_user: User, floor_user: User, settlement: None
) -> None:
    check_unique(parse_cards(" ".join([*DEALT.values(), *ROWS])))
    # Seat 1 wins $30 net ($60 back on $30 staked): at the $25 approval threshold the round waits for the floor.
    table = make_table("Manual One", seated=(1, 4), supervisor_approval_threshold_cents=2500)
    dealer = tablet("landscape")
    sign_in(dealer, "dave")
    screenshot(dealer, "your-tables")
    dealer.get_by_role("link", name="Manual One").tap()
    expect(dealer.get_by_role("heading", name="No round yet")).to_be_visible()
    screenshot(dealer, "no-round")
    # The paytable and rules are one tap away, in a dialog that closes back to the table.
    dealer.get_by_role("link", name="Paytable & rules").tap()
    rules = dealer.get_by_role("dialog", name="Manual One: paytable and rules")
    expect(rules).to_be_visible()
    expect(rules.get_by_role("row", name="Full house 9 for 1")).to_be_visible()
    screenshot(dealer, "rules")
    rules.get_by_role("button", name="Close").tap()
    expect(rules).to_be_hidden()
    dealer.get_by_role("button", name="Start a round").tap()
    expect(dealer.locator("#phase")).to_have_text("Betting")

    # A bet over the table maximum: the error sits at seat 4 in plain words, and nothing is saved.
    place_bet(dealer, 4, "1000", 1)
    expect(dealer.locator("#seat-4-error")).to_contain_text("Seat 4: ")
    assert not Bet.objects.filter(round__table=table).exists()
    screenshot(dealer, "bet-error")

    place_bet(dealer, 1, "10", 3)
    expect(dealer.locator("#seat-1-bet")).to_have_text("3 × $10.00")
    place_bet(dealer, 4, "25", 1)
    expect(dealer.locator("#seat-4-bet")).to_have_text("1 × $25.00")
    expect(dealer.locator("#seat-4-error")).to_have_text("")

    # A second tablet (the floor supervisor's, portrait) shows the same round and follows every change.
    floor = tablet("portrait")
    sign_in(floor, "fiona")
    floor.goto(f"/tablet/tables/{table.pk}/")
    expect(floor.locator("#seat-1-bet")).to_have_text("3 × $10.00")
    screenshot(dealer, "betting")

    dealer.get_by_role("button", name="Close bets").tap()
    expect(dealer.locator("#phase")).to_have_text("Dealing (bets closed)")
    expect(floor.locator("#phase")).to_have_text("Dealing (bets closed)", timeout=POLL_TIMEOUT_MS)
    dealer.get_by_role("button", name=re.compile("^Seat 1 cards")).tap()
    tap_cards(dealer, DEALT[1])  # the picker moves on to seat 4 once seat 1 has five
    tap_cards(dealer, DEALT[4])
    expect(dealer.locator("#deal-seat-4")).to_have_value(DEALT[4])
    # The field shows the cards picked as their faces, as the dealer sees them on the felt.
    expect(dealer.locator('[data-cards-of="deal-seat-4"]')).to_have_text("9♣ 9♦ 5♥ 3♠ J♣")
    screenshot(dealer, "dealing")
    dealer.get_by_role("button", name="Save dealt cards").tap()
    expect(dealer.locator("#phase")).to_have_text("Holding")

    for seat, held in HELD.items():
        box = dealer.locator(f"#seat-{seat}")
        for code in held:
            box.locator(f'label[data-card="{code}"]').tap()
        if seat == 1:
            screenshot(dealer, "holding")
        record_hold(dealer, seat, last=seat == 4)
        expect(dealer.locator(f"#seat-{seat}-held")).to_contain_text("holds 2")
    expect(dealer.locator("#phase")).to_have_text("Drawing")
    expect(floor.locator("#phase")).to_have_text("Drawing", timeout=POLL_TIMEOUT_MS)

    # Cards already in the round are greyed out on the picker and cannot be tapped.
    for code in ("As", "9d", "Jc"):
        expect(dealer.locator(f'button.pick[data-card="{code}"]')).to_be_disabled()
    dealer.get_by_role("button", name=re.compile("^Row 1")).tap()
    for row in ROWS:
        tap_cards(dealer, row)
    expect(dealer.locator("#row-3")).to_have_value(ROWS[2])
    screenshot(dealer, "drawing")
    dealer.get_by_role("button", name="Save rows").tap()

    expect(dealer.locator("#awaiting-approval")).to_be_visible(timeout=15_000)
    rows = [row.split() for row in ROWS]
    expected = {1: expected_returns(HELD[1], rows, 3, 1000), 4: expected_returns(HELD[4], rows, 1, 2500)}
    assert expected == {1: [3000, 2000, 1000], 4: [0]}  # three aces, aces up, pair of aces; nines lose
    for seat, returns in expected.items():
        assert shown_returns(dealer, seat) == returns
    # Awaiting approval nothing is paid: each seat says so instead of an amount.
    expect(dealer.locator("#seat-1-pay")).to_have_text("Do not pay — waiting for floor approval")
    dealer.locator("#result-seat-1 summary").tap()
    outcome = dealer.locator('#result-seat-1 tr.outcome[data-circle="1"]')
    expect(outcome.locator("td.hand")).to_contain_text("Three aces")
    expect(outcome.locator("td.line")).to_have_text("Three of a kind pays 3 for 1 ($30.00 back with the bet)")
    dealer.locator("#result-seat-4 summary").tap()
    expect(dealer.locator("#result-seat-4 tr.outcome td.line")).to_have_text("No paying hand")
    expect(dealer.locator("#result-seat-4 tr.outcome td.instruction")).to_contain_text("Take the $25.00 bet")
    expect(dealer.locator("#table-result")).to_have_attribute("data-cents", str(3000 + 2500 - 6000))
    expect(dealer.locator("#table-result")).to_contain_text("the house loses $5.00")
    expect(dealer.get_by_role("button", name="Approve payout")).to_have_count(0)  # dealers cannot approve
    screenshot(dealer, "awaiting-approval")

    floor.get_by_role("button", name="Approve payout").tap(timeout=POLL_TIMEOUT_MS + 5000)
    # Final and large: the screen asks first, naming what each winning seat gets.
    expect(floor.get_by_role("alertdialog")).to_contain_text("Seat 1 wins $30.00.")
    floor.get_by_role("button", name="Yes, approve the payout").tap()
    expect(floor.locator("#phase")).to_have_text("Settled")
    expect(dealer.locator("#phase")).to_have_text("Settled", timeout=POLL_TIMEOUT_MS)
    # Approved: seat 1 leaves its three bets and is paid $20 + $10 + $0 on them (for 1: the stake came back too).
    expect(dealer.locator("#seat-1-pay")).to_have_text("Pay $30.00")
    screenshot(dealer, "settled")
    assert Round.objects.get(table=table).phase == "settled"


def test_dealer_plays_an_rng_round_in_portrait_with_deal_and_draw_buttons(
    tablet: Any, screenshot: Any, make_table: Any, dealer_user: User, settlement: None
) -> None:
    table = make_table("Electronic One", card_source="rng", seated=(2, 6))
    dealer = tablet("portrait")
    sign_in(dealer, "dave")
    dealer.get_by_role("link", name="Electronic One").tap()
    dealer.get_by_role("button", name="Start a round").tap()
    # Seat 2 by keyboard alone (a screen-reader user's way): type, Tab to the circles, arrow to 2, Tab, Enter.
    dealer.get_by_label("Seat 2 Bet per circle ($)").focus()
    dealer.keyboard.type("5")
    for _ in range(5):  # past "Clear" and the three chips
        dealer.keyboard.press("Tab")
    expect(dealer.locator("#circles-2-1")).to_be_focused()
    dealer.keyboard.press("ArrowRight")
    expect(dealer.locator("#circles-2-2")).to_be_checked()
    dealer.keyboard.press("Tab")
    expect(dealer.get_by_role("button", name="Place bet for seat 2")).to_be_focused()
    dealer.keyboard.press("Enter")
    expect(dealer.locator("#seat-2-bet")).to_have_text("2 × $5.00")
    place_bet(dealer, 6, "7.50", 3)
    expect(dealer.locator("#seat-6-bet")).to_have_text("3 × $7.50")
    screenshot(dealer, "betting")
    dealer.get_by_role("button", name="Close bets").tap()
    screenshot(dealer, "dealing")
    dealer.get_by_role("button", name="Deal").tap()
    expect(dealer.locator("#phase")).to_have_text("Holding")
    round_ = Round.objects.get(table=table)
    dealt = {hand.seat_number: hand.dealt for hand in SeatHand.objects.filter(round=round_)}
    # Seat 2 holds its first two cards, seat 6 holds nothing and draws five from each row.
    box = dealer.locator("#seat-2")
    for code in dealt[2][:2]:
        box.locator(f'label[data-card="{code}"]').tap()
    screenshot(dealer, "holding")
    record_hold(dealer, 2)
    expect(dealer.locator("#seat-2-held")).to_contain_text("holds 2")
    record_hold(dealer, 6, last=True)
    expect(dealer.locator("#seat-6-held")).to_have_text("Recorded: holds nothing (draws five)")
    screenshot(dealer, "drawing")
    dealer.get_by_role("button", name="Draw the three rows").tap()
    expect(dealer.locator("#table-result")).to_be_visible(timeout=15_000)
    expect(dealer.locator("#phase")).to_have_text(re.compile("Settled|Awaiting supervisor approval"))
    rows = [row.cards for row in DrawRow.objects.filter(round=round_).order_by("row")]
    assert shown_returns(dealer, 2) == expected_returns(dealt[2][:2], rows, 2, 500)
    assert shown_returns(dealer, 6) == expected_returns([], rows, 3, 750)
    for row_number, cards in enumerate(rows, start=1):
        shown = dealer.locator(f"#row-{row_number}-cards .card")
        assert [shown.nth(i).get_attribute("aria-label") for i in range(5)] == [
            _name(Card.parse(code)) for code in cards
        ]
    screenshot(dealer, "results")
    # Cut off from the server, the tablet says its screen may be stale; back online, the warning goes.
    dealer.context.set_offline(True)
    expect(dealer.locator("#connection")).to_contain_text("Cannot reach the server", timeout=POLL_TIMEOUT_MS)
    dealer.context.set_offline(False)
    expect(dealer.locator("#connection")).to_be_hidden(timeout=POLL_TIMEOUT_MS)


def _name(card: Card) -> str:
    return card_name(str(card))


def test_a_void_request_from_the_dealer_reaches_the_floor_who_voids_on_the_same_screen(
    tablet: Any, screenshot: Any, make_table: Any, dealer_user: User, floor_user: User
) -> None:
    table = make_table("Manual Two", seated=(3,))
    dealer = tablet("landscape")
    sign_in(dealer, "dave")
    dealer.goto(f"/tablet/tables/{table.pk}/")
    dealer.get_by_role("button", name="Start a round").tap()
    place_bet(dealer, 3, "20", 2)
    floor = tablet("portrait")
    sign_in(floor, "fiona")
    floor.goto(f"/tablet/tables/{table.pk}/")
    dealer.get_by_text("Request a void").tap()
    dealer.get_by_label("Reason for the void").fill("Card exposed at seat 3")
    dealer.get_by_role("button", name="Send the void request").tap()
    dealer.get_by_role("button", name="Yes, send the request").tap()
    expect(dealer.locator("#void-request")).to_contain_text("Void requested by dave: Card exposed at seat 3")
    expect(floor.locator("#void-request")).to_contain_text("Card exposed at seat 3", timeout=POLL_TIMEOUT_MS)
    screenshot(floor, "void-requested")
    floor.get_by_text("Void this round").tap()
    floor.get_by_label("Reason for the void").fill("Card exposed at seat 3")
    floor.get_by_role("button", name="Void the round").tap()
    floor.get_by_role("button", name="Yes, void the round").tap()
    expect(floor.locator("#phase")).to_have_text("Voided")
    expect(dealer.locator("#void-notice")).to_contain_text("Card exposed at seat 3", timeout=POLL_TIMEOUT_MS)
    screenshot(dealer, "voided")
    assert Round.objects.get(table=table).phase == "voided"
    # When the session ends, the next poll takes the whole tablet to the sign-in page, back to this table after.
    dealer.context.clear_cookies()
    dealer.wait_for_url(re.compile(rf"/tablet/login/\?next=%2Ftablet%2Ftables%2F{table.pk}%2F$"), timeout=5000)
    expect(dealer.get_by_role("heading", name="Dealer sign-in")).to_be_visible()


def test_a_dealer_cannot_open_a_table_not_assigned_to_them(
    tablet: Any, screenshot: Any, make_table: Any, other_dealer: User
) -> None:
    table = make_table("Not Olgas")
    page = tablet("landscape")
    sign_in(page, "olga")
    expect(page.get_by_text("No tables are assigned to you")).to_be_visible()
    response = page.goto(f"/tablet/tables/{table.pk}/")
    assert response is not None
    assert response.status == 403
    expect(page.get_by_role("heading", name="Not your table")).to_be_visible()
    screenshot(page, "not-your-table")


def test_settle_reruns_a_settlement_job_that_was_lost(
    tablet: Any,
    screenshot: Any,
    make_table: Any,
    dealer_user: User,
    settlement: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = make_table("Electronic Two", card_source="rng", seated=(5,))
    round_ = round_start(table=table, actor=dealer_user)
    bet_place(round=round_, seat_number=5, amount_cents=1000, circles=1, actor=dealer_user)
    round_close_bets(round=round_, actor=dealer_user)
    cards_deal(round=round_, actor=dealer_user)
    holds_record(round=round_, seat_number=5, held=[], actor=dealer_user)
    # The job queued with the rows is lost (say the broker was down at that moment).
    with monkeypatch.context() as patch:
        patch.setattr("tables.services.cards.queue_settlement", lambda rnd: None)
        rows_record(round=round_, actor=dealer_user)
    dealer = tablet("landscape")
    sign_in(dealer, "dave")
    dealer.goto(f"/tablet/tables/{table.pk}/")
    expect(dealer.locator("#phase")).to_have_text("Settling")
    screenshot(dealer, "settling")
    dealer.get_by_role("button", name="Settle").tap()
    expect(dealer.locator("#table-result")).to_be_visible(timeout=15_000)
    rows = [row.cards for row in DrawRow.objects.filter(round=round_).order_by("row")]
    assert shown_returns(dealer, 5) == expected_returns([], rows, 1, 1000)
