"""A dealer's call for the floor stays on the tablet's header and the floor's live view until a floor supervisor
answers it there ("On my way"), at both table kinds, in Chromium at both tablet sizes. Before, a call vanished when
the round or hand ended, or when the next hand started, though nobody had answered it (the UX test's shots
02-floor-alert-call and 02-floor-alert-gone)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from tables.models import FloorCall, Round
from tables.services.bets import bet_place
from tables.services.home_hands import hand_start
from tables.services.rounds import round_start, round_void
from tests.tablet import home_support
from tests.tablet.conftest import ARTIFACTS, POLL_TIMEOUT_MS, SIZES, sign_in
from tests.tablet.home_support import home_game, serious_accessibility_violations

pytestmark = [pytest.mark.browser, pytest.mark.slow]
home_tablet, shots = home_support.home_tablet, home_support.shots

WAITING = re.compile(r"^Floor called at \d\d:\d\d — waiting$")


@pytest.fixture
def floor_page(tablet: Callable[..., Page]) -> Callable[[], Page]:
    """Fiona's live floor view, in a browser of her own."""

    def open_floor() -> Page:
        page = tablet("landscape")
        sign_in(page, "fiona")
        page.goto("/floor/")
        return page

    return open_floor


@pytest.fixture
def floor_shots(request: pytest.FixtureRequest) -> Callable[[Page, str], None]:
    """The live view at both sizes, beside the tablet's shots (floor-<step>-<size>.png): no serious axe-core
    violation, and the answer's note and button, the header's links and an alert's table link at least 48 px high,
    as a supervisor taps them on a tablet too."""
    folder: Path = ARTIFACTS / request.node.originalname

    def save(page: Page, step: str) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        for size_name, size in SIZES.items():
            page.set_viewport_size(size)
            page.screenshot(path=str(folder / f"floor-{step}-{size_name}.png"), full_page=True)
            assert serious_accessibility_violations(page) == [], f"{step} at {size_name}"
            # The header's links and an alert's table link too: a user test measured them 19 px high.
            for control in page.locator(".answer-call input[name=note], .answer-call button, header nav a, "
                                        ".alert-list .alert > a, header button").all():
                box = control.bounding_box()
                assert box is not None
                assert box["height"] >= 47.5, f"{step} at {size_name}: {box}"
        page.set_viewport_size(SIZES["landscape"])

    return save


def _answer_on_the_floor(floor: Page, alert: str, note: str) -> None:
    """The supervisor reads the call on the live view, types a note and taps On my way: the alert goes."""
    expect(floor.locator(".alert-summary .alert-floor_call")).to_contain_text(alert)
    floor.locator(".alert-summary .alert-floor_call input[name=note]").fill(note)
    floor.locator(".alert-summary .alert-floor_call").get_by_role("button", name="On my way").tap()
    expect(floor.locator(".messages")).to_contain_text("Answered the call at")
    expect(floor.locator(".alert-floor_call")).to_have_count(0)


def test_a_triple_draw_call_stays_through_the_next_round_until_the_floor_answers(
    tablet: Callable[..., Page],
    screenshot: Any,
    floor_page: Callable[[], Page],
    floor_shots: Callable[[Page, str], None],
    make_table: Any,
    dealer_user: User,
    floor_user: User,
) -> None:
    table = make_table("Calls 1", seated=(1, 2))
    rnd = round_start(table=table, actor=dealer_user)
    bet_place(round=rnd, seat_number=1, amount_cents=1000, circles=1, actor=dealer_user)
    page = tablet("landscape")
    sign_in(page, "dave")
    page.goto(f"/tablet/tables/{table.pk}/")
    page.get_by_role("button", name="Call floor").tap()
    expect(page.locator("#floor-call-note")).to_have_text(WAITING, timeout=POLL_TIMEOUT_MS)
    expect(page.get_by_role("button", name="Call floor")).to_have_count(0)  # one open call at a time
    screenshot(page, "called")

    # The round ends and the next starts: before, the call vanished here.
    round_void(round=Round.objects.get(pk=rnd.pk), reason="misdeal", actor=floor_user)
    expect(page.locator("#phase")).to_have_text("Voided", timeout=POLL_TIMEOUT_MS)
    round_start(table=table, actor=dealer_user)
    expect(page.locator("#round-title")).to_have_text("Round 2", timeout=POLL_TIMEOUT_MS)
    expect(page.locator("#floor-call-note")).to_have_text(WAITING)
    expect(page.get_by_role("button", name="Call floor")).to_have_count(0)
    screenshot(page, "next-round-still-waiting")

    floor = floor_page()
    # Round 1 is over and the call still waits: the alert says both, in the past tense.
    expect(floor.locator(".alert-summary")).to_contain_text(
        re.compile(r"Round 1 \(voided\): Dealer dave called the floor at \d\d:\d\d, waiting"))
    floor_shots(floor, "call-open")
    _answer_on_the_floor(floor, "Round 1 (voided): Dealer dave called the floor", "on my way")
    floor_shots(floor, "answered")

    expect(page.locator("#floor-call-note")).to_have_text(
        re.compile(r"^Floor answered \(fiona, \d\d:\d\d\): on my way$"), timeout=POLL_TIMEOUT_MS)
    expect(page.get_by_role("button", name="Call floor")).to_be_visible()
    screenshot(page, "answered")
    call = FloorCall.objects.get(table=table)
    assert (call.answered_by, call.note) == (floor_user, "on my way")


def test_a_home_game_call_between_hands_stays_when_the_next_hand_starts_until_the_floor_answers(
    home_tablet: Callable[..., Page],
    shots: Callable[[Page, str], None],
    floor_page: Callable[[], Page],
    floor_shots: Callable[[Page, str], None],
    dealer_user: User,
    floor_user: User,
) -> None:
    table, game = home_game("five-card-draw", floor_user, dealer_user, players=[(1, "Ann"), (2, "Bob"), (3, "Cy")])
    page = home_tablet(table)
    page.get_by_role("button", name="Call floor").tap()
    expect(page.locator("#floor-call-note")).to_have_text(WAITING, timeout=POLL_TIMEOUT_MS)
    expect(page.get_by_role("button", name="Call floor")).to_have_count(0)
    hand_start(game=game.pk, actor=dealer_user)  # before, the next hand's start ended the call
    expect(page.locator("#hand-title")).to_contain_text("hand 1", timeout=POLL_TIMEOUT_MS)
    expect(page.locator("#floor-call-note")).to_have_text(WAITING)
    shots(page, "next-hand-still-waiting")

    floor = floor_page()
    floor_shots(floor, "call-open")
    _answer_on_the_floor(floor, "Between hands (hand 1 dealt since): Dealer dave called the floor", "")
    expect(page.locator("#floor-call-note")).to_have_text(
        re.compile(r"^Floor answered \(fiona, \d\d:\d\d\)$"), timeout=POLL_TIMEOUT_MS)
    expect(page.get_by_role("button", name="Call floor")).to_be_visible()
    shots(page, "answered")
