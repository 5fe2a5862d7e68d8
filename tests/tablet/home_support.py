"""What the home-game tablet tests share: a table with a game open, stacked decks for rng tables, taps that wait for
the screen's answer, and screenshots at both tablet sizes checked for 48 px targets and axe-core violations."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from casino.engine.cards import ALL_CARDS, Card, parse_cards
from tables.models import HomeGame, HomeHand, Table
from tables.services.home_games import game_open
from tables.services.home_hands import hand_act, hand_start
from tests.tables.conftest import open_home_table
from tests.tablet.conftest import ARTIFACTS, SIZES, sign_in, small_touch_targets
from tests.tablet.test_csp import WATCH_CSP

# axe-core 4.10.3 from the npm registry (`npm pack axe-core@4.10.3`, MPL-2.0, LICENSE beside it), never a CDN.
AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
AXE_RUN_JS = """async () => {
  if (typeof axe === 'undefined') { return ['axe-core is not loaded']; }
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => `${v.id} (${v.impact}): ${v.nodes.map(n => n.target.join(' ')).slice(0, 5).join(', ')}`);
}"""


def home_game(variant: str, floor: User, dealer: User, *, players: Sequence[tuple[int, str]],
              source: str = "rng", rules: dict[str, Any] | None = None, buy_in_cents: int = 20_000,
              **config: Any) -> tuple[Table, HomeGame]:
    """An open home-game table (Dave deals it) with a game open and `players` seated, each bought in."""
    table = open_home_table(f"{variant} {source}", variant, floor, dealer, source=source, rules=rules, **config)
    game = game_open(table=table, actor=dealer,
                     players=[{"seat": seat, "name": name, "buy_in_cents": buy_in_cents} for seat, name in players])
    return table, game


def manual_showdown(variant: str, floor: User, dealer: User, *,
                    players: Sequence[tuple[int, str]] = ((1, "Ann"), (2, "Bob")), drawn: int = 0, **rules: Any,
                    ) -> tuple[Table, HomeGame, HomeHand]:
    """A manual table where `players` (Ann at seat 1 and Bob at seat 2 unless given; the last seat has the button)
    played a hand of one draw to its showdown, checking and each drawing `drawn` cards (standing pat unless given):
    the hands shown are still to be recorded, seat 1's first."""
    table, game = home_game(variant, floor, dealer, players=players, source="manual", rules=rules or None)
    seats = [seat for seat, _ in players]
    hand = hand_start(game=game.pk, actor=dealer, button=seats[-1])
    requests = [{"seat": None, "action": "dealt"}, *({"seat": s, "action": "check"} for s in seats),
                *({"seat": s, "action": "draw", "count": drawn} for s in seats), *({"seat": s, "action": "check"}
                                                                                for s in seats)]
    for request in requests:
        hand_act(hand=hand.pk, actor=dealer, **request)
    return table, game, hand


def stacked_deck(deal_order: Sequence[int], hands: dict[int, str], *replacements: str) -> list[Card]:
    """A deck dealing `hands` (seat -> five cards) one card at a time in `deal_order` (the seats clockwise from the
    button's left), then the draw replacements in drawing order, then every other card."""
    dealt = {seat: parse_cards(cards) for seat, cards in hands.items()}
    top = [dealt[seat][index] for index in range(5) for seat in deal_order]
    for cards in replacements:
        top += parse_cards(cards)
    return top + [card for card in ALL_CARDS if card not in top]


@pytest.fixture
def decks(monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """decks(deck, deck, ...): the next hands an rng table deals use these decks instead of the system's shuffle
    (the live server runs in this process, so the services see the patch)."""

    def use(*stacked: list[Card]) -> None:
        queue: Iterator[list[Card]] = iter(stacked)
        monkeypatch.setattr("tables.services.home_hands.shuffled_deck", lambda: list(next(queue)))

    return use


@pytest.fixture
def home_tablet(browser: Any, live_server: Any) -> Iterator[Callable[..., Page]]:
    """A signed-in touch tablet (landscape) on a table's screen, with axe-core loaded into every page."""
    contexts: list[Any] = []

    def open_table(table: Table, username: str = "dave") -> Page:
        context = browser.new_context(viewport=SIZES["landscape"], has_touch=True, base_url=live_server.url,
                                      locale="en-US")
        context.set_default_timeout(10_000)
        # Injected through the DevTools protocol before any page script, so the Content-Security-Policy allows it.
        context.add_init_script(path=str(AXE))
        context.add_init_script(WATCH_CSP)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda message: errors.append(message.text) if message.type == "error"
                and not message.text.startswith("Failed to load resource") else None)
        page.console_errors = errors  # type: ignore[attr-defined]  # read by shots()
        sign_in(page, username)
        page.get_by_role("link", name=re.compile(re.escape(table.name))).tap()
        expect(page.locator("#home-hand")).to_be_visible()
        return page

    yield open_table
    for context in contexts:
        context.close()


