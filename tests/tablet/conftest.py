"""Browser fixtures for the tablet: Debian's Chromium through Playwright, touch contexts, sign-in, screenshots."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from playwright.sync_api import expect

from paytables.seed import STANDARD_DIR
from tables.services.seats import seat_join
from tables.services.tables import table_assign_dealer, table_create, table_open
from tests.conftest import REQUIRE_SERVICES

CHROMIUM = Path(os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"))
# axe-core 4.10.3 from the npm registry (`npm pack axe-core@4.10.3`, MPL-2.0, LICENSE beside it), never a CDN.
AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
ARTIFACTS = Path(settings.BASE_DIR) / "artifacts" / "tablet"
LANDSCAPE = {"width": 1280, "height": 800}
PORTRAIT = {"width": 800, "height": 1280}
SIZES = {"landscape": LANDSCAPE, "portrait": PORTRAIT}
# How long the tests wait for a change made elsewhere to reach a tablet: the issue asks for "about a second".
POLL_TIMEOUT_MS = 2500

# STACK.md: the flags Debian's Chromium needs in a container without a display, a GPU or network services.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


def _require_chromium() -> None:
    if CHROMIUM.exists():
        return
    message = f"Chromium is required for browser tests but {CHROMIUM} is missing (run scripts/install_chromium.sh)"
    if REQUIRE_SERVICES:
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """pytest-playwright's launch options, pointed at Debian's Chromium (Playwright cannot download its own)."""
    _require_chromium()
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "headless": True, "args": CHROMIUM_ARGS}


@pytest.fixture
def tablet(browser: Any, live_server: Any) -> Iterator[Callable[..., Any]]:
    """Open a fresh touch-screen browser context (its own cookies) at a tablet size; closed after the test."""
    contexts: list[Any] = []

    def open_tablet(size: str = "landscape") -> Any:
        context = browser.new_context(
            viewport=SIZES[size], has_touch=True, is_mobile=False, base_url=live_server.url, locale="en-US"
        )
        context.set_default_timeout(10_000)
        # Injected through the DevTools protocol before any page script, so the Content-Security-Policy allows it.
        context.add_init_script(path=str(AXE))
        contexts.append(context)
        return context.new_page()

    yield open_tablet
    for context in contexts:
        context.close()


def sign_in(page: Any, username: str) -> None:
    """Sign in through the dealer sign-in form by tapping, as a dealer would (personas use pw-<username>)."""
    page.goto("/tablet/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill("pw-" + username)
    page.get_by_role("button", name="Sign in").tap()
    page.wait_for_url(re.compile(r"/tablet/$"))


def seat_player(page: Any, number: int, name: str) -> None:
    """On a Triple Draw screen between rounds or while betting: seat `name` at seat `number` by tapping."""
    seat = page.locator(f"#seat-{number}")
    seat.get_by_label(f"Seat {number} Player name (optional)").fill(name)
    seat.get_by_role("button", name=f"Seat a player at seat {number}").tap()
    expect(page.locator(f"#seat-{number}-title")).to_have_text(f"Seat {number} · {name}")


def ask_player_leaves(page: Any, number: int) -> Any:
    """Tap seat `number`'s "Player leaves" in its ⋯ menu; the question asked, which must be on screen."""
    seat = page.locator(f"#seat-{number}")
    seat.locator("summary").tap()
    seat.get_by_role("button", name=f"Player leaves seat {number}").tap()
    question = seat.get_by_role("alertdialog")
    expect(question).to_be_visible()
    return question


# Everything a finger can touch; visually hidden radios and checkboxes are touched through their labels.
TOUCH_TARGETS_JS = """() => {
  const selector = 'a, button, summary, textarea, input:not([type=hidden]):not([type=radio]):not([type=checkbox]),'
    + ' .choice label, label.card';
  const small = [];
  for (const el of document.querySelectorAll(selector)) {
    if (el.closest('dialog:not([open]), [hidden], .visually-hidden')) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (box.width < 47.5 || box.height < 47.5) {
      const name = el.textContent.trim().slice(0, 24);
      small.push(`${el.tagName.toLowerCase()}#${el.id} "${name}" ${box.width}x${box.height}`);
    }
  }
  return small;
}"""


AXE_RUN_JS = """async () => {
  if (typeof axe === 'undefined') { return ['axe-core is not loaded']; }
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => `${v.id} (${v.impact}): ${v.nodes.map(n => n.target.join(' ')).slice(0, 5).join(', ')}`);
}"""


def serious_accessibility_violations(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now (WCAG 2.x A/AA and best practices)."""
    return list(page.evaluate(AXE_RUN_JS))


def small_touch_targets(page: Any) -> list[str]:
    """Controls smaller than 48 x 48 CSS pixels on the page as it is now (the issue's touch-target floor)."""
    return list(page.evaluate(TOUCH_TARGETS_JS))


@pytest.fixture
def screenshot(request: pytest.FixtureRequest) -> Callable[[Any, str], None]:
    """Save the page at both tablet sizes as artifacts/tablet/<test>/<phase>-<size>.png, restoring its size.

    At each size it also checks that every touch target is at least 48 px each way and that axe-core finds no
    serious or critical violation.
    """
    folder = ARTIFACTS / request.node.originalname
    shutil.rmtree(folder, ignore_errors=True)  # only this run's pictures, numbered in phase order
    folder.mkdir(parents=True, exist_ok=True)
    counter = iter(range(1, 1000))

    def save(page: Any, phase: str) -> None:
        original = page.viewport_size
        number = next(counter)
        for size_name, size in SIZES.items():
            page.set_viewport_size(size)
            page.screenshot(path=str(folder / f"{number:02d}-{phase}-{size_name}.png"), full_page=True)
            assert small_touch_targets(page) == [], f"{phase} at {size_name}"
            assert serious_accessibility_violations(page) == [], f"{phase} at {size_name}"
        page.set_viewport_size(original)

    return save


@pytest.fixture
def settlement(request: pytest.FixtureRequest) -> None:
    """Settlement runs where it runs in production: a real Celery worker when REDIS_URL is set, else eagerly."""
    if settings.REDIS_URL:
        request.getfixturevalue("celery_worker")


# --- the tables a tablet works on --------------------------------------------------------------------------------

STANDARD_PAYTABLE = STANDARD_DIR / "jacks_or_better_9_6.json"


@pytest.fixture
def paytable(approved_paytable: Callable[..., Any]) -> Any:
    """Jacks or Better 9/6, approved (the approval workflow and its analysis job are the paytables app's tests)."""
    return approved_paytable(STANDARD_PAYTABLE.stem)


@pytest.fixture
def make_table(floor_user: User, dealer_user: User, paytable: Any) -> Callable[..., Any]:
    """An open Triple Draw table, set up through the services as the floor would, with Dave assigned."""

    def make(name: str, card_source: str = "manual", seated: tuple[int, ...] = (), **limits: int) -> Any:
        table = table_create(
            name=name, actor=floor_user, card_source=card_source, paytable=paytable, **limits
        )
        table_assign_dealer(table=table, dealer=dealer_user, actor=floor_user)
        table_open(table=table, actor=floor_user)
        for number in seated:
            seat_join(table=table, seat_number=number, actor=floor_user, player_name=f"Player {number}")
        table.refresh_from_db()
        return table

    return make
