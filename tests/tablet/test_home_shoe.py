"""A home-game table dealt from a card-reading shoe, on the dealer tablet: the shoe reports the deal and each draw's
replacements while the dealer runs the hand, the one-second poll shows every card and every refused report without a
tap ("3 of 10 cards read", a misread), and the hand ends in its result, for every variant."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect
from rest_framework.test import APIClient

from casino.engine.cards import ALL_CARDS
from tables.models import Table
from tables.services.devices import device_create
from tests.tablet import home_support
from tests.tablet.home_support import act, draw, home_game, tap, turn

home_tablet, shots = home_support.home_tablet, home_support.shots

pytestmark = [pytest.mark.browser, pytest.mark.slow]


class Shoe:
    """The table's shoe: a shuffled deck it deals from, reported with its device token."""

    def __init__(self, table: Table, floor: User) -> None:
        _, self.token = device_create(table=table, name="shoe 1", actor=floor)
        self.deck = [str(card) for card in ALL_CARDS]
        random.Random(11).shuffle(self.deck)

    def post(self, cards: list[str]) -> Any:
        return APIClient().post("/api/v1/shoe/cards/", {"cards": cards}, format="json",
                                HTTP_AUTHORIZATION=f"Device {self.token}")

    def deal(self, count: int) -> None:
        cards, self.deck = self.deck[:count], self.deck[count:]
        assert self.post(cards).status_code == 200


def discard(page: Page, count: int) -> str:
    """The first `count` of the drawing player's cards, as the draw form shows them."""
    cards = page.locator("form.draw-form label.card").evaluate_all("labels => labels.map(l => l.dataset.card)")
    return " ".join(cards[:count])


@pytest.mark.parametrize(("variant", "exchange", "rules"), [
    ("five-card-draw", 1, {}),
    ("pregnant-threes", 2, {"draws": 1, "cards_per_draw": 3, "draw": "optional"}),
    ("three-legged-race", 3, {}),
    ("freak-of-nature", 0, {}),
])
def test_a_shoe_table_plays_a_hand_while_the_tablet_follows_the_shoe_without_a_tap(
    home_tablet: Any, shots: Any, floor_user: User, dealer_user: User, variant: str, exchange: int,
    rules: dict[str, Any]
) -> None:
    table, _ = home_game(variant, floor_user, dealer_user, players=[(1, "Ann"), (2, "Bob")], source="shoe",
                         rules=rules)
    shoe = Shoe(table, floor_user)
    page = home_tablet(table)
    tap(page, page.locator("#start-hand"))
    # The button is seat 1: the deal starts with Bob.
    assert turn(page) == "Waiting for the card-reading shoe: the deal"
    expect(page.locator("#turn-panel")).to_contain_text("0 of 10 cards read. Next card: Seat 2 · Bob.")
    expect(page.locator("#next-card")).to_be_visible()
    shoe.deal(3)
    expect(page.locator("#turn-panel")).to_contain_text("3 of 10 cards read. Next card: Seat 1 · Ann.")
    # A misread: the dealer sees it next to the shoe's progress, on the next poll, and nothing was dealt.
    assert shoe.post(["Xx"]).status_code == 400
    expect(page.locator("#shoe-refusal")).to_contain_text("(shoe 1: Xx): bad card 'Xx'")
    expect(page.locator("#turn-panel")).to_contain_text("3 of 10 cards read")
    shots(page, "misread-refused")
    shoe.deal(7)
    expect(page.locator("#turn-title")).to_have_text("Seat 2 · Bob to act")
    expect(page.locator("#shoe-refusal")).to_have_count(0)  # the shoe's next report was accepted
    # A card while the players bet: refused (409), and the dealer is told no card is due.
    assert shoe.post(shoe.deck[:1]).status_code == 409
    expect(page.locator("#shoe-refusal")).to_contain_text(
        "no card is due: the hand awaits seat 2's betting action. Nothing was recorded: check the shoe.")
    shots(page, "card-while-betting-refused")
    act(page, "Check")
    expect(page.locator("#shoe-refusal")).to_have_count(0)  # the hand moved on: the refusal is history
    act(page, "Check")

    for seat, name in ((2, "Bob"), (1, "Ann")):
        assert turn(page).startswith(f"Seat {seat} · {name}: the draw")
        if seat == 2:
            shots(page, "the-draw")
        draw(page, discard(page, exchange))
        if exchange:
            assert turn(page) == f"Waiting for the card-reading shoe: Seat {seat} · {name}'s draw"
            expect(page.locator("#turn-panel")).to_contain_text(
                f"Seat {seat} · {name} gets {exchange} replacement {'card' if exchange == 1 else 'cards'}: "
                f"0 of {exchange} cards read (discarded ")
            if seat == 2:
                shots(page, "waiting-for-the-replacements")
            shoe.deal(exchange)
            expect(page.locator("#turn-title")).not_to_contain_text("Waiting for the card-reading shoe")
    act(page, "Check")
    act(page, "Check")
    expect(page.locator("#headline")).not_to_be_empty()
    # A card between hands (the shoe dealt before the dealer started the hand): refused, and said on the screen.
    assert shoe.post(shoe.deck[:1]).status_code == 409
    expect(page.locator("#shoe-refusal")).to_contain_text("has no hand in play")
    shots(page, "result-and-a-card-between-hands")


