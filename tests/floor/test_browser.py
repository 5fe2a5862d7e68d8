"""The floor's pages in Debian's Chromium: the live floor view follows the tables without a reload, the dealer
signs in on the tablet, the reports draw their charts, and the shift sheet's forms record with two signatures."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from tables.models import Table
from tables.services.rounds import round_void_request
from tests.floor.conftest import REPORT_DAY as DAY
from tests.tables.test_settlement import to_drawing
from tests.tablet.conftest import browser_type_launch_args  # noqa: F401 -- Debian's Chromium, as there

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARTIFACTS = Path(settings.BASE_DIR) / "artifacts" / "floor"
POLL_TIMEOUT_MS = 8_000  # the floor view polls every 3 seconds


@pytest.fixture
def open_page(browser: Any, live_server: Any, request: pytest.FixtureRequest) -> Iterator[Callable[..., Page]]:
    """open_page(username): a desktop browser signed in through the sign-in page (personas use pw-<username>)."""
    folder = ARTIFACTS / request.node.originalname
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True, exist_ok=True)
    contexts: list[Any] = []

    def open_as(username: str, viewport: dict[str, int] | None = None) -> Page:
        context = browser.new_context(
            viewport=viewport or {"width": 1440, "height": 900},
            base_url=live_server.url,
            locale="en-US",
            accept_downloads=True,
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.goto("/accounts/login/")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill("pw-" + username)
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url(re.compile(r"/$"))
        return page

    open_as.folder = folder  # type: ignore[attr-defined]
    yield open_as
    for context in contexts:
        context.close()


def snap(open_page: Any, page: Page, name: str) -> None:
    page.screenshot(path=str(open_page.folder / f"{name}.png"), full_page=True)


def test_the_floor_view_shows_alerts_and_the_dealer_as_they_happen_without_a_reload(
    open_page: Any, manual_table: Table, floor_user: User, dealer_user: User
) -> None:
    floor = open_page("fiona")
    floor.goto("/floor/")
    tile = floor.locator(f"#table-{manual_table.pk}")
    expect(tile.locator("h3")).to_have_text("Manual F")
    expect(tile.locator(".tile-state")).to_have_text("Open")
    expect(tile.locator(".tile-dealer")).to_have_text("—")
    expect(tile.locator(".tile-seats")).to_have_text("7 of 7")
    expect(floor.locator(".all-clear")).to_be_visible()
    floor.evaluate("window.sameDocument = true")
    snap(open_page, floor, "1-quiet")

    # The dealer signs in on the tablet: one tap in the table header.
    tablet = open_page("dave", {"width": 1280, "height": 800})
    tablet.goto(f"/tablet/tables/{manual_table.pk}/")
    tablet.get_by_role("button", name="Sign in at this table").click()
    expect(tablet.locator(".dealer-session")).to_contain_text("Dealer at this table: dave (you).")
    snap(open_page, tablet, "2-tablet-signed-in")
    expect(tile.locator(".tile-dealer")).to_have_text("dave", timeout=POLL_TIMEOUT_MS)

    rnd = to_drawing(manual_table, floor_user)
    round_void_request(round=rnd, reason="a card flashed", actor=dealer_user)
    expect(tile.locator(".tile-alerts")).to_contain_text("void requested (a card flashed)", timeout=POLL_TIMEOUT_MS)
    expect(tile.locator(".tile-phase")).to_have_text("Round 1: Drawing")
    expect(floor.locator(".alert-summary")).to_contain_text("Alerts (1)")
    assert floor.evaluate("window.sameDocument") is True  # updated in place, never reloaded
    snap(open_page, floor, "3-void-request")


def test_the_floor_view_is_for_floor_supervisors(open_page: Any, compliance_user: User) -> None:
    page = open_page("carl")
    response = page.goto("/floor/")
    assert response is not None
    assert response.status == 403
    expect(page.get_by_role("alert")).to_contain_text("floor supervisors")


def test_the_reports_page_draws_its_charts_flags_the_table_outside_its_band_and_exports_csv(
    open_page: Any, two_tables: list[Table], compliance_user: User
) -> None:
    page = open_page("carl")  # compliance reads reports
    page.goto(f"/floor/reports/?from={DAY}&to={DAY}")
    for chart in ("hold", "win", "hours"):
        expect(page.locator(f'canvas[data-chart="{chart}"][data-ready="true"]')).to_have_count(1)
    drawn = page.evaluate(
        "() => [...document.querySelectorAll('canvas[data-chart]')].map(c => [c.dataset.chart, "
        "Chart.getChart(c).data.datasets.map(d => d.data.length)])"
    )
    assert drawn == [["hold", [1, 1, 1, 1]], ["win", [2]], ["hours", [24]]]
    # One day is one point: the band's ends and the theoretical hold are drawn across it, not left invisible.
    marks = page.evaluate("() => Chart.getChart(document.querySelector('canvas[data-chart=hold]'))"
                          ".data.datasets.slice(0, 3).map(d => d.pointRadius > 0)")
    assert marks == [True, True, True]
    flagged = page.locator("#table-report tbody tr.outside")
    expect(flagged).to_have_count(1)
    expect(flagged.locator("th")).to_have_text("Floor B")
    expect(flagged).to_contain_text("Outside band")
    snap(open_page, page, "1-reports")
    with page.expect_download() as download:
        page.locator("#table-report").locator("xpath=../preceding-sibling::p[1]").get_by_role("link").click()
    assert download.value.suggested_filename == f"tables-{DAY}-{DAY}.csv"

    page.get_by_label("From (gaming day)").fill("2025-03-20")
    page.get_by_role("button", name="Show").click()
    expect(page.locator("#report-error")).to_have_text("from (2025-03-20) is after to (2025-03-17)")
    snap(open_page, page, "2-bad-range")


def test_the_shift_sheet_records_books_and_refuses_a_fill_without_the_dealers_signature(
    open_page: Any, rng_tables: list[Table], floor_user: User, dealer_user: User
) -> None:
    table = rng_tables[0]
    page = open_page("fiona")
    page.goto(f"/floor/shifts/?day={DAY}&shift=day")
    start = page.get_by_role("region", name="Start a table's books")
    start.get_by_label("Table").select_option(label=table.name)
    start.get_by_label("$100").fill("200")
    start.get_by_role("button", name="Record opening inventory").click()
    books = page.get_by_role("region", name=table.name)
    expect(books.locator("tbody td").first).to_have_text("$20,000.00")

    fill = books.get_by_role("form", name=f"Fill for {table.name}")
    fill.get_by_label("$500").fill("4")
    fill.get_by_role("button", name="Sign fill as fiona").click()
    fill = page.get_by_role("region", name=table.name).get_by_role("form", name=f"Fill for {table.name}")
    expect(fill.get_by_role("alert")).to_have_text("a fill needs a second signature: the dealer's")
    snap(open_page, page, "1-fill-refused")

    fill.get_by_label("Dealer username").fill("dave")
    fill.get_by_label("Dealer password").fill("pw-dave")
    fill.get_by_role("button", name="Sign fill as fiona").click()
    expect(page.get_by_role("region", name=table.name).locator(".slips")).to_contain_text(
        "Fill $2,000.00, signed by dave (dealer) and fiona (floor)"
    )
    snap(open_page, page, "2-fill-signed")


def test_a_tables_books_fit_an_800px_screen(open_page: Any, rng_tables: list[Table], floor_user: User) -> None:
    """The nine columns of a table's figures, 'Check' included, stay inside its card and the page at 800px."""
    table = rng_tables[0]
    page = open_page("fiona", viewport={"width": 800, "height": 1000})
    page.goto(f"/floor/shifts/?day={DAY}&shift=day")
    start = page.get_by_role("region", name="Start a table's books")
    start.get_by_label("Table").select_option(label=table.name)
    start.get_by_label("$1,000").fill("20")
    start.get_by_role("button", name="Record opening inventory").click()
    books = page.get_by_role("region", name=table.name)
    expect(books.locator("tbody td").first).to_have_text("$20,000.00")
    closing = books.get_by_role("form", name=f"Closing inventory of {table.name}")
    closing.get_by_label("$1,000").fill("18")
    closing.get_by_label("$5", exact=True).fill("9")
    closing.get_by_role("button", name="Record closing inventory").click()
    drop = page.get_by_role("region", name=table.name).get_by_role("form", name=f"Drop of {table.name}")
    drop.get_by_label("Cash ($)").fill("3,500")
    drop.get_by_role("button", name="Record drop").click()
    expect(page.get_by_role("region", name=table.name).locator("tbody td").nth(4)).to_have_text("$3,500.00")
    page_width, card_right, check_right = page.evaluate(
        """(id) => { const card = document.getElementById(id);
                     const check = card.querySelector('table.figures thead th:last-child');
                     return [document.documentElement.scrollWidth, card.getBoundingClientRect().right,
                             check.getBoundingClientRect().right]; }""",
        f"books-{table.pk}",
    )
    snap(open_page, page, "1-books-800")
    assert page_width <= 800
    assert check_right <= card_right
