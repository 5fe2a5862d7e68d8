"""A home game's life on the tablet: the dealer opens it (the rules announced), seats players with buy-ins in dollars
within the range, adds chips, a player leaves and is cashed out, a second tablet follows within the poll, and the
floor closes the game. Every refusal sits next to its cause and changes nothing.

Issue 12: "seats players (name or player number, buy-in in cents within the range) ... Players may join between
hands, add chips between hands (within the range), leave (their stack is cashed out)".
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from tables.models import HomeGame, HomeGamePlayer
from tables.services.home_hands import hand_start
from tests.tables.conftest import open_home_table
from tests.tablet import home_support
from tests.tablet.conftest import POLL_TIMEOUT_MS
from tests.tablet.home_support import tap, version

home_tablet, shots = home_support.home_tablet, home_support.shots
pytestmark = [pytest.mark.browser, pytest.mark.slow]


def seat_player(page: Any, seat: int, *, name: str = "", card: str = "", buy_in: str = "") -> None:
    page.locator(f'label[data-seat-choice="{seat}"]').tap()
    page.get_by_label("Name").fill(name)
    page.get_by_label("Player number").fill(card)
    page.get_by_label("Buy-in in dollars", exact=False).fill(buy_in)
    tap(page, page.get_by_role("button", name="Seat the player"))


def test_a_game_opened_players_seated_chips_added_a_player_leaving_and_the_floor_closing_it(
    home_tablet: Any, shots: Any, floor_user: User, dealer_user: User
) -> None:
    table = open_home_table("Five Card Draw 9", "five-card-draw", floor_user, dealer_user,
                            buy_in_min_cents=1_000, buy_in_max_cents=20_000)
    page = home_tablet(table)
    shots(page, "no-game-yet")
    tap(page, page.get_by_role("button", name="Open a game"))
    expect(page.locator("#announce")).to_contain_text("Ante $1.00")
    expect(page.locator("#announce")).to_contain_text("Fixed limit $2/$4")
    shots(page, "game-open-rules-to-announce")

    # A buy-in outside the range: the message in dollars under the form; nobody is seated.
    before = version(page)
    seat_player(page, 1, name="Ann", buy_in="5")
    expect(page.locator("#join-error")).to_have_text("$5.00 is outside the buy-in range $10.00 to $200.00")
    assert version(page) == before
    assert not HomeGamePlayer.objects.exists()
    expect(page.get_by_label("Name")).to_have_value("Ann")  # kept to correct
    shots(page, "buy-in-outside-the-range")
    seat_player(page, 1, name="Ann", buy_in="100")
    expect(page.locator("#seat-1 .stack")).to_have_text("Stack $100.00")

    follower = home_tablet(table, "fiona")  # the floor follows the same table on a second tablet
    seat_player(page, 2, card="P-17", buy_in="100.50")
    expect(page.locator("#seat-2")).to_contain_text("#P-17")
    expect(follower.locator("#seat-2 .stack")).to_have_text("Stack $100.50", timeout=POLL_TIMEOUT_MS)

    page.locator("#seat-menu-1 summary").tap()
    page.get_by_label("Add chips, in dollars").first.fill("150")
    before = version(page)
    tap(page, page.locator("#seat-1").get_by_role("button", name="Add chips"))
    expect(page.locator("#seat-1-error")).to_have_text(
        "Adding $150.00 would take the stack of $100.00 past the maximum buy-in of $200.00: at most $100.00 can be "
        "added now")
    assert version(page) == before
    shots(page, "too-many-chips-refused")
    page.locator("#chips-1").fill("50")
    tap(page, page.locator("#seat-1").get_by_role("button", name="Add chips"))
    expect(page.locator("#seat-1 .stack")).to_have_text("Stack $150.00")

    page.locator("#seat-menu-2 summary").tap()
    tap(page, page.get_by_role("button", name="Cash out $100.50 and leave"))
    # The seat is free again (no name on it, offered to the next player); the cash-out is said under the seats.
    expect(page.locator("#left-players")).to_have_text("Left the game: Seat 2, cashed out $100.50")
    expect(page.locator("#seat-2")).to_have_count(0)
    expect(page.locator('label[data-seat-choice="2"]')).to_be_visible()
    shots(page, "a-player-left")

    before = version(page)
    tap(page, page.locator("#start-hand"))
    expect(page.locator("#start-error")).to_have_text("Fewer than two players have chips: a hand needs two or more")
    assert version(page) == before

    expect(follower.locator("#left-players")).to_contain_text("cashed out $100.50", timeout=POLL_TIMEOUT_MS)
    follower.locator("#close-game summary").tap()
    tap(follower, follower.get_by_role("button", name="Close game 1 and cash everyone out"))
    expect(follower.locator("#close-game-error")).to_have_text("Give a reason")
    follower.get_by_label("Reason").fill("end of the session")
    tap(follower, follower.get_by_role("button", name="Close game 1 and cash everyone out"))
    expect(follower.locator("#game-end")).to_contain_text("closed by the floor (end of the session)")
    expect(page.locator("#game-end")).to_be_visible(timeout=POLL_TIMEOUT_MS)
    expect(page.locator("#seat-1 .stack")).to_have_text("Cashed out $150.00")
    assert HomeGame.objects.get().status == HomeGame.Status.CLOSED
    shots(page, "game-closed")


def test_a_seat_its_player_left_is_offered_as_an_empty_one_and_the_next_player_sits_there(
    home_tablet: Any, shots: Any, floor_user: User, dealer_user: User
) -> None:
    # A player leaves and the next one sits down in that chair: the seat is offered like one nobody played, and the
    # newcomer starts afresh there (their buy-in, no legs); the one who left keeps their own figures.
    table, game = home_support.home_game("three-legged-race", floor_user, dealer_user,
                                         players=[(1, "Ann"), (2, "Bob"), (3, "Cy")])
    page = home_tablet(table)
    expect(page.locator('label[data-seat-choice="2"]')).to_have_count(0)  # Bob's seat, taken
    page.locator("#seat-menu-2 summary").tap()
    tap(page, page.get_by_role("button", name="Cash out $200.00 and leave"))
    expect(page.locator("#seat-2")).to_have_count(0)
    expect(page.locator("#left-players")).to_have_text("Left the game: Bob (seat 2), cashed out $200.00")
    expect(page.locator('label[data-seat-choice="2"]')).to_be_visible()
    shots(page, "vacated-seat-offered")

    seat_player(page, 2, name="Dee", buy_in="50")
    expect(page.locator("#seat-2-title")).to_have_text("Seat 2 · Dee")
    expect(page.locator("#seat-2 .stack")).to_have_text("Stack $50.00")
    expect(page.locator("#seat-2 .legs")).to_have_text("Legs 0 of 2")
    expect(page.locator("#seat-2")).not_to_contain_text("Bob")
    expect(page.locator('label[data-seat-choice="2"]')).to_have_count(0)
    shots(page, "vacated-seat-taken")
    bob, dee = HomeGamePlayer.objects.filter(game=game, seat=2).order_by("id")
    assert (bob.name, bob.active, bob.cashed_out_cents) == ("Bob", False, 20_000)
    assert (dee.name, dee.active, dee.bought_in_cents) == ("Dee", True, 5_000)
    tap(page, page.locator("#start-hand"))
    expect(page.locator("#seat-2 .in-pot")).to_have_text("In the pot $1.00")  # Dee antes in the next hand


# Each control of an open seat menu is what a finger on its middle touches: nothing laid over it.
UNCOVERED_JS = """(selector) => [...document.querySelectorAll(selector)].filter(el => {
      const box = el.getBoundingClientRect();
      const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
      return !(hit && (el === hit || el.contains(hit) || (el.tagName === 'LABEL' && el.control === hit)));
    }).map(el => el.id || el.textContent.trim())"""


def test_the_seat_menus_open_on_the_screen_and_lay_nothing_over_the_chips_field_or_the_turn(
    home_tablet: Any, shots: Any, floor_user: User, dealer_user: User
) -> None:
    # The menu's two forms were each placed over the screen on their own, at the same spot: "Cash out $200.00 and
    # leave" lay over "Add chips, in dollars" and its field, so a tap meant for the field cashed the player out.
    table, game = home_support.home_game("five-card-draw", floor_user, dealer_user,
                                         players=[(1, "Ann"), (2, "Bob"), (3, "Cy"), (4, "Dee")])
    page = home_tablet(table)
    for size in home_support.SIZES.values():
        page.set_viewport_size(size)
        for seat in (1, 4):
            _open_menu_lies_over_nothing(page, f"seat-menu-{seat}")
    page.set_viewport_size(home_support.SIZES["landscape"])
    page.locator("#seat-menu-1 summary").tap()
    page.locator("#chips-1").tap()  # a tap, as a finger does it: refused by Playwright if something lies over it
    page.keyboard.type("50")
    shots(page, "seat-menu-open")
    tap(page, page.locator("#seat-1").get_by_role("button", name="Add chips"))
    expect(page.locator("#seat-1 .stack")).to_have_text("Stack $250.00")
    assert HomeGamePlayer.objects.get(game=game, seat=1).stack_cents == 25_000
    assert HomeGamePlayer.objects.get(game=game, seat=1).cashed_out_cents == 0

    # During a hand, "Leaving?" (the first seat's too) opens on the screen and over none of the turn's buttons.
    hand_start(game=game.pk, actor=dealer_user)
    expect(page.locator("#turn-panel")).to_be_visible(timeout=POLL_TIMEOUT_MS)
    for size in home_support.SIZES.values():
        page.set_viewport_size(size)
        for seat in (1, 4):
            _open_menu_lies_over_nothing(page, f"seat-leave-{seat}")


def _open_menu_lies_over_nothing(page: Any, menu: str) -> None:
    page.locator(f"#{menu} summary").tap()
    assert page.evaluate(UNCOVERED_JS, f"#{menu} label, #{menu} input:not([type=hidden]), #{menu} button") == []
    # The turn's buttons, brought on screen (below the seats they may lie under 800 px): nothing of the menu over them.
    if page.locator("#turn-panel").count():
        page.locator("#turn-panel").scroll_into_view_if_needed()
        assert page.evaluate(UNCOVERED_JS, "#turn-panel button") == []
    viewport = page.viewport_size
    assert viewport is not None
    box = page.locator(f"#{menu} form").first.bounding_box()
    assert box is not None
    assert box["x"] >= 0  # on the screen, the first seat's too
    assert box["x"] + box["width"] <= viewport["width"]
    page.locator(f"#{menu} summary").tap()
