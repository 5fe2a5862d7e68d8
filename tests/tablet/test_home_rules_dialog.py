"""The Rules dialog of a home-game table screen follows the screen: a game opened, or house rules changed, since
the page loaded show there under the game's own number (probe8 item 1: it kept the rules of the page's first game)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from tables.services.home_config import home_config_set
from tables.services.home_games import game_close
from tests.tablet import home_support
from tests.tablet.conftest import POLL_TIMEOUT_MS
from tests.tablet.home_support import home_game, tap

home_tablet, shots = home_support.home_tablet, home_support.shots

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_rules_dialog_shows_the_game_open_now_after_the_house_rules_changed_and_a_new_game_opened(
    home_tablet: Any, shots: Any, floor_user: User, dealer_user: User
) -> None:
    table, game = home_game("three-legged-race", floor_user, dealer_user, source="manual",
                            players=[(1, "Ann"), (2, "Bob")], rules={"legs_to_win": 2})
    page = home_tablet(table)
    dialog = page.locator("#rules-dialog")
    rules = page.get_by_role("link", name="Rules", exact=True)

    rules.tap()
    expect(dialog.locator("#rules-which")).to_have_text("Game 1, open now: announced when it opened")
    expect(dialog.locator("#rules-list")).to_contain_text("Race to 2 legs")
    dialog.get_by_role("button", name="Close").tap()

    # The floor closes the game elsewhere; the page stays open and follows by its poll.
    game_close(game=game, actor=floor_user, reason="The players went home")
    expect(page.get_by_role("button", name="Open a new game")).to_be_visible(timeout=POLL_TIMEOUT_MS)
    rules.tap()
    expect(dialog.locator("#rules-which")).to_have_text(
        "No game is open (game 1 has closed): the house rules a new game announces")
    # The floor calls the next race at three legs while the dialog is open: it follows there and then.
    home_config_set(table=table, actor=floor_user, partial=True, rules={"legs_to_win": 3})
    expect(dialog.locator("#rules-list")).to_contain_text("Race to 3 legs", timeout=POLL_TIMEOUT_MS)
    expect(dialog.locator("#rules-list")).not_to_contain_text("Race to 2 legs")
    dialog.get_by_role("button", name="Close").tap()

    tap(page, page.get_by_role("button", name="Open a new game"))
    expect(page.locator("#hand-title")).to_have_text("Game 2")
    expect(page.locator("#announce")).to_contain_text("Race to 3 legs")
    rules.tap()
    expect(dialog).to_be_visible()
    expect(dialog.locator("#rules-which")).to_have_text("Game 2, open now: announced when it opened")
    expect(dialog.locator("#rules-list")).to_contain_text("Race to 3 legs")
    expect(dialog).not_to_contain_text("Race to 2 legs")
    expect(dialog).not_to_contain_text("game 1")
    shots(page, "rules-of-the-new-game")