def test_the_floor_voids_a_hand_mid_deal_then_corrects_a_misread_card_and_the_shoe_deals_on(
    home_tablet: Any, shots: Any, floor_user: User, dealer_user: User
) -> None:
    table, _ = home_game("pregnant-threes", floor_user, dealer_user, players=[(1, "Ann"), (2, "Bob")],
                         source="shoe", rules={"draws": 1, "cards_per_draw": 3, "draw": "optional",
                                               "kill_cards": ["Kd"]})
    shoe = Shoe(table, floor_user)
    page = home_tablet(table, "fiona")  # the floor at the table
    tap(page, page.locator("#start-hand"))
    shoe.deal(4)
    expect(page.locator("#turn-panel")).to_contain_text("4 of 10 cards read")
    page.locator("#void-hand summary").tap()
    page.locator("#void-reason").fill("the shoe jammed mid-deal")
    tap(page, page.get_by_role("button", name="Void hand 1: every chip back"))
    expect(page.locator("#void-notice")).to_contain_text("the shoe jammed mid-deal")

    tap(page, page.locator("#start-hand"))
    # The voided hand's button deals again: Bob first, and his first card reads 2♣ (it was really K♦, a kill card).
    shoe.deck = ["2c", "Qs", "4h", "5d", "6s", "7c", "8h", "9d", "Ts", "Jc"]
    expect(page.locator("#turn-panel")).to_contain_text("0 of 10 cards read. Next card: Seat 2 · Bob.")
    shoe.deal(10)
    expect(page.locator("#turn-title")).to_have_text("Seat 2 · Bob to act")
    page.locator("#correct-card summary").tap()
    shots(page, "correct-a-misread-card")
    # A refusal first: the card typed (Q♠) is in Ann's hand; it sits under the form and changes nothing.
    page.locator('label[data-misread="2c"]').tap()
    page.locator("#misread-replacement").fill("Qs")
    page.locator("#misread-reason").fill("the shoe misread Bob's first card")
    tap(page, page.get_by_role("button", name="Correct the card in hand 2"))
    expect(page.locator("#correct-card-error")).to_contain_text("Q♠ was already dealt in hand 2: seat 1 holds it")
    shots(page, "misread-correction-refused")
    page.locator('label[data-misread="2c"]').tap()
    page.locator("#misread-replacement").fill("Kd")  # the kill card: Bob is dead, Ann wins the antes
    tap(page, page.get_by_role("button", name="Correct the card in hand 2"))
    expect(page.locator("#headline")).to_contain_text("Ann")
    expect(page.locator("#seat-2")).to_contain_text("Dead")
    # The screen says why Bob is dead: the floor's correction, by whom and why (probe8 item 7).
    expect(page.locator("#rulings")).to_have_text(
        "Hand 2 corrected by the floor (fiona): the card the shoe read as 2\u2663 was K\u2666, in Seat 2 \u00b7 Bob's "
        "hand; the hand was played again from its start. Reason: the shoe misread Bob's first card.")
    shots(page, "misread-corrected-kill-card")
    # The next hand: the shoe deals on.
    tap(page, page.locator("#start-hand"))
    shoe.deck = [str(card) for card in ALL_CARDS][:10]
    shoe.deal(10)
    expect(page.locator("#turn-title")).to_contain_text("to act")
