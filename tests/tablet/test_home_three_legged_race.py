"""Three Legged Race on the dealer tablet: a whole game, race to two legs, on an rng table.

Rule sheet: "every player must discard and replace exactly three cards"; "The pot is not paid out at the end of a
hand unless a player has reached the required number of legs. Otherwise it stays in the middle, and all players ante
again for the next hand"; "When a player wins their final required leg, they take the whole pot and the game ends."
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from tests.tablet import home_support
from tests.tablet.home_support import act, draw, expect_draw_refused, fold, home_game, show, stacked_deck, tap, turn

decks, home_tablet, shots = home_support.decks, home_support.home_tablet, home_support.shots
pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_race_to_two_legs_carries_the_pot_until_ann_wins_the_game(
    home_tablet: Any, shots: Any, decks: Any, floor_user: User, dealer_user: User
) -> None:
    table, _ = home_game("three-legged-race", floor_user, dealer_user, players=[(1, "Ann"), (2, "Bob")],
                         rules={"legs_to_win": 2})
    decks(
        # Hand 1, button seat 1: Bob is dealt and draws first. Ann makes aces full, Bob ten high.
        stacked_deck([2, 1], {1: "As Ah Ks 2c 3d", 2: "4c 5c 7h 8h Td"}, "9s 2s 3s", "Ac Kh Kd"),
        # Hand 2, button seat 2: Ann first. Ann makes four queens, Bob a pair of jacks.
        stacked_deck([1, 2], {1: "Qs Qd 4d 5d 6s", 2: "2h 3h 7c 8c 9d"}, "Qc Qh Jc", "Jd Js Th"),
    )
    page = home_tablet(table)
    expect(page.locator("#announce")).to_contain_text("Race to 2 legs")
    expect(page.locator("#announce")).to_contain_text("exactly 3 cards, no standing pat")
    shots(page, "rules-announced")
    tap(page, page.locator("#start-hand"))
    expect(page.locator("#legs-called")).to_have_text("Race to 2 legs")
    expect(page.locator("#seat-1 .legs")).to_have_text("Legs 0 of 2")
    act(page, "Check")
    act(page, "Check")

    assert turn(page) == "Seat 2 · Bob: the draw"
    expect(page.locator("#draw-rule")).to_have_text("Discard exactly 3 cards.")
    shots(page, "the-draw-exactly-three")
    # Exactly three: two cannot be sent, and the button and the hint under it say what is missing.
    expect_draw_refused(page, "4c 5c", button="Tap 1 more card to discard", hint="2 of 3 picked: tap 1 more card")
    shots(page, "two-discards-disabled")
    draw(page, "7h")  # 4c and 5c are still tapped: three discards
    draw(page, "Ks 2c 3d")
    act(page, "Check")
    act(page, "Check")

    expect(page.locator("#headline")).to_have_text("Aces full of kings beat ten high")
    expect(page.locator("#result-lines")).to_contain_text("Ann scores a leg: 1 of 2")
    expect(page.locator("#seat-1 .legs")).to_have_text("Legs 1 of 2")
    expect(page.locator("#pot")).to_have_text("Carried pot $2.00")  # the pot stays in the middle
    expect(page.locator("#seat-1 .stack")).to_have_text("Stack $199.00")
    shots(page, "first-leg-pot-carried")

    tap(page, page.locator("#start-hand"))
    expect(page.locator("#seat-2")).to_contain_text("The button")
    expect(page.locator("#pot")).to_have_text("Pot $4.00")
    expect(page.locator("#legs-called")).to_contain_text("$2.00 carried from earlier hands")
    shots(page, "second-hand-antes-again")
    act(page, "Check")
    act(page, "Check")
    draw(page, "4d 5d 6s")
    draw(page, "2h 3h 7c")
    act(page, "Check")
    act(page, "Check")

    expect(page.locator("#headline")).to_have_text("Four queens beat a pair of jacks")
    expect(page.locator("#result-lines")).to_contain_text("Ann wins the game and the pot")
    expect(page.locator("#game-winner")).to_have_text("Seat 1 · Ann wins the game: 2 legs.")
    # The game is over: the whole pot went to Ann ($2 carried + $2 antes), everyone is cashed out.
    expect(page.locator("#seat-1 .stack")).to_have_text("Cashed out $202.00")
    expect(page.locator("#seat-2 .stack")).to_have_text("Cashed out $198.00")
    expect(page.get_by_role("button", name="Open a new game")).to_be_visible()
    shots(page, "game-won")


def test_a_manual_hand_draws_three_each_and_three_jacks_score_a_leg_while_the_pot_stays(
    home_tablet: Any, shots: Any, floor_user: User, dealer_user: User
) -> None:
    """The rule sheet's "Winning a leg": "Player A holds Q♠Q♦8♣8♥3♠ (two pair, queens and eights). Player B holds
    J♣J♥J♠6♦2♣ (three jacks). Three of a kind beats two pair, so Player B scores a leg. In a game called at three legs,
    B needs two more wins to take the pot. The pot stays where it is, and everyone antes again." On a manual table the
    dealer records that each player drew three, and the hands shown."""
    table, _ = home_game("three-legged-race", floor_user, dealer_user, source="manual",
                         players=[(1, "Ann"), (2, "Bob")], rules={"legs_to_win": 3})
    page = home_tablet(table)
    expect(page.locator("#announce")).to_contain_text("Race to 3 legs")
    tap(page, page.locator("#start-hand"))
    act(page, "The deal is done")
    act(page, "Check")
    act(page, "Check")
    assert turn(page) == "Seat 2 · Bob: the draw"
    expect(page.locator("#draw-rule")).to_have_text("Discard exactly 3 cards.")
    expect(page.locator("form.counts button")).to_have_text(["Draws 3"])  # no standing pat, no other count
    shots(page, "manual-draw-exactly-three")
    act(page, "Draws 3")
    act(page, "Draws 3")
    act(page, "Check")
    act(page, "Check")

    show(page, 1, "Qs Qd 8c 8h 3s")
    show(page, 2, "Jc Jh Js 6d 2c")
    expect(page.locator("#headline")).to_have_text("Three jacks beat two pair, queens and eights")
    expect(page.locator("#result-lines")).to_contain_text("Bob scores a leg: 1 of 3")
    expect(page.locator("#seat-2 .legs")).to_have_text("Legs 1 of 3")
    expect(page.locator("#pot")).to_have_text("Carried pot $2.00")
    shots(page, "a-leg-and-the-pot-carried")
    tap(page, page.locator("#start-hand"))
    expect(page.locator("#pot")).to_have_text("Pot $4.00")  # everyone antes again

    # Hand 2: Ann bets and Bob folds. Announced: "A player left alone after the others fold scores a leg"; the
    # headline says so too (it read "No live hand: the pot stays in the middle" above "Ann scores a leg").
    act(page, "The deal is done")
    act(page, "Bet $2.00")
    fold(page)
    expect(page.locator("#headline")).to_have_text("Ann is left alone and scores a leg: the pot stays in the middle")
    expect(page.locator("#result-lines")).to_contain_text("Ann scores a leg: 1 of 3")
    expect(page.locator("#pot")).to_have_text("Carried pot $4.00")
    shots(page, "left-alone-scores-a-leg")

    # The floor closes the game before anyone has the legs: the carried $4 goes back to whoever put it in ($2 each
    # in antes), and the game-over notice says so (the last hand's result still says the pot stayed in the middle).
    floor = home_tablet(table, "fiona")
    floor.locator("#close-game summary").tap()
    floor.get_by_label("Reason").fill("end of the session")
    tap(floor, floor.get_by_role("button", name="Close game 1 and cash everyone out"))
    expect(floor.locator("#game-end")).to_contain_text("closed by the floor (end of the session)")
    expect(floor.locator("#carried-close")).to_have_text(
        "The carried pot of $4.00 went back to the players who put it in: $2.00 to Ann, $2.00 to Bob.")
    expect(floor.locator("#seat-1 .stack")).to_have_text("Cashed out $200.00")
    shots(floor, "closed-carried-pot-returned")
