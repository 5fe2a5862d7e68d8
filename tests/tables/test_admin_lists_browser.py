"""Every admin list of our apps in Debian's Chromium, with the demo's data, at 1280x800 and 800x1280: each shows all
its columns inside the page (none past the right edge beside the menu or the filter), each saved as an artifact."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib import admin
from django.contrib.auth.models import User
from django.core.management import call_command
from playwright.sync_api import Page, expect

from accounts.services import api_token_issue
from audit.tasks import verify_chain
from floor.models import Drop
from floor.services.corrections import shift_correct
from tests.tables.test_admin_browser import SIZES as SIZES_BY_NAME
from tests.tables.test_admin_browser import admin_page  # noqa: F401 -- the signed-in page, as there
from tests.tablet.conftest import browser_type_launch_args  # noqa: F401 -- Debian's Chromium, as there

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARTIFACTS = Path(settings.BASE_DIR) / "artifacts" / "admin" / "every_list"
OUR_APPS = ("tables", "floor", "audit", "accounts", "outbox", "paytables")
SIZES = (SIZES_BY_NAME["landscape"], SIZES_BY_NAME["portrait"])
# Where the list ends, the right edge of the box it scrolls in, the page's width, and how many rows it shows.
MEASURE = """() => {
    const list = document.querySelector('#result_list');
    if (!list) return null;
    return [list.getBoundingClientRect().right, list.parentElement.getBoundingClientRect().right,
            document.documentElement.scrollWidth, list.querySelectorAll('tbody tr').length];
}"""


def our_lists() -> list[str]:
    """The change list of every model our apps register in the admin (a new one is measured without editing this)."""
    return sorted(
        f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
        for model in admin.site._registry
        if model._meta.app_label in OUR_APPS
    )


def demo_data(operator: User) -> None:
    """The demo's data (`make run`), and what its server adds or the demo leaves out: the scheduled check of the audit
    chain, an API token and a shift's correction."""
    call_command("seed_demo", "--force", stdout=StringIO())
    api_token_issue(user=operator, actor=operator)
    drop = Drop.objects.select_related("shift", "table").first()
    assert drop is not None, "the demo closes a shift with a drop"
    shift_correct(shift=drop.shift, table=drop.table, item="drop", cash_cents=drop.cash_cents + 2500,
                  markers_cents=drop.markers_cents, reason="the count sheet had two figures swapped", actor=operator)
    verify_chain()


def test_every_list_of_our_apps_shows_all_its_columns_at_both_widths(
    admin_page: Callable[[str], Page],  # noqa: F811
) -> None:
    """Ada administers everything, so she sees every list, audit trail included, and the longest menu beside it."""
    ada = User.objects.create_superuser(username="ada", password="pw-ada", email="")
    demo_data(ada)
    lists = our_lists()
    assert {"/admin/tables/handoutcome/", "/admin/floor/tablehour/", "/admin/audit/auditevent/",
            "/admin/accounts/apitoken/", "/admin/paytables/paytable/"} <= set(lists)
    shutil.rmtree(ARTIFACTS, ignore_errors=True)
    ARTIFACTS.mkdir(parents=True)
    page = admin_page("ada")
    cut_off = []
    for size in SIZES:
        page.set_viewport_size(size)
        for url in lists:
            page.goto(url)
            measured = page.evaluate(MEASURE)
            assert measured is not None, f"{url} shows no list"
            list_right, box_right, page_width, rows = measured
            assert rows > 0, f"{url} is empty: the measure needs rows"
            if list_right > box_right + 1 or page_width > size["width"]:
                cut_off.append(f"{url} at {size['width']} px: the list ends at {list_right:.0f} px, its box at "
                               f"{box_right:.0f} px, the page is {page_width} px wide")
            name = url.strip("/").removeprefix("admin/").replace("/", "-")
            page.screenshot(path=str(ARTIFACTS / f"{name}-{size['width']}.png"))
    assert not cut_off, "\n".join(cut_off)
    # The hands' filter names the hands as the list does, and filters by them.
    page.goto("/admin/tables/handoutcome/")
    hands = page.locator("#changelist-filter details", has_text="By hand")
    expect(hands).to_contain_text("High card")
    expect(hands).not_to_contain_text("high_card")
    hands.get_by_role("link", name="High card").click()
    shown = page.locator("#result_list td.field-hand").all_inner_texts()
    assert shown
    assert set(shown) == {"High card"}
