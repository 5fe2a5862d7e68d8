"""The floor's rulings on the home-game tablet (DESIGN 7: "the floor's ruling is final"): in a Three Legged Race game
the floor supervisor corrects a recorded action (a refused correction first, shown next to the form, nothing
changed), awards the pot by ruling, and closes the game awarding the carried pot to a seat; the dealer's tablet
never shows the floor's panel.

Issue: "A floor supervisor can void a hand (every chip back to where it was before the hand), correct a recorded card
or action before the pot is awarded, or award a pot by ruling, each with a reason; the original record is kept."
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from tables.models import HomeGame, HomeGamePlayer, HomeHand
from tests.tablet import home_support
from tests.tablet.conftest import POLL_TIMEOUT_MS
from tests.tablet.home_support import act, fold, home_game, tap, turn, version

home_tablet, shots = home_support.home_tablet, home_support.shots
pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_floor_corrects_an_action_awards_a_pot_by_ruling_and_closes_a_race_awarding_the_carried_pot(
    home_tablet: Any, shots: Any, floor_user: User, dealer_user: User
) -> None:
    table, game = home_game("three-legged-race", floor_user, dealer_user, players=[(1, "Ann"), (2, "Bob")],
                            rules={"legs_to_win": 2})
    page = home_tablet(table, "fiona")  # the floor runs the table herself
    dealer = home_tablet(table)  # Dave follows on his own tablet
    tap(page, page.locator("#start-hand"))
    act(page, "Bet $2.00")  # Bob, left of the button
    act(page, "Call $2.00")  # Ann
    assert turn(page) == "Seat 2 · Bob: the draw"
    expect(dealer.locator("#phase")).to_have_text("The draw", timeout=POLL_TIMEOUT_MS)
    expect(dealer.locator("details.floor")).to_have_count(0)  # the rulings are the floor's

    # The dealer says Bob checked and Ann never called. First the floor tries the check: Ann's call no longer applies.
    page.locator("#correct-hand summary").tap()
    expect(page.locator("#correct-hand .recorded-actions label")).to_have_text(
        ["1. Seat 2 · Bob bets $2.00 2 bet 200", "2. Seat 1 · Ann calls 1 call"])
    expect(page.locator("#correct-forms")).to_contain_text("2 raise 400")
    shots(page, "correct-an-action")
    page.locator('label[data-action-index="0"]').tap()
    expect(page.locator("#correct-replacement")).to_have_value("2 bet 200")  # the chosen action, to change
    page.locator("#correct-replacement").fill("2 check")
    page.locator("#correct-reason").fill("the dealer misheard Bob")
    before = version(page)
    tap(page, page.get_by_role("button", name="Correct hand 1"))
    expect(page.locator("#correct-error")).to_contain_text("Action 2 ('1 call') no longer applies: ")
    assert version(page) == before
    assert HomeHand.objects.get().record["actions"] == ["2 bet 200", "1 call"]
    expect(page.locator("#correct-replacement")).to_have_value("2 check")  # kept to correct
    shots(page, "correction-refused")

    # Ann never called: the call is removed (a blank replacement), her $2.00 goes back and she is to act again.
    page.locator('label[data-action-index="1"]').tap()
    expect(page.locator("#correct-replacement")).to_have_value("2 check")  # what the floor typed is never replaced
    page.locator("#correct-replacement").fill("")
    page.locator("#correct-reason").fill("Ann never called")
    tap(page, page.get_by_role("button", name="Correct hand 1"))
    expect(page.locator("#turn-title")).to_have_text("Seat 1 · Ann to act: $2.00 to call")
    expect(page.locator("#seat-1 .stack")).to_have_text("Stack $199.00")
    row = HomeHand.objects.get()
    assert row.record["actions"] == ["2 bet 200"]
    assert row.original_record is not None
    assert row.original_record["actions"] == ["2 bet 200", "1 call"]
    # Both tablets say what the floor changed, who did and why (probe8 item 7: the stacks changed without a word).
    correction = ("Hand 1 corrected by the floor (fiona): action 2, \u201cSeat 1 \u00b7 Ann calls\u201d, was removed; "
                  "the hand was played again from its start. Reason: Ann never called.")
    expect(page.locator("#rulings")).to_have_text(correction)
    expect(dealer.locator("#rulings")).to_have_text(correction, timeout=POLL_TIMEOUT_MS)
    shots(dealer, "the-dealer-sees-the-correction")

    # Ann's cards were exposed by the dealer: the floor awards the pot to Bob by ruling. No leg is scored.
    page.locator("#award-pot summary").tap()
    expect(page.locator("#award-pot legend")).to_have_text("The pot of $4.00 goes to")
    before = version(page)
    tap(page, page.get_by_role("button", name="Award the pot $4.00 and end hand 1"))
    expect(page.locator("#award-error")).to_have_text("Choose the seat or seats the pot goes to")
    assert version(page) == before
    page.locator('label[data-award-seat="2"]').tap()
    page.locator("#award-reason").fill("Ann's cards exposed by the dealer")
    shots(page, "award-the-pot-by-ruling")
    tap(page, page.get_by_role("button", name="Award the pot $4.00 and end hand 1"))
    expect(page.locator("#phase")).to_have_text("Hand over")
    expect(page.locator("#seat-2 .stack")).to_have_text("Stack $201.00")
    expect(page.locator("#seat-1 .stack")).to_have_text("Stack $199.00")
    expect(page.locator("#seat-2 .legs")).to_have_text("Legs 0 of 2")
    assert HomeHand.objects.get().record["actions"][-1] == "floor award 2 400 -- Ann's cards exposed by the dealer"
    awarded = ("Hand 1: the pot was awarded by ruling of the floor (fiona): $4.00 to Seat 2 \u00b7 Bob. "
               "Reason: Ann's cards exposed by the dealer.")
    expect(page.locator("#rulings li")).to_have_text([correction, awarded])
    expect(dealer.locator("#rulings li")).to_have_text([correction, awarded], timeout=POLL_TIMEOUT_MS)
    shots(page, "pot-awarded-by-ruling")

    # Hand 2: Ann folds, Bob alone scores a leg and the $2.00 stays in the middle.
    tap(page, page.locator("#start-hand"))
    fold(page)
    expect(page.locator("#pot")).to_have_text("Carried pot $2.00")
    expect(page.locator("#seat-2 .legs")).to_have_text("Legs 1 of 2")

    # The session ends: the floor closes the game and, by ruling, the carried pot goes to Bob.
    page.locator("#close-game summary").tap()
    expect(page.locator("#close-game legend")).to_have_text("The carried pot of $2.00")
    page.locator('label[data-close-award="2"]').tap()
    shots(page, "close-awarding-the-carried-pot")
    tap(page, page.get_by_role("button", name="Close game 1 and cash everyone out"))
    expect(page.locator("#close-game-error")).to_have_text("Give a reason")
    page.locator("#close-reason").fill("Bob holds the only leg; the game stops for the night")
    tap(page, page.get_by_role("button", name="Close game 1 and cash everyone out"))
    expect(page.locator("#game-end")).to_contain_text("closed by the floor (Bob holds the only leg")
    # Where the carried pot went, with the reason given once (it is the close's reason, said just before).
    expect(page.locator("#carried-close")).to_have_text("The carried pot of $2.00 went to Bob by the floor's ruling.")
    expect(page.locator("#seat-2 .stack")).to_have_text("Cashed out $202.00")
    expect(page.locator("#seat-1 .stack")).to_have_text("Cashed out $198.00")
    assert HomeGame.objects.get(pk=game.pk).status == HomeGame.Status.CLOSED
    assert dict(HomeGamePlayer.objects.filter(game=game).values_list("seat", "cashed_out_cents")) == {
        1: 19_800, 2: 20_200}
    expect(dealer.locator("#game-end")).to_be_visible(timeout=POLL_TIMEOUT_MS)
    shots(page, "game-closed-carried-pot-awarded")
