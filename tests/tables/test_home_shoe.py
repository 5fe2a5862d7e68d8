"""A card-reading shoe on a home-game table, as a real shoe behaves: every variant dealt and drawn card by card, and
what a shoe does wrong (a card when none is due, a card already dealt, a malformed code, too many cards, a network
retry, another table's shoe, a revoked token), each answered with a clear error that changes nothing."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from audit.models import AuditEvent
from tables.models import HomeHand, Table
from tables.services.devices import device_revoke
from tables.services.tables import table_update
from tests.tables.conftest import client_for
from tests.tables.helpers import ok
from tests.tables.home_shoe import DEAL, Shoe, act, check_or_call, seat_one_draws_two_aces, start, state
from tests.tables.test_home_services import balanced, seat_players

ShoeHand = tuple[Table, Shoe, dict[str, Any]]


@pytest.fixture
def shoe_hand(
    home_table: Callable[..., Table], floor_user: User, dealer_api: APIClient
) -> Callable[..., ShoeHand]:
    """shoe_hand("pregnant-threes", players=..., name="shoe A", rules={...}): a shoe table (five-card draw unless
    told), its shoe, and the first hand of a game of three there."""

    def make(variant: str = "five-card-draw", players: list[dict[str, Any]] | None = None, name: str = "shoe 1",
             **options: Any) -> ShoeHand:
        table = home_table(variant, source="shoe", **options)
        shoe = Shoe(table, floor_user, name=name)
        return table, shoe, start(dealer_api, table, players)

    return make


def refused(answer: Any, status: int, code: str) -> dict[str, Any]:
    assert answer.status_code == status, answer.content
    error: dict[str, Any] = answer.json()["error"]
    assert error["code"] == code, error
    return error


def test_the_shoe_deals_every_card_and_is_told_what_comes_next(
    shoe_hand: Callable[..., ShoeHand], dealer_api: APIClient
) -> None:
    _, shoe, hand = shoe_hand()
    assert hand["card_progress"] == {"received": 0, "of": 15}
    answer = ok(shoe.post(shoe.next(3)))
    assert answer["cards_due"] == 12
    assert answer["awaiting"]["kind"] == "card"
    assert answer["repeated"] is False
    assert state(dealer_api, hand)["card_progress"] == {"received": 3, "of": 15}


def test_a_network_retry_of_an_accepted_report_is_answered_again_and_records_nothing(
    shoe_hand: Callable[..., ShoeHand], dealer_api: APIClient
) -> None:
    _, shoe, hand = shoe_hand()
    sent = shoe.next(2)
    ok(shoe.post(sent))
    before = state(dealer_api, hand)
    events = AuditEvent.objects.count()
    again = ok(shoe.post(sent))
    assert again["repeated"] is True
    assert again["cards_due"] == 13
    assert state(dealer_api, hand) == before
    assert AuditEvent.objects.count() == events
    # A report that only overlaps the last one is a card dealt twice: refused, naming who holds it.
    error = refused(shoe.post([sent[1], shoe.deck[0]]), 400, "card_already_seen")
    assert error["message"].endswith("(seat 2 holds it) (rule: a deck holds each card once)")
    assert error["field"] == "cards"
    # Once the deal is over (betting), a late retry of the deal's last card still changes nothing.
    ok(shoe.post(shoe.next(12)))
    last = shoe.next(1)
    ok(shoe.post(last))
    before = state(dealer_api, hand)
    assert ok(shoe.post(last))["repeated"] is True
    assert state(dealer_api, hand) == before


def test_more_cards_than_the_deal_or_a_draw_awaits_are_refused_and_nothing_is_dealt(
    shoe_hand: Callable[..., ShoeHand], dealer_api: APIClient
) -> None:
    _, shoe, hand = shoe_hand()
    error = refused(shoe.post(shoe.deck[:16]), 400, "too_many_cards")
    assert error["message"] == "16 cards sent, but the deal awaits 15 more"
    assert state(dealer_api, hand)["card_progress"] == {"received": 0, "of": 15}
    ok(shoe.post(shoe.next(15)))
    for seat in (1, 2, 3):
        act(dealer_api, hand, seat, "check")
    held = state(dealer_api, hand)["players"][0]["cards"]
    hand = act(dealer_api, hand, 1, "draw", cards=held[:2])
    assert hand["card_progress"] == {"received": 0, "of": 2}
    error = refused(shoe.post(shoe.deck[:3]), 400, "too_many_cards")
    assert error["message"] == "3 cards sent, but seat 1's draw awaits 2 more"
    ok(shoe.post(shoe.next(1)))
    assert state(dealer_api, hand)["card_progress"] == {"received": 1, "of": 2}


def test_a_card_when_none_is_due_is_409_changes_nothing_and_is_audited_as_the_devices(
    home_table: Callable[..., Table], floor_user: User, dealer_api: APIClient, compliance_user: User
) -> None:
    table = home_table("freak-of-nature", source="shoe")
    shoe = Shoe(table, floor_user, name="shoe A")
    game = ok(dealer_api.post(f"/api/v1/tables/{table.pk}/games/", {"players": seat_players(3)}, format="json"), 201)
    error = refused(shoe.post(["2c"]), 409, "no_hand")  # between hands
    assert "no hand in play" in error["message"]
    hand = ok(dealer_api.post(f"/api/v1/games/{game['id']}/hands/", {"button": 3}, format="json"), 201)
    ok(shoe.post(shoe.next(15)))
    before = state(dealer_api, hand)
    refused(shoe.post(shoe.deck[:1]), 409, "no_card_due")  # during the betting
    refused(shoe.post(["Zz"]), 400, "bad_card")
    assert state(dealer_api, hand) == before
    event = AuditEvent.objects.filter(action="shoe_cards_refuse").order_by("-id").first()
    assert event is not None
    assert event.actor_kind == "device"
    assert event.actor_username == f"device:{table.name}/shoe A"
    assert event.after["code"] == "bad_card"
    assert event.after["cards"] == ["Zz"]
    assert event.after["hand"] == 1
    assert AuditEvent.objects.filter(action="shoe_cards_refuse", table_id=table.pk).count() == 3
    # Compliance reads them on the hand's timeline, and the one between hands on the game's.
    compliance_api = client_for(compliance_user)
    hand_events = ok(compliance_api.get(f"/api/v1/audit/hands/{hand['id']}/"))["events"]
    assert [e["action"] for e in hand_events].count("shoe_cards_refuse") == 2
    game_events = ok(compliance_api.get(f"/api/v1/audit/games/{game['id']}/"))["events"]
    assert [e["action"] for e in game_events].count("shoe_cards_refuse") == 3


def test_the_shoe_of_a_table_not_dealt_from_a_shoe_and_a_revoked_shoe_are_refused(
    home_table: Callable[..., Table], shoe_hand: Callable[..., ShoeHand], floor_user: User, dealer_api: APIClient
) -> None:
    # A shoe issued while the table dealt from a shoe; the floor then switched the table to the system's shuffle.
    rng_table = home_table("five-card-draw", source="shoe")
    wrong = Shoe(rng_table, floor_user)
    table_update(table=rng_table, actor=floor_user, card_source="rng")
    hand = start(dealer_api, rng_table)
    before = state(dealer_api, hand)
    refused(wrong.post(["2c"]), 400, "not_a_shoe_table")
    assert state(dealer_api, hand) == before
    _, shoe, _ = shoe_hand()
    device_revoke(device=shoe.device, actor=floor_user)
    refused(shoe.post(shoe.next(1)), 403, "bad_device_token")


@pytest.mark.parametrize(("variant", "rules"), [
    ("five-card-draw", {}),
    ("pregnant-threes", {"draws": 2, "cards_per_draw": 3, "draw": "mandatory"}),
    ("three-legged-race", {}),
    ("freak-of-nature", {}),
])
def test_every_variant_plays_a_hand_to_its_result_with_the_shoe_dealing_and_drawing(
    shoe_hand: Callable[..., ShoeHand], dealer_api: APIClient, variant: str, rules: dict[str, Any]
) -> None:
    _, shoe, hand = shoe_hand(variant, players=seat_players(4), rules=rules)
    while hand["status"] == "in_play":
        awaiting = hand["awaiting"]
        if awaiting["kind"] == "card":
            due = ok(shoe.post(shoe.next(hand["card_progress"]["of"] - hand["card_progress"]["received"])))
            assert due["cards_due"] == 0
        elif awaiting["kind"] == "action":
            check_or_call(dealer_api, hand)
        else:
            held = next(p["cards"] for p in hand["players"] if p["seat"] == awaiting["seat"])
            act(dealer_api, hand, awaiting["seat"], "draw", cards=held[:hand["draw"]["maximum"]])
        hand = state(dealer_api, hand)
    assert hand["status"] == "settled"
    assert hand["result"]["lines"]
    balanced(HomeHand.objects.get(pk=hand["id"]).game)


def test_a_stock_that_runs_out_at_a_draw_is_reshuffled_from_the_discards_and_the_shoe_deals_them(
    shoe_hand: Callable[..., ShoeHand], dealer_api: APIClient
) -> None:
    # Five players, two mandatory draws of three: 27 cards in the stock, 30 replacements.
    _, shoe, hand = shoe_hand("pregnant-threes", players=seat_players(5),
                              rules={"draws": 2, "cards_per_draw": 3, "draw": "mandatory"})
    discarded: list[str] = []
    last_discards: list[str] = []
    while hand["status"] == "in_play":
        awaiting = hand["awaiting"]
        if awaiting["kind"] == "reshuffle":
            assert awaiting["text"] == f"the reshuffled stock for seat {awaiting['seat']}'s draw"
            # The discards so far, except the drawing player's own (DESIGN 7), are shuffled into the new stock.
            shoe.deck = [card for card in discarded if card not in last_discards]
            random.Random(3).shuffle(shoe.deck)
            discarded = list(last_discards)
            ok(shoe.post(shoe.next(awaiting["count"])))
        elif awaiting["kind"] == "card":
            ok(shoe.post(shoe.next(hand["card_progress"]["of"] - hand["card_progress"]["received"])))
        elif awaiting["kind"] == "action":
            check_or_call(dealer_api, hand)
        else:
            held = next(p["cards"] for p in hand["players"] if p["seat"] == awaiting["seat"])
            discarded += held[:3]
            last_discards = held[:3]
            act(dealer_api, hand, awaiting["seat"], "draw", cards=held[:3])
        hand = state(dealer_api, hand)
    assert hand["status"] == "settled"
    exported = HomeHand.objects.get(pk=hand["id"]).record
    assert len(exported["reshuffles"]) == 1


def test_the_floor_corrects_a_misread_card_before_the_pot_is_awarded_and_the_shoe_deals_on(
    shoe_hand: Callable[..., ShoeHand], dealer_api: APIClient, floor_api: APIClient, assert_audited: Any
) -> None:
    table, shoe, hand = shoe_hand(rules={"kill_cards": ["Kd"]})
    # The deal goes seat 1, 2, 3, ...: the shoe reads seat 2's first card as Q♠, which was really K♦ (a kill card).
    ok(shoe.post(DEAL[:14]))
    url = f"/api/v1/hands/{hand['id']}/correct-card/"
    body = {"card": "Qs", "replacement": "Kd", "reason": "the shoe misread seat 2's first card"}
    assert dealer_api.post(url, body, format="json").status_code == 403  # the floor's ruling, not the dealer's
    refused(floor_api.post(url, {**body, "reason": " "}, format="json"), 400, "blank")
    refused(floor_api.post(url, {**body, "card": "Ah"}, format="json"), 400, "card_not_dealt")
    error = refused(floor_api.post(url, {**body, "replacement": "4h"}, format="json"), 400, "card_already_seen")
    assert error["field"] == "replacement"
    assert "seat 3 holds it" in error["message"]
    refused(floor_api.post(url, {**body, "replacement": "K?"}, format="json"), 400, "bad_card")
    before = state(dealer_api, hand)
    corrected = ok(floor_api.post(url, body, format="json"))
    assert corrected["corrected"] is True
    seat_two = next(p for p in corrected["players"] if p["seat"] == 2)
    assert seat_two["cards"][0] == "Kd"
    assert seat_two["dead"] is True  # the kill card follows the correction
    assert corrected["card_progress"] == before["card_progress"]  # the deal goes on where it was
    assert_audited("home_hand_correct", table_id=table.pk, reason="the shoe misread seat 2's first card")
    stored = HomeHand.objects.get(pk=hand["id"])
    assert stored.original_record["deck"][1] == "Qs"
    assert stored.record["deck"][1] == "Kd"
    # The shoe deals the deal's last card; Q♠ is back in the stock, so it may come later.
    ok(shoe.post(DEAL[14:]))
    assert state(dealer_api, hand)["phase"] == "betting"
    balanced(stored.game)


def test_a_card_of_a_hand_the_system_dealt_is_not_corrected_as_a_misread(
    home_table: Callable[..., Table], dealer_api: APIClient, floor_api: APIClient
) -> None:
    hand = start(dealer_api, home_table("five-card-draw"))
    dealt = hand["players"][0]["cards"][0]
    answer = floor_api.post(f"/api/v1/hands/{hand['id']}/correct-card/",
                            {"card": dealt, "replacement": "2c", "reason": "x"}, format="json")
    refused(answer, 400, "not_a_shoe_hand")


def test_a_misread_card_already_discarded_is_renamed_in_the_draw_too(
    shoe_hand: Callable[..., ShoeHand], dealer_api: APIClient, floor_api: APIClient
) -> None:
    _, shoe, hand = shoe_hand()
    seat_one_draws_two_aces(dealer_api, shoe, hand)
    corrected = ok(floor_api.post(f"/api/v1/hands/{hand['id']}/correct-card/",
                                  {"card": "2c", "replacement": "2h", "reason": "misread deuce"}, format="json"))
    assert corrected["actions"][3] == "1 draw 2h 5d"
    assert corrected["awaiting"] == {"kind": "draw", "seat": 2, "count": 0, "seats": [], "text": "seat 2's draw"}
    assert next(p for p in corrected["players"] if p["seat"] == 1)["cards"] == ["8h", "Jc", "5s", "Ac", "Ad"]


def test_a_shoe_naming_another_table_or_a_hand_that_is_over_is_refused_and_nothing_is_dealt(
    home_table: Callable[..., Table], shoe_hand: Callable[..., ShoeHand], dealer_api: APIClient,
    floor_api: APIClient
) -> None:
    table, shoe, hand = shoe_hand()
    other = home_table("five-card-draw", source="shoe")
    sent = shoe.next(2)
    answer = shoe.client.post("/api/v1/shoe/cards/", {"cards": sent, "table": other.pk}, format="json",
                              HTTP_AUTHORIZATION=f"Device {shoe.token}")
    error = refused(answer, 403, "wrong_table")
    assert f"token is for table {table.name} (id {table.pk}), not table id {other.pk}" in error["message"]
    assert state(dealer_api, hand)["card_progress"] == {"received": 0, "of": 15}
    post = lambda body: shoe.client.post("/api/v1/shoe/cards/", body, format="json",  # noqa: E731
                                         HTTP_AUTHORIZATION=f"Device {shoe.token}")
    ok(post({"cards": sent, "table": table.pk, "hand": hand["id"]}))
    # The floor voids the hand; a late retry for it must not be dealt into the next hand.
    ok(floor_api.post(f"/api/v1/hands/{hand['id']}/void/", {"reason": "the shoe jammed"}, format="json"))
    game_id = hand["game_id"]
    following = ok(dealer_api.post(f"/api/v1/games/{game_id}/hands/", {}, format="json"), 201)
    error = refused(post({"cards": sent, "hand": hand["id"]}), 409, "hand_moved_on")
    assert f"the hand in play is hand 2 (id {following['id']})" in error["message"]
    assert state(dealer_api, following)["card_progress"] == {"received": 0, "of": 15}


def test_the_floor_reads_a_shoes_last_refused_report_in_the_device_list(
    shoe_hand: Callable[..., ShoeHand], floor_user: User
) -> None:
    from django.test import Client

    _, shoe, _ = shoe_hand(name="shoe Z")
    shoe.post(["Zz"])
    client = Client()
    client.force_login(floor_user)
    listing = client.get("/admin/tables/tabledevice/").content.decode()
    assert "Zz: bad card &#x27;Zz&#x27;: unknown rank &#x27;Z&#x27;" in listing


def test_correcting_an_action_of_a_shoe_hand_may_not_move_a_card_the_shoe_already_dealt_to_another_seat(
    shoe_hand: Callable[..., ShoeHand], dealer_api: APIClient, floor_api: APIClient
) -> None:
    _, shoe, hand = shoe_hand()
    seat_one_draws_two_aces(dealer_api, shoe, hand)  # both aces to seat 1, at the table
    before = state(dealer_api, hand)
    correct = f"/api/v1/hands/{hand['id']}/correct/"
    # Seat 1 "drew one": A♦ would then go to seat 2's draw, but it is in seat 1's hand.
    error = refused(floor_api.post(correct, {"index": 3, "action": "1 draw 2c", "reason": "drew one"},
                                   format="json"), 400, "bad_correction")
    assert "A♦" in error["message"]
    assert "seat 1" in error["message"]
    assert state(dealer_api, hand) == before
    # The same count with other discards moves no card: allowed.
    corrected = ok(floor_api.post(correct, {"index": 3, "action": "1 draw 2c 8h", "reason": "threw the eight"},
                                  format="json"))
    assert next(p for p in corrected["players"] if p["seat"] == 1)["cards"] == ["5d", "Jc", "5s", "Ac", "Ad"]
