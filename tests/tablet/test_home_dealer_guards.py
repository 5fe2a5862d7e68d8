"""The home-game tablet guards a dealer at speed (in Chromium, at 1280x800 and 800x1280): the showdown picker's Record
button waits for five cards and any refusal shows beside it, in view; a fold takes a second step whose Yes is not
where Fold was; a Muck in flight shows its own spinner."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from tables.models import HomeHand
from tables.services.home_hands import hand_act, hand_start
from tests.tablet import home_support
from tests.tablet.conftest import SIZES
from tests.tablet.disabled_look import assert_disabled_readable
from tests.tablet.home_support import act, home_game, manual_showdown, tap, version

decks, home_tablet, shots = home_support.decks, home_support.home_tablet, home_support.shots
pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_record_button_waits_for_five_cards_and_a_refusal_shows_beside_it_in_view(
    home_tablet: Any, shots: Any, floor_user: User, dealer_user: User
) -> None:
    table, _, hand = manual_showdown("pregnant-threes", floor_user, dealer_user, draws=1, cards_per_draw=3,
                                     draw="optional")
    page = home_tablet(table)
    record = page.locator('form.show-form[data-seat="1"] button.show-submit')
    count = page.locator("#show-count-1")
    expect(record).to_be_disabled()
    expect(record).to_have_text("Tap 5 more cards for Seat 1 · Ann")
    expect(count).to_have_text("0 of 5 picked")
    expect(count).to_have_attribute("aria-live", "polite")
    for code in ("Ks", "Kh"):
        page.locator(f'button.hpick[data-card="{code}"]').tap()
    expect(record).to_have_text("Tap 3 more cards for Seat 1 · Ann")
    expect(count).to_have_text("2 of 5 picked")
    assert_disabled_readable(page, record)  # its words say what is missing: they must be readable
    shots(page, "two-of-five-picked")

    # A page without scripts sends the two cards anyway (here: the button enabled by hand): the server refuses,
    # and says so beside the button, in view at both sizes, nothing recorded.
    before = version(page)
    record.evaluate("button => { button.disabled = false; }")
    tap(page, record)
    error = page.locator("#show-1-error")
    expect(error).to_have_text("Tap the five cards seat 1 shows (2 chosen)")
    assert version(page) == before
    for size in SIZES.values():
        page.set_viewport_size(size)
        record.scroll_into_view_if_needed()
        expect(error).to_be_in_viewport()
    page.set_viewport_size(SIZES["landscape"])
    shots(page, "fewer-than-five-refused-beside-the-button")
    assert HomeHand.objects.get(pk=hand.pk).record["actions"][-1] == "2 check"

    # The two cards were kept: three more and the button records the hand.
    for code in ("Qs", "Qd", "9d"):
        page.locator(f'button.hpick[data-card="{code}"]').tap()
    expect(record).to_be_enabled()
    expect(record).to_have_text("Record Seat 1 · Ann's hand")
    expect(count).to_have_text("5 of 5 picked")
    tap(page, record)
    assert HomeHand.objects.get(pk=hand.pk).record["actions"][-1] == "1 show Ks Kh Qs Qd 9d"


def _center(page: Page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_a_fold_takes_a_second_step_whose_yes_is_not_under_the_fold(
    home_tablet: Any, shots: Any, floor_user: User, dealer_user: User
) -> None:
    table, game = home_game("five-card-draw", floor_user, dealer_user, players=[(1, "Ann"), (2, "Bob"), (3, "Cat")])
    hand = hand_start(game=game.pk, actor=dealer_user, button=2)
    page = home_tablet(table)
    expect(page.locator("#turn-title")).to_have_text("Seat 3 · Cat to act")
    fold = '#turn-panel button[value="fold"]:not(#fold-yes)'
    for name, size in SIZES.items():
        page.set_viewport_size(size)
        page.locator(fold).scroll_into_view_if_needed()
        x, y = _center(page, fold)
        before = version(page)
        act(page, "Fold")
        expect(page.locator("#confirm-fold")).to_contain_text("Fold Seat 3 · Cat? A fold cannot be undone")
        assert version(page) == before  # nothing recorded by the first tap
        # A second tap at the same spot (a double tap) does not reach Yes: it lands on Cancel or on the question.
        under = page.evaluate("([x, y]) => { const e = document.elementFromPoint(x, y); "
                              "return e ? (e.closest('a, button') || e).id || e.tagName : ''; }", [x, y])
        assert under != "fold-yes", f"{name}: Yes lies under the Fold tapped at {x},{y}"
        expect(page.locator("#fold-yes")).to_have_text("Yes, fold Seat 3 · Cat")
        if name == "landscape":
            shots(page, "fold-asks-first")
        page.locator("#fold-cancel").tap()
        expect(page.locator("#confirm-fold")).to_have_count(0)
        expect(page.locator(fold)).to_be_visible()  # the turn as it was
        assert HomeHand.objects.get(pk=hand.pk).record["actions"] == []
    page.set_viewport_size(SIZES["landscape"])
    act(page, "Fold")
    tap(page, page.locator("#fold-yes"))
    expect(page.locator("#seat-3 .seat-status")).to_have_text("Folded")
    assert HomeHand.objects.get(pk=hand.pk).record["actions"] == ["3 fold"]


def test_a_muck_in_flight_shows_on_the_muck_not_on_record(
    home_tablet: Any, shots: Any, floor_user: User, dealer_user: User
) -> None:
    """Muck has its own hx-post beside its form's Record button: the spinner and the "still trying" banner went to
    Record (the form's first submit button), so the Muck tapped on a slow network only turned grey."""
    table, _, _ = manual_showdown("five-card-draw", floor_user, dealer_user)
    page = home_tablet(table)
    held: list[Any] = []
    page.route(re.compile(r"/do/muck/$"), lambda route: held.append(route))
    muck = page.get_by_role("button", name="Seat 1 · Ann mucks (concedes, hand not shown)")
    record = page.locator('form.show-form[data-seat="1"] button.show-submit')
    muck.tap()
    expect(muck).to_have_class(re.compile(r"\bbusy\b"))
    expect(record).not_to_have_class(re.compile(r"\bbusy\b"))
    expect(page.locator("#connection")).to_contain_text("“Seat 1 · Ann mucks (concedes, hand not shown)” not answered",
                                                        timeout=4000)
    held[0].continue_()  # before the tablet's 10 s timeout
    page.unroute(re.compile(r"/do/muck/$"))
    expect(page.locator("#confirm-muck-title")).to_contain_text("Seat 1 · Ann mucks? A muck cannot be undone")
    expect(page.locator("#connection")).to_be_hidden()
    expect(muck).to_have_count(0)  # Cancel and Yes stand in its place
    shots(page, "muck-answered")


def _overlap(page: Page, box: dict[str, float], selector: str) -> float:
    """How many px² of the element `selector` lie inside `box` (where the tapped button was)."""
    other = page.locator(selector).bounding_box()
    assert other is not None, selector
    wide = min(box["x"] + box["width"], other["x"] + other["width"]) - max(box["x"], other["x"])
    high = min(box["y"] + box["height"], other["y"] + other["height"]) - max(box["y"], other["y"])
    return max(wide, 0) * max(high, 0)


def test_no_part_of_the_muck_button_lies_over_its_yes(
    home_tablet: Any, floor_user: User, dealer_user: User
) -> None:
    # Seen by a user test at 800x1280: Yes began 6 px above the bottom edge of the Muck just tapped, so a second tap
    # low on Muck recorded the muck. Nothing of the Muck's place may be Yes, at either size.
    table, _, hand = manual_showdown("five-card-draw", floor_user, dealer_user)
    page = home_tablet(table)
    muck = page.get_by_role("button", name="Seat 1 · Ann mucks (concedes, hand not shown)")
    for name, size in SIZES.items():
        page.set_viewport_size(size)
        muck.scroll_into_view_if_needed()
        box = muck.bounding_box()
        assert box is not None
        tap(page, muck)
        expect(page.locator("#muck-yes")).to_be_visible()
        assert _overlap(page, box, "#muck-yes") == 0, f"{name}: Yes lies over part of the Muck tapped at {box}"
        tap(page, page.locator("#muck-cancel"))
        expect(muck).to_be_visible()
    assert HomeHand.objects.get(pk=hand.pk).record["actions"][-1] != "1 muck"


def test_a_cancel_in_flight_shows_on_the_cancel_not_on_its_yes(
    home_tablet: Any, floor_user: User, dealer_user: User
) -> None:
    # Seen by a user test: Cancel is a link inside Yes's form, and the spinner went to Yes while Cancel's answer came.
    table, _, _ = manual_showdown("five-card-draw", floor_user, dealer_user)
    page = home_tablet(table)
    tap(page, page.get_by_role("button", name="Seat 1 · Ann mucks (concedes, hand not shown)"))
    held: list[Any] = []
    page.route(re.compile(r"/home/state/$"), lambda route: held.append(route))  # Cancel's (a poll's has ?v=)
    page.locator("#muck-cancel").tap()
    expect(page.locator("#muck-cancel")).to_have_class(re.compile(r"\bbusy\b"))
    expect(page.locator("#muck-yes")).not_to_have_class(re.compile(r"\bbusy\b"))
    held[0].continue_()
    expect(page.locator("#confirm-muck")).to_have_count(0)


def test_a_double_tap_acts_once_though_the_next_turn_puts_its_button_under_the_finger(
    home_tablet: Any, floor_user: User, dealer_user: User
) -> None:
    # Found by a user test: with a quick server the next player's turn came back before the double tap's second
    # touch, its Check where the first Check was, and the second touch checked for that player too.
    table, game = home_game("five-card-draw", floor_user, dealer_user, players=[(1, "Ann"), (2, "Bob"), (3, "Cat")])
    hand = hand_start(game=game.pk, actor=dealer_user, button=2)
    page = home_tablet(table)
    expect(page.locator("#turn-title")).to_have_text("Seat 3 · Cat to act")
    check = page.locator('#turn-panel button[value="check"]')
    check.scroll_into_view_if_needed()
    x, y = _center(page, '#turn-panel button[value="check"]')
    before = version(page)
    page.touchscreen.tap(x, y)
    page.wait_for_function("(before) => document.querySelector('#home-hand').dataset.version !== before", arg=before)
    # The next turn's Check lies where the finger was: the case the guard is for.
    assert page.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('button').value", [x, y]) == "check"
    page.touchscreen.tap(x, y)  # the double tap's second touch
    page.wait_for_timeout(600)
    assert HomeHand.objects.get(pk=hand.pk).record["actions"] == ["3 check"]
    expect(page.locator("#turn-title")).to_have_text("Seat 1 · Ann to act")
    check.tap()  # a deliberate tap a moment later acts
    expect(page.locator("#turn-title")).to_have_text("Seat 2 · Bob to act")
    assert HomeHand.objects.get(pk=hand.pk).record["actions"] == ["3 check", "1 check"]


def test_a_refused_hand_stays_the_chosen_one_so_the_fix_goes_to_that_seat(
    home_tablet: Any, shots: Any, floor_user: User, dealer_user: User
) -> None:
    # Found by a user test: seat 2 drew four keeping an ace, the dealer picked five cards without one for seat 2 and
    # tapped Record; after the refusal "Cards for Seat 1 · Ann" was chosen again and the ace tapped went to Ann.
    table, game = home_game("freak-of-nature", floor_user, dealer_user, source="manual",
                            players=[(1, "Ann"), (2, "Bob")])
    hand = hand_start(game=game.pk, actor=dealer_user, button=2)
    for request in ({"seat": None, "action": "dealt"}, {"seat": 1, "action": "check"}, {"seat": 2, "action": "check"},
                    {"seat": 1, "action": "draw", "count": 0},
                    {"seat": 2, "action": "draw", "count": 4, "keeps_ace": True},
                    {"seat": 1, "action": "check"}, {"seat": 2, "action": "check"}):
        hand_act(hand=hand.pk, actor=dealer_user, **request)
    page = home_tablet(table)
    target = page.locator('button.show-target[data-target="2"]')
    target.tap()
    for code in ("Ks", "Kd", "Qc", "4h", "7d"):
        page.locator(f'button.hpick[data-card="{code}"]').tap()
    tap(page, page.locator('form.show-form[data-seat="2"] button.show-submit'))
    expect(page.locator("#show-2-error")).to_contain_text("Seat 2 drew above the limit keeping an ace but shows no ace")
    # Seat 2, whose hand was refused, is still the one chosen, its five cards kept.
    expect(target).to_have_attribute("aria-pressed", "true")
    expect(page.locator('form.show-form[data-seat="2"]')).to_have_class(re.compile(r"\bchosen\b"))
    expect(page.locator("#show-cards-2")).to_have_value("Ks Kd Qc 4h 7d")
    king = page.locator('button.hpick[data-card="Ks"]')
    expect(king).to_have_attribute("aria-pressed", "true")
    expect(king).to_have_attribute("aria-label", "King of spades, in Seat 2 · Bob's hand")
    shots(page, "refused-hand-still-chosen")
    # The ace tapped at once does not go into Ann's hand (Bob's is full: a card must come out first).
    page.locator('button.hpick[data-card="As"]').tap()
    expect(page.locator("#show-cards-1")).to_have_value("")
    # Whose card is whose: with Ann's hand chosen, Bob's picks are marked as his (his seat's number on each), not hers.
    page.locator('button.show-target[data-target="1"]').tap()
    expect(king).to_have_attribute("aria-pressed", "false")
    expect(king).to_have_class(re.compile(r"\bother-hand\b"))
    assert king.evaluate("b => getComputedStyle(b, '::after').content") == '"2"'
    assert page.locator('button.hpick[data-card="2c"]').evaluate("b => getComputedStyle(b, '::after').content") \
        in ("none", "normal")
    shots(page, "picks-of-another-hand-marked")
    # The fix: back to Bob, the king out, the ace in, recorded for Bob.
    target.tap()
    king.tap()
    page.locator('button.hpick[data-card="As"]').tap()
    expect(page.locator("#show-cards-2")).to_have_value("Kd Qc 4h 7d As")
    expect(page.locator("#show-cards-1")).to_have_value("")
    tap(page, page.locator('form.show-form[data-seat="2"] button.show-submit'))
    assert HomeHand.objects.get(pk=hand.pk).record["actions"][-1] == "2 show Kd Qc 4h 7d As"


KILL_RULES = {"draws": 1, "cards_per_draw": 3, "draw": "optional", "kill_cards": ["Kd"]}


def test_a_kill_card_takes_a_second_step_whose_yes_is_not_under_the_tapped_button(
    home_tablet: Any, shots: Any, floor_user: User, dealer_user: User
) -> None:
    # Found by a user test: one tap on "Seat 4 · Dee was dealt K♦" made Dee dead at once, the four buttons 6 px apart.
    table, game = home_game("pregnant-threes", floor_user, dealer_user, source="manual",
                            players=[(1, "Ann"), (2, "Bob"), (3, "Cy"), (4, "Dee")], rules=KILL_RULES)
    hand = hand_start(game=game.pk, actor=dealer_user)
    page = home_tablet(table)
    page.locator("#kill-panel summary").tap()
    kills = page.locator("#kill-panel form button")
    expect(kills).to_have_count(4)
    dee = page.get_by_role("button", name="Seat 4 · Dee was dealt K♦")
    for name, size in SIZES.items():
        page.set_viewport_size(size)
        boxes = [kills.nth(i).bounding_box() or {} for i in range(4)]
        gaps = [b["y"] - (a["y"] + a["height"]) for a, b in itertools.pairwise(boxes)]
        assert min(gaps) >= 8, f"{name}: kill buttons {gaps} px apart"
        dee.scroll_into_view_if_needed()
        box = dee.bounding_box()
        assert box is not None
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        before = version(page)
        tap(page, dee)
        expect(page.locator("#confirm-kill-title")).to_contain_text("Seat 4 · Dee was dealt K♦? A kill card cannot be "
                                                                    "undone")
        assert version(page) == before  # nothing recorded by the first tap
        assert _overlap(page, box, "#kill-yes") == 0, f"{name}: Yes lies over part of the button tapped at {box}"
        under = page.evaluate("([x, y]) => { const e = document.elementFromPoint(x, y); "
                              "return e ? (e.closest('a, button') || e).id || e.tagName : ''; }", [x, y])
        assert under == "kill-cancel", f"{name}: {under} lies under the button tapped at {x},{y}, not Cancel"
        if name == "landscape":
            shots(page, "kill-asks-first")
        page.locator("#kill-cancel").tap()
        expect(page.locator("#confirm-kill")).to_have_count(0)
        expect(dee).to_be_visible()
        assert HomeHand.objects.get(pk=hand.pk).record["actions"] == []
    page.set_viewport_size(SIZES["landscape"])
    tap(page, dee)
    tap(page, page.locator("#kill-yes"))
    expect(page.locator("#seat-4 .seat-status")).to_have_text("Dead")
    assert HomeHand.objects.get(pk=hand.pk).record["actions"] == ["4 killed Kd"]
