"""Every compliance screen in Debian's Chromium as a compliance officer uses it, each checked with axe-core (no
serious or critical violation) and photographed at 1280x800 and 800x1280 into artifacts/compliance/."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect

from audit.exception_scan import exceptions_scan
from audit.models import ExceptionCase
from audit.services import audit_chain_seal, audit_record
from audit.tasks import daily_compliance_report, verify_chain
from floor.gaming_day import gaming_day
from tables.models import Round, Table
from tables.services.approvals import round_approve_payout
from tests.tables.conftest import client_for
from tests.tables.helpers import play_manual
from tests.tablet.conftest import SIZES

pytestmark = [pytest.mark.browser]

AXE = Path(settings.BASE_DIR) / "tests" / "tablet" / "vendor" / "axe-core" / "axe.min.js"  # the one vendored copy
ARTIFACTS = Path(settings.BASE_DIR) / "artifacts" / "compliance"
ROWS = ["2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d", "2h 3h 4h 5h 6h"]
AXE_RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    targets: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
}"""


@pytest.fixture
def officer(browser: Any, live_server: Any, compliance_user: User) -> Iterator[Page]:
    """Carl signed in through the sign-in form, in a desktop context (CSP bypassed only so axe can be injected)."""
    context = browser.new_context(viewport=SIZES["landscape"], base_url=live_server.url, bypass_csp=True)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto("/accounts/login/?next=/compliance/")
    page.get_by_label("Username").fill("carl")
    page.get_by_label("Password").fill("pw-carl")
    page.get_by_role("button", name=re.compile("sign in|log in", re.I)).click()
    page.wait_for_url(re.compile(r"/compliance/$"))
    yield page
    context.close()


@pytest.fixture
def check(request: pytest.FixtureRequest) -> Callable[[Page, str], None]:
    """check(page, name): axe-core finds no serious or critical violation; screenshots at both sizes, where the page
    must not be wider than the window."""
    folder = ARTIFACTS / request.node.originalname
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True, exist_ok=True)
    counter = iter(range(1, 100))

    def run(page: Page, name: str) -> None:
        page.add_script_tag(path=str(AXE))
        violations = page.evaluate(AXE_RUN)
        bad = [v for v in violations if v["impact"] in {"serious", "critical"}]
        assert bad == [], f"{name}: {bad}"
        number = next(counter)
        original = page.viewport_size
        for size_name, size in SIZES.items():
            page.set_viewport_size(size)
            page.screenshot(path=str(folder / f"{number:02d}-{name}-{size_name}.png"), full_page=True)
            # Nothing runs off the side: long values wrap at both sizes.
            assert page.evaluate("document.documentElement.scrollWidth") <= size["width"], f"{name} at {size_name}"
        if original is not None:
            page.set_viewport_size(original)

    return run


@pytest.fixture
def played(manual_table: Table, dealer_user: User, floor_user: User) -> Round:
    """A round with a $4,000 royal flush that needed the floor's approval, sealed, scanned and verified."""
    Table.objects.filter(pk=manual_table.pk).update(supervisor_approval_threshold_cents=100_000)
    state = play_manual(
        client_for(dealer_user),
        manual_table.pk,
        {1: {"bet": 500, "circles": 1, "dealt": "As Ks Qs Js Ts", "held": "As Ks Qs Js Ts"}},
        ROWS,
    )
    rnd = Round.objects.get(pk=state["id"])
    round_approve_payout(round=rnd, actor=floor_user)
    audit_record(action="round_void", round=rnd, table=manual_table, reason="test void", actor=floor_user)
    audit_chain_seal()
    exceptions_scan()
    verify_chain.apply()
    return rnd


@pytest.fixture
def verification_worker(request: pytest.FixtureRequest) -> None:
    """The verification job runs where it runs in production: a real worker when REDIS_URL is set, else eagerly."""
    if settings.REDIS_URL:
        request.getfixturevalue("celery_worker")


