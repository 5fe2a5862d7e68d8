"""Freak of Nature on the dealer tablet: a whole pot-limit hand by tapping, ending in the rule sheet's example, then
a hand of pot-limit raises whose buttons all read in one unit (what the player puts in; "to" their round total).

Rule sheet, article 3 example: "A holds 5♥5♦9♣9♠K♥. B holds Q♠Q♦Q♣4♥7♦. Neither player holds a six, so fives
become wild. A's two fives join the pair of nines to make four nines with a king. B has no five and plays three
queens. A wins."
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from tests.tablet import home_support
from tests.tablet.home_support import act, draw, home_game, manual_showdown, show, stacked_deck, tap, turn, version

decks, home_tablet, shots = home_support.decks, home_support.home_tablet, home_support.shots

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_pot_limit_hand_of_freak_of_nature_ends_fives_wild_four_nines_beat_three_queens_then_raises_to_all_in(
    home_tablet: Any, shots: Any, decks: Any, floor_user: User, dealer_user: User
) -> None:
    table, _ = home_game("freak-of-nature", floor_user, dealer_user, players=[(1, "Ann"), (2, "Bob")],
                            rules={"betting": "pot_limit", "min_bet_cents": 200},
                            charge="rake", rake_basis_points=500, rake_cap_cents=300)
    # The button starts at seat 1, so the deal goes Bob, Ann, Bob, Ann, ...
    decks(stacked_deck([2, 1], {1: "5h 5d 9c 9s Kh", 2: "Qs Qd Qc 4h 7d"}))
    page = home_tablet(table)

    expect(page.locator("#announce")).to_contain_text("6s are wild")
    shots(page, "rules-announced")
    page.get_by_role("link", name="Rules", exact=True).tap()
    expect(page.locator("#rules-dialog")).to_be_visible()
    expect(page.locator("#rules-dialog")).to_contain_text("Rake: 5% of each pot won, at most $3.00 a pot")
    expect(page.locator("#rules-dialog")).to_contain_text("Pot limit, minimum bet $2")
    shots(page, "rules-dialog")
    page.locator("#rules-dialog").get_by_role("button", name="Close").tap()

    tap(page, page.locator("#start-hand"))
    expect(page.locator("#pot")).to_have_text("Pot $2.00")
    expect(page.locator("#seat-1")).to_contain_text("The button")
    assert turn(page) == "Seat 2 · Bob to act"
    # Only the legal actions: nothing to call, so no Call button; the bet pre-filled at the minimum (= the pot).
    expect(page.locator("#turn-panel").get_by_role("button", name="Call", exact=False)).to_have_count(0)
    shots(page, "first-betting-round")
    act(page, re.compile(r"^Bet \$2\.00"))
    assert turn(page) == "Seat 1 · Ann to act: $2.00 to call"
    act(page, "Call $2.00")

    expect(page.locator("#draw-rule")).to_contain_text("Stand pat or discard up to 3 cards")
    shots(page, "the-draw")
    draw(page)  # Bob stands pat
    draw(page)  # Ann stands pat

    assert turn(page) == "Seat 2 · Bob to act"
    expect(page.locator("#amount")).to_have_value("2")
    shots(page, "second-betting-round")
    # Above the pot limit: the refusal sits under the amount, in dollars, and nothing changes.
    before = version(page)
    page.locator("#amount").fill("50")
    tap(page, page.get_by_role("button", name="Bet this amount"))
    expect(page.locator("#turn-error")).to_have_text(
        "A bet of $50.00 is not allowed: a bet now is from $2.00 to $6.00")
    assert version(page) == before
    expect(page.locator("#seat-2 .stack")).to_have_text("Stack $197.00")
    shots(page, "bet-above-the-pot-refused")
    act(page, re.compile(r"^Bet \$6\.00"))
    act(page, "Call $6.00")

    expect(page.locator("#headline")).to_have_text("Fives wild: four nines beat three queens")
    expect(page.locator("#result-lines")).to_contain_text("Pot $18.00 to Ann")
    # The house's 5% of the $18.00 pot as it is awarded (capped at $3.00): 90 cents from Ann's $18.00.
    expect(page.locator("#rake")).to_have_text("Rake $0.90 to the house, from the winner")
    expect(page.locator("#seat-1 .stack")).to_have_text("Stack $208.10")
    expect(page.locator("#seat-2 .stack")).to_have_text("Stack $191.00")
    # The two fives that made Ann's four nines are marked wild; Bob's four slid nothing (fives were the lowest held).
    expect(wild_cards(page, 1)).to_have_text(["5♥ wild", "5♦ wild"])
    expect(wild_cards(page, 2)).to_have_count(0)
    shots(page, "result")

    # Hand 2, the button at Bob: Ann ($208.10) and Bob ($191.00) raise the pot until Ann's stack is short of it.
    decks(stacked_deck([1, 2], {1: "As Ad Ah Ac Kd", 2: "2c 3d 7h 8s Jd"}))
    tap(page, page.locator("#start-hand"))
    panel = page.locator("#turn-panel").get_by_role("button")
    expect(panel).to_have_text(["Fold", "Check", "Bet $2.00"])  # the minimum is the pot: one amount
    act(page, "Bet $2.00")
    expect(page.locator(".side-pots")).to_have_count(0)  # a bet not yet answered is no side pot
    expect(page.locator("#pot")).to_have_text("Pot $4.00")
    expect(panel).to_have_text(["Fold", "Call $2.00", "Raise to $4.00 (minimum)",
                                "Raise to $8.00 (pot, the most allowed)", "Raise to this total"])
    act(page, "Raise to $8.00 (pot, the most allowed)")
    # Ann has $2.00 in: every button says what she puts in now and, after "to", her total for the round.
    expect(page.locator("#amount-rule")).to_have_text(
        "Amounts are what the player puts in now; “to” is their total in this betting round"
        " (Ann has $2.00 in it already).")
    expect(panel).to_have_text(["Fold", "Call $6.00 (to $8.00)", "Raise to $14.00 (minimum; puts in $12.00)",
                                "Raise to $26.00 (pot, the most allowed; puts in $24.00)", "Raise to this total"])
    expect(page.locator('label[for="amount"]')).to_have_text(
        "Raise to another total for this round ($14.00 to $26.00; $2.00 in already)")
    shots(page, "raise-buttons-with-chips-in")
    act(page, "Raise to $26.00 (pot, the most allowed; puts in $24.00)")
    act(page, "Raise to $80.00 (pot, the most allowed; puts in $72.00)")  # Bob
    # The pot-size raise would be to $242.00 but Ann has $207.10 in all: going all in is the most, said once.
    expect(panel).to_have_text(["Fold", "Call $54.00 (to $80.00)", "All in $181.10 (to $207.10)",
                                "Raise to $134.00 (minimum; puts in $108.00)", "Raise to this total"])
    shots(page, "stack-short-of-the-pot")
    act(page, "All in $181.10 (to $207.10)")
    # Bob's call takes his last $110.00: one button, in the same units.
    expect(panel).to_have_text(["Fold", "Call $110.00, all in (to $190.00)"])
    expect(page.locator(".side-pots")).to_have_count(0)  # Ann's unmatched chips are no side pot either
    expect(page.locator("#pot")).to_have_text("Pot $289.10")
    shots(page, "call-all-in")
    act(page, "Call $110.00, all in (to $190.00)")
    expect(page.locator("#seat-2 .stack")).to_have_text("Stack $0.00")
    expect(page.locator("#seat-1 .stack")).to_have_text("Stack $17.10")  # Ann's uncalled $17.10 came back
    draw(page)
    draw(page)
    expect(page.locator("#result-lines")).to_contain_text("Pot $382.00 to Ann")
    expect(page.locator("#seat-1 .stack")).to_have_text("Stack $396.10")


def test_a_manual_hand_where_a_six_shown_keeps_sixes_wild_and_four_queens_beat_two_pair(
    home_tablet: Any, shots: Any, floor_user: User, dealer_user: User
) -> None:
    """Article 3's example the other way: "Had B held a six in place of the 7♦, sixes would have been wild instead. A
    would have had only two pair, and B would have had four queens." On a manual table the system sees the cards only
    when they are shown, and fixes the wild rank from the hands shown."""
    table, _ = home_game("freak-of-nature", floor_user, dealer_user, source="manual", players=[(1, "Ann"), (2, "Bob")])
    page = home_tablet(table)
    expect(page.locator("#announce")).to_contain_text("6s are wild")
    tap(page, page.locator("#start-hand"))
    expect(page.locator("#turn-title")).to_have_text("Deal five cards to each player")
    act(page, "The deal is done")
    assert turn(page) == "Seat 2 · Bob to act"
    act(page, "Check")
    act(page, "Check")
    expect(page.locator("#draw-rule")).to_contain_text("Stand pat or discard up to 3 cards")
    shots(page, "manual-draw-by-count")
    act(page, "Stand pat")
    act(page, "Stand pat")
    act(page, "Check")
    act(page, "Check")

    expect(page.locator("#turn-title")).to_have_text("Showdown: record the hands shown, or a hand mucked unshown")
    show(page, 1, "5h 5d 9c 9s Kh")
    show(page, 2, "Qs Qd Qc 4h 6d")
    expect(page.locator("#headline")).to_have_text("Sixes wild: four queens beat two pair, nines and fives")
    expect(page.locator("#result-lines")).to_contain_text("Pot $2.00 to Bob")
    expect(page.locator("#seat-2 .stack")).to_have_text("Stack $201.00")
    # Sixes wild: Bob's 6♦ is the wild card; Ann's fives are now plain fives.
    expect(wild_cards(page, 2)).to_have_text(["6♦ wild"])
    expect(wild_cards(page, 1)).to_have_count(0)
    shots(page, "result-sixes-wild")


def wild_cards(page: Any, seat: int) -> Any:
    """The cards of a seat's shown hand in the result that are marked as having played wild."""
    return page.locator(f'#result tr.shown-hand[data-seat="{seat}"] .wild')


