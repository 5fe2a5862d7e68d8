"""The sign-in page in Debian's Chromium at both tablet sizes: floor, compliance and count staff sign in there on a
tablet, so its fields and button are 48 px targets (the fields were 21 px high) and axe-core finds nothing serious,
before and after a wrong password."""

from __future__ import annotations

import shutil
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from tests.tablet.conftest import (
    AXE,
    SIZES,
    browser_type_launch_args,  # noqa: F401 -- Debian's Chromium, as there
    serious_accessibility_violations,
    small_touch_targets,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

FOLDER = settings.BASE_DIR / "artifacts" / "sign_in"


def _fits_a_finger(page: Page, step: str) -> None:
    for size_name, size in SIZES.items():
        page.set_viewport_size(size)
        page.screenshot(path=str(FOLDER / f"{step}-{size_name}.png"), full_page=True)
        assert small_touch_targets(page) == [], f"{step} at {size_name}"
        assert serious_accessibility_violations(page) == [], f"{step} at {size_name}"


def test_the_sign_in_page_fits_a_finger_before_and_after_a_wrong_password(
    browser: Any, live_server: Any, floor_user: User
) -> None:
    shutil.rmtree(FOLDER, ignore_errors=True)
    FOLDER.mkdir(parents=True)
    context = browser.new_context(viewport=SIZES["landscape"], has_touch=True, base_url=live_server.url, locale="en-US")
    context.add_init_script(path=str(AXE))
    page = context.new_page()
    page.goto("/")  # signed out: sent to sign in
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    _fits_a_finger(page, "01-signed-out")

    page.get_by_label("Username").fill(floor_user.get_username())
    page.get_by_label("Password").fill("not the password")
    page.get_by_role("button", name="Sign in").tap()
    expect(page.get_by_role("alert")).to_have_text("Your username and password didn't match. Please try again.")
    _fits_a_finger(page, "02-wrong-password")

    page.get_by_label("Password").fill("pw-" + floor_user.get_username())
    page.get_by_role("button", name="Sign in").tap()
    expect(page.get_by_role("heading", name=f"Welcome, {floor_user.get_username()}")).to_be_visible()
    _fits_a_finger(page, "03-start-page")
    context.close()
