"""The floor's report and shift sheet at 800 px wide: a wide table scrolls inside its own box, the page itself never
scrolls sideways (the reports page was 891 px wide and the shift sheet 844 px, so the header, filters and text
slid off with them)."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.contrib.auth.models import User

from floor.demo import played_at
from floor.services.books import inventory_record
from tables.models import Table
from tests.floor.conftest import REPORT_DAY as DAY
from tests.floor.conftest import local
from tests.floor.test_browser import open_page  # noqa: F401 -- the signed-in page fixture, as there
from tests.tablet.conftest import browser_type_launch_args  # noqa: F401 -- Debian's Chromium, as there

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NARROW = {"width": 800, "height": 1280}
PAGE_WIDTH = "() => [document.documentElement.scrollWidth, window.innerWidth]"


def test_the_reports_and_the_shift_sheet_fit_800_px_and_their_tables_scroll_inside(
    open_page: Any,  # noqa: F811
    two_tables: list[Table],
    floor_user: User,
) -> None:
    day = date.fromisoformat(DAY)
    with played_at(local(day, 7)):
        chips = {"10000": 200, "2500": 40, "500": 3}
        inventory_record(day=day, shift_code="day", table=two_tables[0], kind="opening", chips=chips, actor=floor_user)
    page = open_page("fiona", viewport=NARROW)
    for path, table in (
        (f"/floor/reports/?from={DAY}&to={DAY}&by=dealer", "#table-report"),
        (f"/floor/shifts/?day={DAY}&shift=day", "table.figures"),
    ):
        page.goto(path)
        page.wait_for_load_state("networkidle")
        scroll_width, inner_width = page.evaluate(PAGE_WIDTH)
        assert scroll_width <= inner_width, f"{path} is {scroll_width} px wide in a {inner_width} px window"
        box = page.locator(table).first.evaluate("t => getComputedStyle(t.parentElement).overflowX")
        assert box == "auto", f"{path}: the table does not scroll inside its own box"