def test_the_trail_reads_in_words_and_filters_from_lists(played: Round, officer: Page, check: Any) -> None:
    page = officer
    expect(page.locator("#chain-status")).to_contain_text("Verified")
    expect(page.locator("#time-zone")).to_contain_text(f"Times are in {settings.TIME_ZONE}")
    expect(page.get_by_role("cell", name="Payout approved")).to_be_visible()
    expect(page.locator("td.amount", has_text="$4,000.00").first).to_be_visible()
    # Column headings and event numbers read whole: not squeezed to a letter or two per line ("Ro/un/d", "#7/01").
    lines = page.evaluate("""() => [...document.querySelectorAll('table.events th, table.events td.short a')]
      .map(cell => { const text = document.createRange(); text.selectNodeContents(cell);
                     return [cell.textContent, text.getClientRects().length]; })""")
    assert [text for text, count in lines if count != 1] == []
    check(page, "event-list")

    # Searchable lists: typing part of a name narrows the list and picks the first match.
    page.get_by_label("Search tables").fill("manual")
    expect(page.get_by_label("Table", exact=True)).to_have_value(str(played.table_id))
    page.get_by_label("Search actions").fill("round voided")
    expect(page.get_by_label("Action", exact=True)).to_have_value("round_void")
    page.get_by_role("button", name="Filter").click()
    rows = page.locator("table.events tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("test void")
    check(page, "filtered")

    page.get_by_role("link", name=re.compile(r"Event \d+ in full")).first.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Round voided")
    check(page, "event-detail")


def test_the_round_record_opens_with_what_happened(played: Round, officer: Page, check: Any) -> None:
    page = officer
    page.goto(f"/compliance/rounds/{played.pk}/")
    summary = page.locator("section", has=page.get_by_role("heading", name="What happened"))
    expect(summary).to_contain_text("A♠ K♠ Q♠ J♠ 10♠")
    expect(summary).to_contain_text("Royal flush")
    expect(summary).to_contain_text("Payout approved by fiona")
    expect(page.get_by_text("Consistent:")).to_be_visible()
    check(page, "round-record")
    page.emulate_media(media="print")
    expect(page.get_by_role("button", name="Verify the chain now")).to_be_hidden()  # the print stylesheet
    expect(summary).to_be_visible()
    page.emulate_media(media="screen")


def test_an_exception_is_reviewed_and_signed_off(played: Round, officer: Page, check: Any) -> None:
    page = officer
    page.get_by_role("link", name="Exception queue").click()
    expect(page.get_by_role("cell", name="Payout at the reporting threshold")).to_be_visible()
    check(page, "queue")
    void = ExceptionCase.objects.get(kind="void")
    page.get_by_role("link", name=f"Open exception {void.id}").click()
    page.get_by_role("button", name="Start review").click()
    expect(page.locator(".status")).to_have_text("Under review")
    page.get_by_label("Note", exact=True).fill("Void slip matches the dealer's report.")
    page.get_by_role("button", name="Add note").click()
    expect(page.locator(".notes")).to_contain_text("Void slip matches")
    check(page, "exception-under-review")
    page.get_by_label("Closing note").fill("Reviewed with the pit boss; closed.")
    page.get_by_role("button", name="Sign off and close").click()
    expect(page.locator(".status")).to_have_text("Closed")
    expect(page.get_by_text("by carl at")).to_be_visible()
    check(page, "exception-closed")


def test_a_verification_started_from_the_screen_shows_progress_and_its_outcome(
    played: Round, officer: Page, check: Any, verification_worker: None
) -> None:
    page = officer
    page.get_by_role("button", name="Verify the chain now").click()
    expect(page.locator("#chain-status")).to_contain_text("by carl", timeout=20_000)
    expect(page.locator("#chain-status")).to_have_class(re.compile(r"\bok\b"))
    check(page, "verified-by-carl")


def test_the_daily_reports(played: Round, officer: Page, check: Any) -> None:
    day = gaming_day(timezone.now())
    daily_compliance_report.apply(kwargs={"day": day.isoformat()})
    page = officer
    page.get_by_role("link", name="Daily reports").click()
    check(page, "daily-reports")
    page.get_by_role("link", name=day.isoformat()).first.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(day.isoformat())
    expect(page.locator("body")).to_contain_text("test void")
    check(page, "daily-report")