def test_at_a_manual_showdown_cy_mucks_after_confirming_and_the_hands_shown_make_fives_wild(
    home_tablet: Any, shots: Any, floor_user: User, dealer_user: User
) -> None:
    # The rule sheet's example with a third player who concedes unshown: the wild rank is fixed by A's and B's hands.
    table, _, _ = manual_showdown("freak-of-nature", floor_user, dealer_user,
                                  players=((1, "Ann"), (2, "Bob"), (3, "Cy")))
    page = home_tablet(table)
    expect(page.locator("#turn-title")).to_have_text("Showdown: record the hands shown, or a hand mucked unshown")
    muck = page.get_by_role("button", name="Seat 3 · Cy mucks (concedes, hand not shown)")
    expect(muck).to_be_visible()
    shots(page, "showdown-with-muck")
    tap(page, muck)
    expect(page.locator("#confirm-muck-title")).to_contain_text("Seat 3 · Cy mucks? A muck cannot be undone")
    # The question stands out from what follows it (the whole paragraph was bold).
    question, rest = page.locator("#confirm-muck-title").evaluate(
        "p => [p.querySelector('strong'), p].map(e => Number(getComputedStyle(e).fontWeight))")
    assert question >= 700 > rest, (question, rest)
    shots(page, "muck-confirm")
    cancel = page.locator("#muck-cancel")
    cancel.tap()
    expect(page.locator("#confirm-muck")).to_have_count(0)
    tap(page, page.get_by_role("button", name="Seat 3 · Cy mucks (concedes, hand not shown)"))
    tap(page, page.locator("#muck-yes"))
    expect(page.locator('form.show-form[data-seat="3"]')).to_have_count(0)
    expect(page.locator("#seat-3 .seat-status")).to_have_text("Mucked")
    show(page, 2, "Qs Qd Qc 4h 7d")
    show(page, 1, "5h 5d 9c 9s Kh")
    expect(page.locator("#headline")).to_have_text("Fives wild: four nines beat three queens")
    expect(page.locator("#result-lines")).to_contain_text("Cy mucked: conceded without showing")
    shots(page, "result-after-muck")
