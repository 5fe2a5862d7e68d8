"""The Content-Security-Policy holds on the real screens: the tablet (htmx), the admin and compliance load and work
in Chromium with no violation reported and no console error."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from audit.services import audit_chain_seal, audit_chain_verify
from tables.services.bets import bet_place
from tests.tablet.conftest import POLL_TIMEOUT_MS, sign_in
from tests.tablet.test_browser import place_bet

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Collects every violation the browser reports, from the first script of each page on.
WATCH_CSP = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  var where = e.sourceFile + ":" + e.lineNumber;
  window.__csp.push(e.violatedDirective + " blocked " + (e.blockedURI || "inline") + " at " + where);
});
"""


class Watch:
    """Console errors and CSP violations of one page, checked after every screen it shows."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.console: list[str] = []
        self.failed: list[str] = []
        page.add_init_script(WATCH_CSP)
        page.on("console", self._console)
        # Every request counts, the browser's own ask for an icon too (each page names the site's icon).
        page.on("response", lambda r: self.failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)

    def _console(self, message: Any) -> None:
        # A resource that failed to load is reported by the response listener, with its address.
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            self.console.append(message.text)

    def clean(self, where: str) -> None:
        violations = self.page.evaluate("window.__csp || []")
        assert violations == [], f"CSP violations on {where}: {violations}"
        assert self.console == [], f"console errors on {where}: {self.console}"
        assert self.failed == [], f"failed requests on {where}: {self.failed}"

    def goto(self, path: str) -> None:
        response = self.page.goto(path)
        assert response is not None
        assert response.status == 200, f"{path}: {response.status}"
        policy = response.headers.get("content-security-policy", "")
        assert "script-src 'self'" in policy, f"{path} has no CSP: {policy!r}"
        assert "unsafe-eval" not in policy
        self.clean(path)


def _watched(tablet: Any, size: str = "landscape") -> tuple[Page, Watch]:
    page = tablet(size)
    return page, Watch(page)


def test_the_dealer_tablet_runs_under_the_policy_and_still_polls(
    tablet: Any, make_table: Any, dealer_user: User, floor_user: User
) -> None:
    table = make_table("Policy Table", seated=(1, 2))
    page, watch = _watched(tablet)
    sign_in(page, "dave")
    watch.clean("the tablet sign-in")
    watch.goto(f"/tablet/tables/{table.pk}/")
    page.get_by_role("link", name="Paytable & rules").tap()
    expect(page.get_by_role("dialog", name="Policy Table: paytable and rules")).to_be_visible()
    page.get_by_role("button", name="Close").tap()
    page.get_by_role("button", name="Start a round").tap()
    expect(page.locator("#phase")).to_have_text("Betting")
    place_bet(page, 1, "10", 2)
    expect(page.locator("#seat-1-bet")).to_have_text("2 × $10.00")
    watch.clean("the tablet after htmx taps")
    # A change made elsewhere still reaches the screen through the 1 s poll (no eval needed for its trigger).
    round_ = table.rounds.get()
    bet_place(round=round_, seat_number=2, amount_cents=500, circles=[1], actor=floor_user)
    expect(page.locator("#seat-2-bet")).to_have_text("1 × $5.00", timeout=POLL_TIMEOUT_MS)
    watch.clean("the tablet after polling")


def test_the_admin_works_under_the_policy(tablet: Any, floor_user: User, paytable: Any) -> None:
    page, watch = _watched(tablet)
    watch.goto("/admin/login/")
    page.get_by_label("Username").fill("fiona")
    page.get_by_label("Password").fill("pw-fiona")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(r"/admin/$"))
    watch.clean("the admin index")
    for path in (
        "/admin/paytables/paytable/",
        f"/admin/paytables/paytable/{paytable.pk}/change/",
        "/admin/paytables/paytable/add/",
        "/admin/tables/table/",
        "/admin/tables/table/add/",
        "/admin/accounts/apitoken/add/",
    ):
        watch.goto(path)
    # The retire button asks first (data-confirm, no inline handler): dismissing it changes nothing.
    page.goto(f"/admin/paytables/paytable/{paytable.pk}/change/")
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.get_by_role("button", name="Retire").click()
    paytable.refresh_from_db()
    assert paytable.status == "approved"
    watch.clean("the paytable retire confirmation")


def test_compliance_screens_work_under_the_policy(tablet: Any, compliance_user: User, make_table: Any) -> None:
    make_table("Audited Table")
    audit_chain_seal()
    audit_chain_verify()
    page, watch = _watched(tablet)
    watch.goto("/accounts/login/")
    page.get_by_label("Username").fill("carl")
    page.get_by_label("Password").fill("pw-carl")
    page.get_by_role("button", name=re.compile("Sign in|Log in")).click()
    page.wait_for_url(re.compile(r"/$"))
    watch.goto("/compliance/")
    watch.goto("/compliance/?action=table_open")
    page.locator("a[href*='/compliance/events/']").first.click()
    page.wait_for_url(re.compile(r"/compliance/events/\d+/"))
    watch.clean("an event's detail")
    watch.goto("/compliance/exceptions/")
