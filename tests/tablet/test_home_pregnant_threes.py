"""Pregnant Threes on the dealer tablet: on a manual table the dealer records the deal, a kill card, two optional draws
of up to three by count, and the hands shown at the showdown with the card picker; on an rng table the system deals
and the dealer taps each draw's discards.

Rule sheet: "A player holds 3♥6♣Q♠Q♦9♦. The three, six and nine are all wild. With the natural pair of queens, the
player has five queens." "A player who receives a kill card is disqualified and their hand is dead."
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from tests.tablet import home_support
from tests.tablet.disabled_look import assert_disabled_readable
from tests.tablet.home_support import act, discard, draw, expect_draw_refused, home_game, show, stacked_deck, tap, turn

decks, home_tablet, shots = home_support.decks, home_support.home_tablet, home_support.shots
pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_manual_hand_with_a_kill_card_two_draws_and_five_queens_at_the_showdown(
    home_tablet: Any, shots: Any, floor_user: User, dealer_user: User
) -> None:
    table, _ = home_game("pregnant-threes", floor_user, dealer_user, source="manual",
                         players=[(1, "Ann"), (2, "Bob"), (3, "Cy")],
                         rules={"draws": 2, "cards_per_draw": 3, "draw": "optional", "kill_cards": ["Kd"]})
    page = home_tablet(table)
    announce = page.locator("#announce")
    expect(announce).to_contain_text("Two draws of up to 3 cards (optional)")
    expect(announce).to_contain_text("3s, 6s and 9s are wild")
    expect(announce).to_contain_text("Kill cards: K♦")
    shots(page, "rules-announced")

    tap(page, page.locator("#start-hand"))
    expect(page.locator("#turn-title")).to_have_text("Deal five cards to each player")
    page.locator("#kill-panel summary").tap()
    shots(page, "deal-and-kill-cards")
    act(page, "Seat 3 · Cy was dealt K♦")  # asks first: nothing recorded until Yes
    tap(page, page.locator("#kill-yes"))
    expect(page.locator("#seat-3 .seat-status")).to_have_text("Dead")
    act(page, "The deal is done")

    assert turn(page) == "Seat 2 · Bob to act"
    act(page, "Check")
    act(page, "Check")
    expect(page.locator("#turn-title")).to_have_text("Seat 2 · Bob: the draw (1 of 2)")
    expect(page.locator("#draw-rule")).to_have_text("Stand pat or discard up to 3 cards.")
    expect(page.locator("form.counts button")).to_have_text(["Stand pat", "Draws 1", "Draws 2", "Draws 3"])
    shots(page, "first-draw-by-count")
    act(page, "Draws 2")
    act(page, "Draws 3")
    act(page, "Check")
    act(page, "Check")
    expect(page.locator("#turn-title")).to_have_text("Seat 2 · Bob: the draw (2 of 2)")
    act(page, "Stand pat")
    act(page, "Draws 1")
    act(page, "Bet $4.00")
    act(page, "Call $4.00")

    expect(page.locator("#turn-title")).to_have_text("Showdown: record the hands shown, or a hand mucked unshown")
    # Already seen, the kill card: struck through, and still readable as a red card (it read 4.49:1 on mid grey, black).
    killed = page.locator('button.hpick[data-card="Kd"]')
    assert_disabled_readable(page, killed)
    red, green, blue = killed.evaluate("el => getComputedStyle(el).color.match(/\\d+/g).map(Number)")
    assert red > 2 * max(green, blue), (red, green, blue)
    show(page, 1, "3h 6c Qs Qd 9d")
    shots(page, "showdown-one-hand-recorded")
    expect(page.locator('button.hpick[data-card="Qs"]')).to_be_disabled()
    show(page, 2, "As Ah Kc Ks 2d")

    expect(page.locator("#headline")).to_have_text("Five queens beat two pair, aces and kings")
    expect(page.locator("#result-lines")).to_contain_text("Pot $11.00 to Ann")
    expect(page.locator("#result-lines")).to_contain_text("Cy is dead: K♦ is a kill card")
    expect(page.locator("#seat-1 .stack")).to_have_text("Stack $206.00")
    # Threes, sixes and nines are wild: the three cards that made Ann's five queens are marked; Bob held none.
    expect(page.locator('#result tr.shown-hand[data-seat="1"] .wild')).to_have_text(["3♥ wild", "6♣ wild", "9♦ wild"])
    expect(page.locator('#result tr.shown-hand[data-seat="2"] .wild')).to_have_count(0)
    shots(page, "result")


def test_an_rng_hand_with_two_draws_tapped_card_by_card_and_five_queens_at_the_showdown(
    home_tablet: Any, shots: Any, decks: Any, floor_user: User, dealer_user: User
) -> None:
    """The same rule-sheet hand dealt by the system: Ann is dealt 3♥6♣Q♠Q♦9♦ and stands pat twice; Bob draws one card
    to his aces and kings in the first draw, stands pat in the second, and loses to five queens."""
    table, _ = home_game("pregnant-threes", floor_user, dealer_user, players=[(1, "Ann"), (2, "Bob")],
                         rules={"draws": 2, "cards_per_draw": 3, "draw": "optional"})
    # The button starts at seat 1: Bob is dealt first and draws first; his one replacement is the 7♣.
    decks(stacked_deck([2, 1], {1: "3h 6c Qs Qd 9d", 2: "As Ah Kc Ks 2d"}, "7c"))
    page = home_tablet(table)
    expect(page.locator("#announce")).to_contain_text("Two draws of up to 3 cards (optional)")
    tap(page, page.locator("#start-hand"))
    assert turn(page) == "Seat 2 · Bob to act"
    act(page, "Check")
    act(page, "Check")
    expect(page.locator("#turn-title")).to_have_text("Seat 2 · Bob: the draw (1 of 2)")
    shots(page, "first-draw-tap-the-discards")
    # Optional, up to three: a fourth discard cannot be sent, and the hint under the button says so as an error.
    expect_draw_refused(page, "As Ah Kc Ks", button="At most 3 cards may be discarded",
                        hint="4 picked, at most 3: tap 1 card again to keep it")
    shots(page, "four-discards-disabled")
    discard(page, "As Ah Kc Ks")  # all kept again: standing pat is allowed
    expect(page.locator("#draw-submit")).to_be_enabled()
    expect(page.locator("#draw-submit")).to_have_text("Stand pat")
    draw(page, "2d")
    draw(page)  # Ann stands pat
    act(page, "Check")
    act(page, "Check")
    expect(page.locator("#turn-title")).to_have_text("Seat 2 · Bob: the draw (2 of 2)")
    expect(page.locator('form.draw-form label.card[data-card="7c"]')).to_be_visible()  # Bob's replacement
    draw(page)
    draw(page)
    act(page, "Check")
    act(page, "Check")

    expect(page.locator("#headline")).to_have_text("Five queens beat two pair, aces and kings")
    expect(page.locator("#result-lines")).to_contain_text("Pot $2.00 to Ann")
    expect(page.locator("#seat-1 .stack")).to_have_text("Stack $201.00")
    shots(page, "result")
