"""The floor's admin forms in Debian's Chromium, each saved as a supervisor would: create a table, change its limits
in dollars, set its paytable, assign a dealer, a non-dealer refused with a message, a paytable approved by a second
supervisor with an override reason, the payout queue's approve and refuse, and a void with a reason."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.utils import timezone
from playwright.sync_api import Page, expect

from audit.models import AuditEvent
from paytables.models import Paytable, PaytableStatus
from paytables.services import paytable_create_draft
from tables.models import Round, Table, TableDevice
from tables.services.tables import table_create
from tests.paytables.conftest import JACKS_9_6
from tests.paytables.test_approval_page import analysed
from tests.tables.conftest import open_table
from tests.tables.test_payout_queue import awaiting
from tests.tables.test_settlement import to_drawing
from tests.tablet.conftest import browser_type_launch_args  # noqa: F401 -- Debian's Chromium, as there

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARTIFACTS = Path(settings.BASE_DIR) / "artifacts" / "admin"
SIZES = {"landscape": {"width": 1280, "height": 800}, "portrait": {"width": 800, "height": 1280}}


@pytest.fixture
def admin_page(browser: Any, live_server: Any, request: pytest.FixtureRequest) -> Iterator[Callable[[str], Page]]:
    """admin_page(username): a desktop browser signed in through the admin's sign-in form (pw-<username>)."""
    contexts: list[Any] = []

    def open_as(username: str) -> Page:
        context = browser.new_context(viewport=SIZES["landscape"], base_url=live_server.url, locale="en-US")
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.goto("/admin/login/?next=/admin/")
        page.fill("#id_username", username)
        page.fill("#id_password", "pw-" + username)
        page.locator("input[type=submit]").click()
        page.wait_for_url(re.compile(r"/admin/$"))
        return page

    yield open_as
    for context in contexts:
        context.close()


@pytest.fixture
def snap(request: pytest.FixtureRequest) -> Callable[[Page, str], None]:
    """Save the page at 1280x800 and 800x1280 as artifacts/admin/<test>/<n>-<name>-<size>.png."""
    folder = ARTIFACTS / request.node.originalname
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True, exist_ok=True)
    counter = iter(range(1, 100))

    def save(page: Page, name: str) -> None:
        number = next(counter)
        for size_name, size in SIZES.items():
            page.set_viewport_size(size)
            page.screenshot(path=str(folder / f"{number:02d}-{name}-{size_name}.png"), full_page=True)
        page.set_viewport_size(SIZES["landscape"])

    return save


def success(page: Page) -> Any:
    return page.locator(".messagelist .success")


