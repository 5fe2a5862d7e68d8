"""Five-card draw on the dealer tablet: a whole fixed-limit hand on an rng table, and a manual table's draw of four
keeping an ace (confirmed by the dealer, and checked against the hand shown).

DESIGN 7: "five-card draw at most 3, or 4 keeping an ace"; fixed limit "small bet before the draw, big bet after".
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from tests.tablet import home_support
from tests.tablet.disabled_look import assert_disabled_readable
from tests.tablet.home_support import act, discard, draw, fold, home_game, show, stacked_deck, tap, turn, version

decks, home_tablet, shots = home_support.decks, home_support.home_tablet, home_support.shots
pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_fixed_limit_hand_with_a_draw_of_four_keeping_an_ace_and_the_button_moving_on(
    home_tablet: Any, shots: Any, decks: Any, floor_user: User, dealer_user: User
) -> None:
    table, _ = home_game("five-card-draw", floor_user, dealer_user, players=[(1, "Ann"), (2, "Bob"), (3, "Cy")])
    # Button at seat 1: the deal and the draw go Bob, Cy, Ann. Bob draws four keeping his ace, Cy one, Ann stands pat.
    decks(stacked_deck([2, 3, 1], {1: "9h 9d 8s 6c 5d", 2: "As Kd 7c 4h 2s", 3: "Kh Ks Qc Qd 3c"},
                       "Ah Ad Ac 5s", "Kc"))
    page = home_tablet(table)
    expect(page.locator("#announce")).to_contain_text("One draw: up to 3 cards, 4 keeping an ace")
    tap(page, page.locator("#start-hand"))

    expect(page.locator("#pot")).to_have_text("Pot $3.00")
    assert turn(page) == "Seat 2 · Bob to act"
    shots(page, "first-betting-round")
    act(page, "Bet $2.00")  # fixed limit: the small bet, one button
    assert turn(page) == "Seat 3 · Cy to act: $2.00 to call"
    expect(page.locator("#turn-panel").get_by_role("button")).to_have_text(
        ["Fold", "Call $2.00", "Raise to $4.00"])
    act(page, "Raise to $4.00")
    fold(page)  # Ann
    act(page, "Call $2.00 (to $4.00)")  # Bob, with his $2.00 bet in already
    expect(page.locator("#seat-1 .seat-status")).to_have_text("Folded")

    # Four discards without keeping the ace: the screen knows the kept card is no ace, so the button cannot send
    # the draw and the hint under it reads as an error (the server refuses it anyway: test_home_screen_guards).
    expect(page.locator("#turn-title")).to_have_text("Seat 2 · Bob: the draw")
    shots(page, "the-draw")
    discard(page, "As Kd 7c 4h")
    expect(page.locator("#draw-submit")).to_have_text("Discard 4 only when keeping an ace")
    assert_disabled_readable(page, page.locator("#draw-submit"))
    expect(page.locator("#draw-count")).to_have_text("4 picked: more than 3 only when keeping an ace")
    expect(page.locator("#draw-count")).to_have_class(re.compile(r"\billegal\b"))
    shots(page, "four-without-an-ace-disabled")
    discard(page, "As")  # keep the ace
    expect(page.locator("#draw-count")).to_have_text("")  # three: nothing to say
    expect(page.locator("#draw-submit")).to_have_text("Discard 3 and draw 3")
    discard(page, "2s")  # and discard the deuce instead
    expect(page.locator("#draw-count")).to_have_text("4 picked, keeping an ace")
    expect(page.locator("#draw-count")).not_to_have_class(re.compile(r"\billegal\b"))
    expect(page.locator("#draw-submit")).to_be_enabled()
    expect(page.locator("#draw-submit")).to_have_text("Discard 4 and draw 4")
    draw(page)
    assert turn(page) == "Seat 3 · Cy: the draw"
    draw(page, "3c")

    assert turn(page) == "Seat 2 · Bob to act"
    act(page, "Bet $4.00")  # the big bet after the draw
    act(page, "Raise to $8.00")
    act(page, "Call $4.00 (to $8.00)")

    expect(page.locator("#headline")).to_have_text("Four aces beat kings full of queens")
    expect(page.locator("#result-lines")).to_contain_text("Pot $27.00 to Bob")
    expect(page.locator('tr.shown-hand[data-seat="2"]')).to_contain_text("Four aces")
    expect(page.locator("#seat-2 .stack")).to_have_text("Stack $214.00")
    expect(page.locator("#seat-3 .stack")).to_have_text("Stack $187.00")
    expect(page.locator("#seat-1 .stack")).to_have_text("Stack $199.00")
    shots(page, "result")

    decks(stacked_deck([3, 1, 2], {1: "2c 3c 4c 5c 7d", 2: "2d 3d 4d 5d 7h", 3: "2h 3h 4h 5h 7s"}))
    tap(page, page.locator("#start-hand"))
    expect(page.locator("#seat-2")).to_contain_text("The button")  # one seat to the left
    assert turn(page) == "Seat 3 · Cy to act"
    shots(page, "next-hand-button-moved")


def test_a_manual_draw_of_four_asks_the_dealer_to_confirm_the_ace_and_the_hand_shown_must_hold_it(
    home_tablet: Any, shots: Any, floor_user: User, dealer_user: User
) -> None:
    # A table with a time charge of $5 per seat per half hour: announced before the first card, and the hand screen
    # says what the house took as the hand started (a tester saw $200 -> $194 with only "In the pot $1.00").
    table, _ = home_game("five-card-draw", floor_user, dealer_user, players=[(1, "Ann"), (2, "Bob")],
                         source="manual", charge="time", time_charge_cents=500)
    page = home_tablet(table)
    expect(page.locator("#announce")).to_contain_text("Time charge: $5.00 from each seat every half hour")
    tap(page, page.locator("#start-hand"))
    expect(page.locator("#turn-title")).to_have_text("Deal five cards to each player")
    expect(page.locator("#time-charge")).to_have_text(
        "Time charge $5.00 from each of seats 1 and 2, as this hand started")
    expect(page.locator("#seat-1 .stack")).to_have_text("Stack $194.00")
    shots(page, "manual-deal")
    act(page, "The deal is done")
    act(page, "Check")
    act(page, "Check")

    shots(page, "manual-draw-counts")
    before = version(page)
    act(page, "Draws 4 (keeps an ace)")
    expect(page.locator("#confirm-ace")).to_contain_text("Is the player keeping an ace?")
    assert version(page) == before  # nothing recorded until the dealer confirms
    shots(page, "confirm-the-ace")
    act(page, re.compile(r"^Yes, keeping an ace"))
    act(page, "Draws 2")
    act(page, "Check")
    act(page, "Check")

    expect(page.locator("#turn-title")).to_have_text("Showdown: record the hands shown, or a hand mucked unshown")
    shots(page, "showdown-picker")
    before = version(page)
    show(page, 2, "Kd Kh 7c 4h 2s")  # Bob drew four "keeping an ace" but shows none
    expect(page.locator("#show-2-error")).to_contain_text("shows no ace")
    expect(page.locator("#show-2-error")).to_be_in_viewport()
    assert version(page) == before
    shots(page, "no-ace-shown-refused")
    page.locator('button.hpick[data-card="Kd"]').tap()  # take the king back out, put the ace in
    page.locator('button.hpick[data-card="Ad"]').tap()
    tap(page, page.locator('form.show-form[data-seat="2"] button.show-submit'))
    show(page, 1, "Qs Qd 9c 9d 5h")
    expect(page.locator("#headline")).to_have_text("Two pair, queens and nines, beat ace high")
    expect(page.locator("#time-charge")).to_have_text("Time charge $5.00 from each of seats 1 and 2, as hand 1 started")
    shots(page, "result")
