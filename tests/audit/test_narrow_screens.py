"""The compliance trail, a round's and a home game's and hand's timelines and the reports at 800x1280, with long
table and player names and many events: nothing scrolls sideways, neither the page nor a box inside it (the trail's
ten columns used to scroll in their box, the reports' tables too), and each event still names its table, round, seat
and reason. Screenshots in artifacts/compliance/narrow/."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect

from audit.services import audit_record
from floor.gaming_day import gaming_day
from tables.models import CardSource, HomeGame, HomeHand, Round
from tables.services.home_games import game_open
from tables.services.home_hands import hand_start
from tests.audit.test_compliance_browser import officer  # noqa: F401 -- Carl signed in, as there
from tests.floor.conftest import summary_jobs_in_process
from tests.floor.test_home_figures import _act, _deck
from tests.tables.conftest import client_for, open_home_table, open_table
from tests.tables.helpers import play_manual
from tests.tablet.conftest import PORTRAIT

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARTIFACTS = Path(settings.BASE_DIR) / "artifacts" / "compliance" / "narrow"
LONG_TABLE = "Triple Draw High Limit Salon by the Window, Table Twelve"  # 56 of the 60 characters a name may have
LONG_HOME = "Five Card Draw in the Salon Privé, Second Floor, Table 12"
LONG_PLAYERS = ("Maximilian Alexander Montgomery-Fitzwilliam", "Anastasia Konstantinovna Rostova-Brandt")
VOID_REASON = ("Dealer exposed the second row before the holds were recorded; surveillance reviewed the tape,"
               " players agreed")
ROWS = ["2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d", "2h 3h 4h 5h 6h"]
# Every box that scrolls sideways (overflow auto or scroll, wider inside than out): a table that scrolls in its box is
# as sideways for an officer's thumb as the page is.
SIDEWAYS = """() => [...document.querySelectorAll('*')]
  .filter(e => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX) && e.scrollWidth > e.clientWidth + 1)
  .map(e => `${e.tagName.toLowerCase()}.${e.className} ${e.scrollWidth} px in ${e.clientWidth}`)"""


@pytest.fixture
def busy_day(floor_user: User, dealer_user: User, jacks_for_1: Any) -> tuple[Round, HomeGame, HomeHand]:
    """A Triple Draw table with a long name, four rounds of four seats and one voided with a long reason; a home game
    of two long-named players, two hands played, the game still open (its chips show under Open now)."""
    table = open_table(LONG_TABLE, CardSource.MANUAL, jacks_for_1, floor_user, dealer_user,
                       min_bet_cents=500, max_bet_cents=100_000)
    api = client_for(dealer_user)
    seats = {n: {"bet": 20_000, "circles": 3, "dealt": f"A{s} K{s} Q{s} J{s} 9{s}", "held": f"A{s} K{s} Q{s} J{s}"}
             for n, s in zip((1, 2, 3, 4), "shdc", strict=True)}
    for _ in range(4):
        state = play_manual(api, table.pk, seats, ROWS)
    last = Round.objects.get(pk=state["id"])
    audit_record(action="round_void", round=last, table=table, reason=VOID_REASON, actor=floor_user)
    home = open_home_table(LONG_HOME, "five-card-draw", floor_user, dealer_user, charge="rake",
                           rake_basis_points=1_000, rake_cap_cents=150)
    players = [{"seat": seat, "name": name, "buy_in_cents": 90_000} for seat, name in enumerate(LONG_PLAYERS, 1)]
    with summary_jobs_in_process():
        game = game_open(table=home, actor=dealer_user, players=players)
        for button, steps in (
            (2, ("1 check", "2 check", "1 draw", "2 draw", "1 check", "2 check")),
            (1, ("2 bet 200", "1 raise 400", "2 call", "2 draw", "1 draw", "2 bet 400", "1 call")),
        ):
            hand = hand_start(game=game, actor=dealer_user, button=button,
                              deck=_deck(button, {1: "As Ad 4c 5c 7d", 2: "Kc Kh 4d 5d 8c"}))
            _act(hand, dealer_user, *steps)
    return last, game, HomeHand.objects.get(pk=hand.pk)


def test_the_compliance_screens_and_the_reports_fit_800_px_and_nothing_scrolls_sideways(
    busy_day: tuple[Round, HomeGame, HomeHand], officer: Page  # noqa: F811
) -> None:
    last, game, hand = busy_day
    page = officer
    shutil.rmtree(ARTIFACTS, ignore_errors=True)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size(PORTRAIT)
    today = gaming_day(timezone.now()).isoformat()
    pages = {
        "event-list": "/compliance/",
        "round": f"/compliance/rounds/{last.pk}/",
        "home-game": f"/compliance/home/games/{game.pk}/",
        "home-hand": f"/compliance/home/hands/{hand.pk}/",
        "reports": f"/floor/reports/?from={today}&to={today}",
    }
    for number, (name, path) in enumerate(pages.items(), 1):
        page.goto(path)
        page.wait_for_load_state("networkidle")
        page.screenshot(path=str(ARTIFACTS / f"{number:02d}-{name}-portrait.png"), full_page=True)
        scroll_width, inner_width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert scroll_width <= inner_width, f"{name} is {scroll_width} px wide in a {inner_width} px window"
        assert page.evaluate(SIDEWAYS) == [], name

    # Nothing is lost: the voided round's event still names its table, its round and its reason, as words.
    page.goto(f"/compliance/rounds/{last.pk}/")
    void = page.locator("table.events tbody tr", has_text="Round voided")
    for label, value in (("Table", LONG_TABLE), ("Round", f"{LONG_TABLE} round 4"), ("Reason", VOID_REASON[:40])):
        cell = void.locator(f'td[data-label="{label}"]')
        expect(cell).to_be_visible()
        expect(cell).to_contain_text(value)
        assert cell.evaluate("c => getComputedStyle(c, '::before').content") == f'"{label}: "'
    # A seat is named on the bets' events; the trail is still a table to a screen reader, its headings read out.
    bets = page.locator("table.events tbody tr", has_text="Bets placed").first
    expect(bets.locator('td[data-label="Seat"]')).to_be_visible()
    expect(page.get_by_role("columnheader", name="Reason")).to_have_count(1)
    expect(page.get_by_role("cell", name=re.compile(r"^Round voided"))).to_be_visible()
    # An event with no table (a sign-in) shows no empty "Table:" line.
    page.goto("/compliance/?action=user_login")
    rows = page.locator("table.events tbody tr")
    expect(rows.first).to_contain_text("Signed in")
    expect(rows.first.locator('td[data-label="Table"]')).to_be_hidden()

    # At 1280 the trail is the ten-column table it was.
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"/compliance/rounds/{last.pk}/")
    expect(page.locator("table.events.trail thead")).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "06-round-landscape.png"), full_page=True)