def test_the_floor_creates_a_table_then_edits_limits_paytable_and_dealers(
    admin_page: Callable[[str], Page],
    snap: Callable[[Page, str], None],
    floor_user: User,
    dealer_user: User,
    jacks_for_1: Paytable,
    house_to_1: Paytable,
) -> None:
    retired = Paytable.objects.create(name="Old schedule", version=1, basis="for_1", status=PaytableStatus.DRAFT)
    Paytable.objects.filter(pk=retired.pk).update(status=PaytableStatus.RETIRED, approval_reference="GC-1")
    page = admin_page("fiona")
    page.goto("/admin/tables/table/add/")
    page.fill("#id_name", "Pit 1 TD")
    page.select_option("#id_table_type", label="Triple Draw Poker")
    page.select_option("#id_card_source", label="System shuffle")
    expect(page.locator("#id_min_bet_cents")).to_have_value("5.00")
    page.fill("#id_min_bet_cents", "25")
    page.fill("#id_max_bet_cents", "1,000")
    page.fill("#id_max_payout_per_seat_cents", "50,000")
    page.fill("#id_supervisor_approval_threshold_cents", "5000")
    options = page.locator("#id_paytable option").all_inner_texts()
    assert "Jacks or Better 9/6 v1 · approved" in options
    assert not any("Old schedule" in option for option in options)
    page.select_option("#id_paytable", label="Jacks or Better 9/6 v1 · approved")
    assert page.locator("#id_dealers option").all_inner_texts() == ["dave"]
    snap(page, "1-new-table")
    page.get_by_role("button", name="Save and continue editing").click()
    expect(success(page)).to_contain_text("was added successfully")
    table = Table.objects.get(name="Pit 1 TD")
    assert (table.min_bet_cents, table.max_bet_cents, table.card_source) == (2500, 100_000, "rng")
    assert (table.max_payout_per_seat_cents, table.supervisor_approval_threshold_cents) == (5_000_000, 500_000)
    assert table.paytable_id == jacks_for_1.pk
    expect(page.locator("#id_min_bet_cents")).to_have_value("25.00")
    expect(page.locator(".field-paytable_status")).to_contain_text("Jacks or Better 9/6 v1 · active")

    # Limits in dollars, another paytable and a dealer, in one save.
    page.fill("#id_min_bet_cents", "10")
    page.fill("#id_max_bet_cents", "$2,500.50")
    page.select_option("#id_paytable", label="House Triple Draw v1 · approved")
    page.select_option("#id_dealers", label="dave")
    page.get_by_role("button", name="Save and continue editing").click()
    expect(success(page)).to_contain_text("was changed successfully")
    table.refresh_from_db()
    assert (table.min_bet_cents, table.max_bet_cents, table.paytable_id) == (1000, 250_050, house_to_1.pk)
    assert list(table.dealers.all()) == [dealer_user]
    for action in ("table_create", "table_update_limits", "table_set_paytable", "table_assign_dealer"):
        assert AuditEvent.objects.filter(action=action, table_id=table.pk).exists(), action
    snap(page, "2-edited")

    page.goto("/admin/tables/table/")
    row = page.locator("#result_list tbody tr", has_text="Pit 1 TD")
    expect(row).to_contain_text("$10.00")
    expect(row).to_contain_text("$2,500.50")
    expect(row).to_contain_text("House Triple Draw v1 · active")
    snap(page, "3-list")


def test_bad_limits_and_a_non_dealer_are_refused_with_a_message(
    admin_page: Callable[[str], Page], snap: Callable[[Page, str], None], floor_user: User, dealer_user: User
) -> None:
    table = table_create(name="Refusals", actor=floor_user)
    page = admin_page("fiona")
    page.goto(f"/admin/tables/table/{table.pk}/change/")
    page.fill("#id_min_bet_cents", "50")
    page.fill("#id_max_bet_cents", "25")
    page.get_by_role("button", name="Save and continue editing").click()
    expect(page.locator(".errorlist")).to_contain_text("the maximum bet ($25.00) is below the minimum bet ($50.00)")
    snap(page, "1-bad-limits")

    page.goto(f"/admin/tables/table/{table.pk}/change/")
    dealer_user.groups.remove(Group.objects.get(name="dealer"))  # the role is withdrawn while the page is open
    page.select_option("#id_dealers", label="dave")
    page.get_by_role("button", name="Save and continue editing").click()
    expect(page.locator(".errorlist")).to_contain_text("dave is not a dealer")
    snap(page, "2-not-a-dealer")
    table.refresh_from_db()
    assert (table.min_bet_cents, table.max_bet_cents, list(table.dealers.all())) == (500, 50_000, [])


def test_a_second_supervisor_approves_an_out_of_band_paytable_with_an_override_reason(
    admin_page: Callable[[str], Page], snap: Callable[[Page, str], None], floor_user: User, second_floor_user: User
) -> None:
    draft = paytable_create_draft(name="Generous", basis="for_1", lines=JACKS_9_6, actor=floor_user)
    analysed(draft, 3.51)
    page = admin_page("fred")
    page.goto(f"/admin/paytables/paytable/{draft.pk}/change/")
    page.get_by_role("link", name="Approve…").click()
    expect(page.locator("#analysis")).to_contain_text("House edge")
    expect(page.locator("#analysis")).to_contain_text("Standard deviation")
    expect(page.locator("#out-of-band")).to_contain_text("the return is 351.0000 %, above 100 %")
    expect(page.locator("#line-changes")).to_contain_text("Royal flush")
    snap(page, "1-approval-page")
    page.get_by_label("Regulator's approval reference").fill("GC-2026-0042")
    page.get_by_label("Override reason").fill("one-night promotion, gaming board letter 2026/17")
    page.get_by_role("button", name="Approve").click()
    expect(success(page)).to_contain_text("Generous v1 approved.")
    snap(page, "2-approved")
    draft.refresh_from_db()
    assert (draft.status, draft.approval_reference, draft.approved_by) == (
        "approved",
        "GC-2026-0042",
        second_floor_user,
    )
    assert AuditEvent.objects.filter(action="paytable_return_override", reason__startswith="one-night").exists()


