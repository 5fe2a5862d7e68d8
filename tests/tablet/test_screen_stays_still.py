"""The screen stays still under the dealer's finger as an answer lands: what changes above the part being worked on
does not move it (found by a user test at a portrait showdown, where the card picker moved as each hand recorded)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from tables.services.home_hands import hand_start
from tests.tablet import home_support
from tests.tablet.conftest import SIZES
from tests.tablet.home_support import home_game, manual_showdown

home_tablet = home_support.home_tablet

HANDS = {1: "As Ad Ac 2h 3h", 2: "Ks Kd Kc 2d 3d", 3: "Qs Qd Qc 2c 3c"}


def _picker_top(page: Page) -> float:
    return float(page.evaluate("document.getElementById('hpicker').getBoundingClientRect().top"))


def test_the_card_picker_stays_where_it_was_as_each_shown_hand_is_recorded(
        home_tablet: Any, floor_user: User, dealer_user: User) -> None:
    table, _, _ = manual_showdown("five-card-draw", floor_user, dealer_user,
                                  players=[(1, "Ann"), (2, "Bob"), (3, "Cat"), (4, "Dan")])
    page = home_tablet(table)
    page.set_viewport_size(SIZES["portrait"])
    for seat, cards in HANDS.items():
        page.locator(f'button.show-target[data-target="{seat}"]').tap()
        for code in cards.split():
            page.locator(f'button.hpick[data-card="{code}"]').tap()
        before = _picker_top(page)
        # Above the picker, the recorded hand appears and the shown seat's form goes: 101 px down for seat 1's hand,
        # 44 up for seat 2's, before the screen kept still.
        home_support.tap(page, page.locator(f'form.show-form[data-seat="{seat}"] button.show-submit'))
        page.wait_for_timeout(300)  # settled, with the scripts that run on a new section done
        after = _picker_top(page)
        assert abs(after - before) < 2, f"seat {seat}: the picker moved from {before} to {after}"
    page.wait_for_timeout(1500)  # a poll's answer moves nothing either
    assert abs(_picker_top(page) - before) < 2


def _top(page: Page, selector: str) -> float:
    """Where the element is on screen: under the dealer's finger or not."""
    return float(page.evaluate("(s) => document.querySelector(s).getBoundingClientRect().top", selector))


def test_the_turn_panel_stays_where_it_was_as_the_turn_goes_round(
        home_tablet: Any, floor_user: User, dealer_user: User) -> None:
    # Found by a user test at 1280x800: the seat to act gets a "To act" line, and when that seat's box was the tallest
    # (the button's) the seats' row grew and Fold moved 30 px down, then back up on the next turn.
    table, game = home_game("five-card-draw", floor_user, dealer_user, players=[(1, "Ann"), (2, "Bob"), (3, "Cat")])
    hand_start(game=game.pk, actor=dealer_user, button=2)
    page = home_tablet(table)
    for name, size in SIZES.items():
        page.set_viewport_size(size)
        page.evaluate("window.scrollTo(0, 0)")
        folds, checks = {}, {}
        for seat, label in ((3, "Cat"), (1, "Ann"), (2, "Bob")):
            expect(page.locator("#turn-title")).to_have_text(f"Seat {seat} · {label} to act")
            page.wait_for_timeout(300)  # settled, with the scripts that run on a new section done
            folds[label] = _top(page, '#turn-panel button[value="fold"]')
            checks[label] = _top(page, '#turn-panel button[value="check"]')
            home_support.act(page, "Check")
        assert max(folds.values()) - min(folds.values()) <= 1, f"{name}: Fold moved as the turn went round: {folds}"
        assert max(checks.values()) - min(checks.values()) <= 1, f"{name}: Check moved as the turn went round: {checks}"
        if name == "landscape":  # the draw, standing pat, then the second betting round for the portrait size
            for _ in range(3):
                home_support.draw(page)
