"""An admin list's sorted columns on a touch screen: "remove from sorting" shows without hovering (a finger cannot
hover) and it and the toggle are 48 px targets at 1280x800 and 800x1280; a tap on it takes the column out of the
order. Screenshots in artifacts/admin/sort_by_touch/."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from playwright.sync_api import expect

from tables.models import Table
from tests.tables.test_admin_browser import SIZES
from tests.tablet.conftest import browser_type_launch_args  # noqa: F401 -- Debian's Chromium, as there

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARTIFACTS = Path(settings.BASE_DIR) / "artifacts" / "admin" / "sort_by_touch"
# Each sorted column's controls: its class, its size, and whether it is shown.
CONTROLS = """() => [...document.querySelectorAll('#result_list th.sorted .sortoptions a')].map(a => {
  const box = a.getBoundingClientRect();
  return [a.className, box.width, box.height, getComputedStyle(a).visibility];
})"""


def test_sorted_columns_can_be_unsorted_and_toggled_by_touch(
    browser: Any, live_server: Any, manual_table: Table, floor_user: User
) -> None:
    shutil.rmtree(ARTIFACTS, ignore_errors=True)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport=SIZES["portrait"], has_touch=True, base_url=live_server.url)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto("/admin/login/?next=/admin/")
    page.fill("#id_username", "fiona")
    page.fill("#id_password", "pw-fiona")
    page.locator("input[type=submit]").click()
    page.wait_for_url(re.compile(r"/admin/$"))
    page.wait_for_load_state("networkidle")
    page.goto("/admin/tables/table/?o=1.2")
    sorted_headings = page.locator("#result_list th.sorted")
    expect(sorted_headings).to_have_count(2)
    for name, size in SIZES.items():
        page.set_viewport_size(size)
        page.screenshot(path=str(ARTIFACTS / f"sorted-{name}.png"), full_page=True)
        controls = page.evaluate(CONTROLS)
        assert sorted(kind.split()[0] for kind, *_ in controls) == ["sortremove", "sortremove", "toggle", "toggle"]
        assert [c for c in controls if c[1] < 48 or c[2] < 48 or c[3] != "visible"] == [], name
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"], name
    page.set_viewport_size(SIZES["portrait"])
    sorted_headings.first.locator("a.sortremove").tap()
    expect(page).to_have_url(re.compile(r"\?o=2$"))
    expect(sorted_headings).to_have_count(1)
    page.screenshot(path=str(ARTIFACTS / "one-removed-portrait.png"), full_page=True)
    context.close()