def test_the_drafter_cannot_approve_in_the_browser(
    admin_page: Callable[[str], Page], snap: Callable[[Page, str], None], floor_user: User
) -> None:
    draft = paytable_create_draft(name="Mine", basis="for_1", lines=JACKS_9_6, actor=floor_user)
    page = admin_page("fiona")
    page.goto(f"/admin/paytables/paytable/{draft.pk}/approve/")
    expect(page.locator("#own-work")).to_be_visible()
    page.get_by_label("Regulator's approval reference").fill("GC-2026-1")
    page.get_by_role("button", name="Approve").click()
    expect(page.locator(".messagelist .error")).to_contain_text("another floor supervisor must approve it")
    snap(page, "1-refused")
    assert Paytable.objects.get(pk=draft.pk).status == "draft"


def test_the_payout_queue_approves_one_and_refuses_another_with_a_reason(
    admin_page: Callable[[str], Page],
    snap: Callable[[Page, str], None],
    manual_table: Table,
    floor_user: User,
    dealer_user: User,
    jacks_for_1: Paytable,
) -> None:
    first = awaiting(manual_table, floor_user)
    second = awaiting(open_table("Manual 2", "manual", jacks_for_1, floor_user, dealer_user), floor_user)
    page = admin_page("fiona")
    page.goto("/admin/tables/round/")
    page.get_by_role("link", name="Payouts awaiting approval (2)").click()
    rows = page.locator("#payout-queue tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Manual 2")  # newest first
    expect(rows.nth(1)).to_contain_text("Royal flush")
    expect(rows.nth(1)).to_contain_text("$7,980.00")
    snap(page, "1-queue")

    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(f"#payout-{first.pk}").get_by_role("button", name="Approve $7,980.00").click()
    expect(success(page)).to_contain_text("approved: the payout is posted")
    expect(rows).to_have_count(1)

    page.locator(f"#payout-{second.pk}").get_by_label("Reason to refuse").fill("row 2 was misread")
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(f"#payout-{second.pk}").get_by_role("button", name="Refuse").click()
    expect(success(page)).to_contain_text("refused: the round is voided")
    expect(page.locator(".empty-queue")).to_be_visible()
    snap(page, "2-empty")
    assert Round.objects.get(pk=first.pk).phase == "settled"
    refused = Round.objects.get(pk=second.pk)
    assert (refused.phase, refused.void_reason) == ("voided", "Payout refused: row 2 was misread")


def test_a_round_is_voided_from_the_admin_with_a_reason(
    admin_page: Callable[[str], Page], snap: Callable[[Page, str], None], manual_table: Table, floor_user: User
) -> None:
    rnd = to_drawing(manual_table, floor_user)
    page = admin_page("fiona")
    page.goto(f"/admin/tables/round/{rnd.pk}/change/")
    expect(page.locator("#content")).to_contain_text("$10.00")
    snap(page, "1-round")
    page.get_by_role("link", name="Void…").click()
    page.get_by_label("Reason").fill("the shoe jammed")
    page.get_by_role("button", name="Void the round").click()
    expect(success(page)).to_contain_text("voided")
    snap(page, "2-voided")
    rnd.refresh_from_db()
    assert (rnd.phase, rnd.void_reason) == ("voided", "the shoe jammed")


def list_fits(page: Page) -> bool:
    """The changelist's table ends within its box (the admin scrolls a wider one sideways in that box)."""
    return bool(page.evaluate("""() => {
        const list = document.querySelector('#result_list');
        return list.getBoundingClientRect().right <= list.parentElement.getBoundingClientRect().right + 1;
    }"""))


