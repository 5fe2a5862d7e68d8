"""The house-rules pages in Debian's Chromium as the floor uses them, at 1280x800 and 800x1280: named "House rules",
fixed limit's bets hidden (and not sent) once the structure is no limit, every wrong option refused beside its own
box in one save, for a Pregnant Threes, a Three Legged Race and a Freak of Nature table."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from tables.models import HomeTableConfig
from tables.services.home_config import home_config_set
from tables.services.tables import table_create
from tests.tables.test_admin_browser import admin_page, snap, success  # noqa: F401 -- the signed-in page, as there
from tests.tablet.conftest import browser_type_launch_args  # noqa: F401 -- Debian's Chromium, as there

pytestmark = [pytest.mark.browser, pytest.mark.slow]

FIXED = ("#id_rule_small_bet_cents", "#id_rule_big_bet_cents")


def fixed_limit_stakes(page: Page) -> None:
    """An ante of $1 and fixed limit's bets of $2 and $4."""
    for box, dollars in (("ante", "1"), ("small_bet", "2"), ("big_bet", "4")):
        page.fill(f"#id_rule_{box}_cents", dollars)


def fits(page: Page, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 1280 if width == 800 else 800})
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width, f"the page scrolls at {width} px"


def test_no_limit_hides_fixed_limits_bets_and_they_are_not_saved(
    admin_page: Callable[[str], Page], snap: Callable[[Page, str], None], floor_user: User  # noqa: F811
) -> None:
    table = table_create(name="Race 4", table_type="three-legged-race", card_source="rng", actor=floor_user)
    page = admin_page("fiona")
    page.goto("/admin/tables/hometableconfig/add/")
    expect(page.locator("h1")).to_have_text("Add house rules")
    expect(page.locator(".breadcrumbs")).to_contain_text("House rules › Add house rules")
    page.select_option("#id_table", str(table.pk))
    expect(page.locator("#id_rule_legs_to_win")).to_be_visible()
    fixed_limit_stakes(page)
    expect(page.locator("#id_rule_min_bet_cents")).to_be_hidden()  # fixed limit, the default
    page.select_option("#id_rule_betting", "no_limit")
    for box in FIXED:
        expect(page.locator(box)).to_be_hidden()
    expect(page.locator("#betting-note")).to_have_text(
        "Small bet (before the draw), Big bet (after the draw): not part of no limit betting, so hidden and not saved.")
    page.fill("#id_rule_min_bet_cents", "3")
    fits(page, 800)
    snap(page, "1-no-limit")
    page.select_option("#id_rule_betting", "fixed_limit")  # back: the amounts waited in their boxes
    expect(page.locator("#id_rule_big_bet_cents")).to_have_value("4")
    expect(page.locator("#betting-note")).to_have_text(
        "Minimum bet: not part of fixed limit betting, so hidden and not saved.")
    page.select_option("#id_rule_betting", "no_limit")
    page.get_by_role("button", name="Save and continue editing").click()
    expect(success(page)).to_contain_text("The house rules of Race 4 were added successfully")
    rules = HomeTableConfig.objects.get(table=table).rules
    assert (rules["betting"], rules["min_bet_cents"]) == ("no_limit", 300)
    assert "small_bet_cents" not in rules
    assert "big_bet_cents" not in rules
    expect(page.locator("h1")).to_have_text("Change house rules")
    for box in FIXED:
        expect(page.locator(box)).to_be_hidden()  # the change page of a no-limit table opens without them
    fits(page, 1280)
    snap(page, "2-saved")


def test_every_wrong_option_is_shown_beside_its_box_in_one_save(
    admin_page: Callable[[str], Page], snap: Callable[[Page, str], None], floor_user: User  # noqa: F811
) -> None:
    threes = table_create(name="Threes 5", table_type="pregnant-threes", card_source="manual", actor=floor_user)
    freak = table_create(name="Freak 5", table_type="freak-of-nature", card_source="rng", actor=floor_user)
    page = admin_page("fiona")
    page.goto(f"/admin/tables/hometableconfig/add/?table={threes.pk}")
    fixed_limit_stakes(page)
    page.fill("#id_rule_cards_per_draw", "")
    page.fill("#id_rule_kill_cards", "Zz")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".field-rule_cards_per_draw .errorlist")).to_contain_text("Must be announced before the deal")
    expect(page.locator(".field-rule_kill_cards .errorlist")).to_contain_text("Zz")
    assert not HomeTableConfig.objects.filter(table=threes).exists()
    fits(page, 800)
    snap(page, "1-threes-refused")

    home_config_set(table=freak, actor=floor_user, rules={"ante_cents": 100, "small_bet_cents": 200,
                                                          "big_bet_cents": 400})
    page.goto(f"/admin/tables/hometableconfig/{HomeTableConfig.objects.get(table=freak).pk}/change/")
    expect(page.locator("h1")).to_have_text("Change house rules")
    page.fill("#id_rule_max_discard", "9")
    page.fill("#id_rule_kill_cards", "6d")  # sixes are Freak of Nature's wild rank
    page.get_by_role("button", name="Save", exact=True).click()
    # The box's own refusal (9 is over its limit) no longer hides the service's judgement of the rest: both at once.
    expect(page.locator(".field-rule_max_discard .errorlist")).to_be_visible()
    expect(page.locator(".field-rule_kill_cards .errorlist")).to_contain_text("sixes are wild in Freak of Nature")
    page.fill("#id_rule_max_discard", "3")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".field-rule_kill_cards .errorlist")).to_contain_text("sixes are wild in Freak of Nature")
    fits(page, 1280)
    snap(page, "2-freak-refused")
    assert HomeTableConfig.objects.get(table=freak).rules["big_bet_cents"] == 400