def serious_accessibility_violations(page: Page) -> list[str]:
    return list(page.evaluate(AXE_RUN_JS))


@pytest.fixture
def shots(request: pytest.FixtureRequest) -> Callable[[Page, str], None]:
    """shots(page, "betting"): artifacts/tablet/<test>/<n>-<step>-<size>.png at 1280x800 and 800x1280; at each size
    every touch target is at least 48 px each way and axe-core finds no serious or critical violation."""
    folder = ARTIFACTS / request.node.originalname
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True, exist_ok=True)
    counter = iter(range(1, 1000))

    def save(page: Page, step: str) -> None:
        number = next(counter)
        for size_name, size in SIZES.items():
            page.set_viewport_size(size)
            page.screenshot(path=str(folder / f"{number:02d}-{step}-{size_name}.png"), full_page=True)
            small = small_touch_targets(page)
            assert not small, f"{step} at {size_name}: {small}"
            violations = serious_accessibility_violations(page)
            assert not violations, f"{step} at {size_name}: {violations}"
        # The Content-Security-Policy holds: no violation reported, no script error, on every page so far.
        assert page.evaluate("window.__csp || []") == [], step
        assert getattr(page, "console_errors", []) == [], step
        page.set_viewport_size(SIZES["landscape"])

    return save


def version(page: Page) -> str:
    return page.locator("#home-hand").get_attribute("data-version") or ""


def tap(page: Page, locator: Any) -> None:
    """Tap a control and wait until the screen shows the server's answer (a new version, or an error)."""
    # No wait for the 1 s poll first: a tap may cross a poll on the wire, as a dealer's does (test_tap_and_poll.py).
    before = version(page)
    answers: list[str] = []
    listen = lambda response: answers.append(f"{response.status} {response.url}")  # noqa: E731
    page.on("response", listen)
    locator.tap()
    try:
        page.wait_for_function(
            """(before) => { const s = document.querySelector('#home-hand');
                 return s && !document.querySelector('#home-hand form.htmx-request')
                   && (s.dataset.version !== before || [...s.querySelectorAll('.error')].some(e => e.textContent.trim())
                       || s.querySelector('#confirm-ace, #confirm-fold, #confirm-muck, #confirm-kill')); }""",
            arg=before,
        )
    except PlaywrightTimeout:
        # Say what the screen shows instead of only that it did not change: which answers came, and what the
        # connection banner and the screen say.
        seen = page.evaluate("""() => ({version: document.querySelector('#home-hand')?.dataset.version,
            busy: [...document.querySelectorAll('.htmx-request')].map(e => e.outerHTML.slice(0, 120)),
            banner: document.getElementById('connection')?.textContent, scroll: window.scrollY})""")
        raise AssertionError(f"no answer on screen to the tap (version {before}): {seen}; answers {answers}") from None
    finally:
        page.remove_listener("response", listen)


def button(page: Page, name: str | re.Pattern[str]) -> Any:
    return page.locator("#home-hand").get_by_role("button", name=name, exact=isinstance(name, str))


def act(page: Page, name: str | re.Pattern[str]) -> None:
    tap(page, button(page, name))


def turn(page: Page) -> str:
    return page.locator("#turn-title").inner_text()


def fold(page: Page) -> None:
    """Fold the player to act: Fold, then the second step's Yes."""
    act(page, "Fold")
    tap(page, page.locator("#fold-yes"))


def discard(page: Page, discards: str) -> None:
    """Tap cards of the hand on screen as discards (a second tap keeps a card again)."""
    for code in discards.split():
        page.locator(f'form.draw-form label.card[data-card="{code}"]').tap()


def expect_draw_refused(page: Page, discards: str, *, button: str, hint: str) -> None:
    """Tap `discards`, a draw the rules refuse: the draw button is disabled and says why, and the hint under it, marked
    illegal, says what to tap."""
    discard(page, discards)
    submit, count = page.locator("#draw-submit"), page.locator("#draw-count")
    expect(submit).to_be_disabled()
    expect(submit).to_have_text(button)
    expect(count).to_have_text(hint)
    expect(count).to_have_class(re.compile(r"\billegal\b"))


def draw(page: Page, discards: str = "") -> None:
    """An rng draw: tap the discarded cards, then the draw button."""
    discard(page, discards)
    tap(page, page.locator("#draw-submit"))


def show(page: Page, seat: int, cards: str) -> None:
    """A manual showdown: choose the seat with its target button, tap its five cards in the picker, record it."""
    page.locator(f'button.show-target[data-target="{seat}"]').tap()
    for code in cards.split():
        page.locator(f'button.hpick[data-card="{code}"]').tap()
    tap(page, page.locator(f'form.show-form[data-seat="{seat}"] button.show-submit'))