def test_the_rounds_list_shows_every_column_at_both_widths(
    admin_page: Callable[[str], Page], snap: Callable[[Page, str], None], manual_table: Table, floor_user: User
) -> None:
    rnd = to_drawing(manual_table, floor_user)
    page = admin_page("fiona")
    for size in SIZES.values():
        page.set_viewport_size(size)
        page.goto("/admin/tables/round/")
        assert list_fits(page), f"the rounds list is cut off at {size['width']} px"
        assert page.evaluate("() => document.documentElement.scrollWidth") <= size["width"]
        row = page.locator("#result_list tbody tr").first
        expect(row).to_contain_text(f"{rnd}")
        expect(row.locator("td.field-played")).to_contain_text(
            f"{timezone.localtime(rnd.started_at):%b %d %H:%M}–now")
    snap(page, "1-rounds")


def test_a_home_game_table_is_created_without_the_triple_draw_fields_and_the_list_fits_a_narrow_screen(
    admin_page: Callable[[str], Page], snap: Callable[[Page, str], None], floor_user: User, jacks_for_1: Paytable
) -> None:
    page = admin_page("fiona")
    page.goto("/admin/tables/table/add/")
    limits = page.locator("fieldset.triple-draw-only")
    expect(limits).to_be_visible()  # Triple Draw is the type a new table starts as
    page.fill("#id_name", "Pit 2 Freak")
    page.select_option("#id_table_type", label="Freak of Nature")
    expect(limits).to_be_hidden()
    snap(page, "1-new-home-table")
    page.select_option("#id_table_type", label="Triple Draw Poker")
    expect(page.locator("#id_min_bet_cents")).to_be_visible()
    page.select_option("#id_table_type", label="Freak of Nature")
    page.get_by_role("button", name="Save and continue editing").click()
    expect(success(page)).to_contain_text("was added successfully")
    assert Table.objects.get(name="Pit 2 Freak").table_type == "freak-of-nature"
    expect(page.locator("#id_min_bet_cents")).to_have_count(0)
    expect(page.locator("#id_paytable")).to_have_count(0)
    expect(page.locator(".field-house_rules")).to_contain_text("not set yet")

    table_create(name="Triple Draw with a long name", actor=floor_user, paytable=jacks_for_1)
    page.goto("/admin/tables/table/")
    for width in (1280, 800):
        page.set_viewport_size({"width": width, "height": 900})
        fits = page.evaluate(
            "() => document.querySelector('#result_list').scrollWidth"
            " <= document.querySelector('#changelist-form .results').clientWidth"
        )
        assert fits, f"the table list scrolls sideways at {width}px"
    snap(page, "2-list")
    # Any admin list with a filter: at 800px the filter goes under it, so the list has the page's width and the page
    # itself never scrolls sideways (a wide list scrolls in its own box).
    page.set_viewport_size({"width": 800, "height": 900})
    for url in ("/admin/paytables/paytable/", "/admin/tables/seat/"):
        page.goto(url)
        page_width, list_width = page.evaluate(
            "() => [document.documentElement.scrollWidth,"
            " document.querySelector('#changelist-form .results').clientWidth]"
        )
        assert page_width <= 800, url
        assert list_width >= 400, url
    # A form's menus (the paytable with its status and return is a long choice) stay inside the page at 800px.
    for url in ("/admin/tables/table/add/", "/admin/paytables/paytable/add/"):
        page.goto(url)
        page_width, widest = page.evaluate(
            "() => [document.documentElement.scrollWidth, Math.max(...[...document.querySelectorAll("
            "'#content .form-row select')].map(e => e.getBoundingClientRect().right))]"
        )
        assert page_width <= 800, url
        assert widest <= 800, url


def test_the_paytable_page_fits_a_desktop_screen(admin_page: Callable[[str], Page], floor_user: User) -> None:
    """The lines' boxes are as wide as what is typed in them: the lines' table, "Delete?" column included, fits the
    page at 1280px (at the admin's default widths it was wider than the page)."""
    page = admin_page("fiona")
    page.goto("/admin/paytables/paytable/add/")
    page.get_by_text("Add another Paytable line").click()
    page_width, table_right = page.evaluate(
        "() => [document.documentElement.scrollWidth,"
        " document.querySelector('#lines-group table').getBoundingClientRect().right]"
    )
    assert page_width <= 1280
    assert table_right <= 1280


def test_the_floor_reads_a_home_game_whose_seat_was_taken_again_at_both_widths(
    admin_page: Callable[[str], Page], snap: Callable[[Page, str], None], home_table: Callable[..., Table],
    dealer_user: User, floor_user: User,
) -> None:
    """Home games in the admin: the list, a game with each person at seat 1 on a row of their own (P1, then Dee), and a
    hand naming who played it; read-only, and the players' rows fit beside the menu at 800 px."""
    from tests.tables.test_home_seat_reuse import _game_with_seat_one_taken_again

    game = _game_with_seat_one_taken_again(home_table("three-legged-race"), dealer_user)
    page = admin_page("fiona")
    page.goto("/admin/tables/homegame/")
    page.get_by_role("link", name=str(game)).click()
    rows = page.locator(".inline-related tbody tr.form-row")
    expect(rows).to_have_count(4)
    names = [rows.nth(i).locator("td.field-player").inner_text().strip() for i in range(4)]
    assert names == ["P1", "Dee", "P2", "P3"]
    expect(rows.nth(0).locator("td.field-cashed_out")).to_have_text("$99.00")
    expect(rows.nth(1).locator("td.field-bought_in")).to_have_text("$50.00")
    assert page.locator("input[name=_save]").count() == 0
    snap(page, "1-game")
    page.set_viewport_size({"width": 800, "height": 1280})
    for i in range(4):
        box = rows.nth(i).locator("td.field-at_seat").bounding_box()
        assert box is not None
        assert box["x"] + box["width"] <= 800, f"row {i + 1}'s time at the seat is cut off at 800 px"
    for listing in ("homegame", "homegameplayer", "homehand", "homeledgerentry"):  # beside the menu, as the tables'
        page.goto(f"/admin/tables/{listing}/")
        right = page.evaluate("() => document.querySelector('#result_list').getBoundingClientRect().right")
        assert right <= 800, f"the {listing} list runs off an 800 px screen ({right:.0f} px)"
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto("/admin/tables/homeledgerentry/")
    assert list_fits(page), "the home ledger's last columns are out of sight beside the filter at 1280 px"
    page.goto("/admin/tables/homehand/")
    page.get_by_role("link", name=f"{game} hand 2").click()
    expect(page.locator(".field-players_dealt_in")).to_contain_text("Seat 1 · Dee: $50.00")
    expect(page.locator(".field-actions_in_words")).to_contain_text("1. Seat 3 · P3 bets $2.00")
    snap(page, "2-hand")


def test_the_floor_sets_a_new_home_tables_house_rules_from_its_page_at_800px(
    admin_page: Callable[[str], Page], snap: Callable[[Page, str], None], floor_user: User
) -> None:
    """From the table's "set the house rules" link: the variant's options one field each, a form wrong in three places
    refused beside each box with nothing saved, then saved (audited) and shown in dollars and as a percent."""
    from tables.models import HomeTableConfig

    table = table_create(name="Threes 3", table_type="pregnant-threes", card_source="manual", actor=floor_user)
    page = admin_page("fiona")
    page.set_viewport_size({"width": 800, "height": 1280})
    page.goto(f"/admin/tables/table/{table.pk}/change/")
    page.get_by_role("link", name="not set yet: set the house rules").click()
    expect(page.locator(".field-rule_draws .help")).to_contain_text("Required: the game announces it before the deal")
    expect(page.locator("#id_rule_draws")).to_have_value("1")  # its usual value, to confirm
    expect(page.locator("#id_rule_max_discard")).to_have_count(0)  # Five Card Draw's, not this game's
    page.fill("#id_rule_ante_cents", "1")
    page.fill("#id_rule_small_bet_cents", "2")
    page.fill("#id_rule_big_bet_cents", "4")
    page.fill("#id_rule_kill_cards", "3s")
    page.fill("#id_buy_in_min_cents", "600")
    page.select_option("#id_charge", "rake")
    page.fill("#id_rake_basis_points", "5")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".field-rule_kill_cards .errorlist")).to_contain_text("cannot be both wild and a kill card")
    expect(page.locator(".field-buy_in_max_cents .errorlist")).to_contain_text("at least the smallest buy-in")
    expect(page.locator(".field-rake_cap_cents .errorlist")).to_contain_text("a rake needs a cap")
    assert not HomeTableConfig.objects.filter(table=table).exists()
    snap(page, "1-refused")
    page.fill("#id_rule_draws", "2")
    page.fill("#id_rule_cards_per_draw", "2")
    page.select_option("#id_rule_draw", label="Mandatory (exactly the cards per draw)")
    page.fill("#id_rule_kill_cards", "one_eyed_jacks")
    page.fill("#id_buy_in_min_cents", "20")
    page.fill("#id_rake_cap_cents", "3")
    page.get_by_role("button", name="Save and continue editing").click()
    expect(success(page)).to_contain_text("The house rules of Threes 3 were added successfully")
    config = HomeTableConfig.objects.get(table=table)
    assert (config.rules["draws"], config.rules["draw"], config.rake_basis_points, config.rake_cap_cents) == (
        2, "mandatory", 500, 300)
    expect(page.locator("#id_rake_basis_points")).to_have_value("5")
    expect(page.locator("#id_rule_ante_cents")).to_have_value("1.00")
    expect(page.locator("#id_rule_kill_cards")).to_have_value("Js Jh")
    assert AuditEvent.objects.filter(action="home_config_set", table_id=table.pk, actor_username="fiona").exists()
    page.set_viewport_size({"width": 800, "height": 1280})  # snap() left it at desktop width
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 800
    snap(page, "2-saved")


def test_choosing_a_table_on_the_add_page_shows_its_games_options(
    admin_page: Callable[[str], Page], snap: Callable[[Page, str], None], floor_user: User
) -> None:
    """The add page without a table has no options; choosing a Three Legged Race table shows that game's (legs), and
    choosing a Five Card Draw table instead shows its own (the draw), not the race's."""
    from tables.models import HomeTableConfig

    race = table_create(name="Race 7", table_type="three-legged-race", card_source="rng", actor=floor_user)
    draw = table_create(name="Draw 7", table_type="five-card-draw", card_source="rng", actor=floor_user)
    page = admin_page("fiona")
    page.goto("/admin/tables/hometableconfig/add/")
    expect(page.get_by_text("Choose a table above: the options of its game show here.")).to_be_visible()
    expect(page.locator("[name^=rule_]")).to_have_count(0)
    page.select_option("#id_table", str(race.pk))
    expect(page.locator("#id_rule_legs_to_win")).to_be_visible()
    expect(page.locator("#id_table")).to_have_value(str(race.pk))
    page.select_option("#id_table", str(draw.pk))
    expect(page.locator("#id_rule_max_discard")).to_be_visible()
    expect(page.locator("#id_rule_legs_to_win")).to_have_count(0)
    page.fill("#id_rule_ante_cents", "1")
    page.fill("#id_rule_small_bet_cents", "2")
    page.fill("#id_rule_big_bet_cents", "4")
    page.select_option("#id_rule_wild_duplicates_in_flush", label="No")
    snap(page, "1-draw-options")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(success(page)).to_contain_text("The house rules of Draw 7 were added successfully")
    rules = HomeTableConfig.objects.get(table=draw).rules
    assert (rules["ante_cents"], rules["wild_duplicates_in_flush"], rules["max_discard"]) == (100, False, 3)


def test_a_device_for_a_table_not_dealt_from_a_shoe_is_refused_beside_the_table_field(
    admin_page: Callable[[str], Page], snap: Callable[[Page, str], None], floor_user: User
) -> None:
    manual = table_create(name="Manual dealing", actor=floor_user)
    table_create(name="Shoe dealing", actor=floor_user, card_source="shoe")
    page = admin_page("fiona")
    page.goto("/admin/tables/tabledevice/add/")
    page.select_option("#id_table", label="Manual dealing")
    page.fill("#id_name", "shoe 1")
    page.get_by_role("button", name="Save", exact=True).click()
    refusal = page.locator(".field-table .errorlist")
    expect(refusal).to_contain_text("table Manual dealing's card source is 'Dealer-entered cards': a device "
                                    "credential is only for a table dealt from a shoe")
    expect(page.locator("#id_name")).to_have_value("shoe 1")
    snap(page, "1-not-a-shoe-table")
    assert not TableDevice.objects.filter(table=manual).exists()
    page.select_option("#id_table", label="Shoe dealing")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".messagelist")).to_contain_text("Token for ")
    assert TableDevice.objects.filter(table__name="Shoe dealing", name="shoe 1").exists()
