"""A late network retry of a shoe's last report of a round (or home hand), arriving once the next one is in play with
no card from the shoe yet: refused (409 `round_unclear` / `hand_unclear`), nothing dealt, nothing recorded as dealt;
the same card named for the new round, or arriving after the retry window, is a new card and is dealt."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from audit.models import AuditEvent
from casino.engine.shoe_order import RETRY_WINDOW_SECONDS
from tables.models import HomeHand, SeatHand, Table, TableDevice
from tests.tables.helpers import ok, settle_now
from tests.tables.home_shoe import Shoe, act, start, state
from tests.tables.shoe_support import DEAL, ROWS, TripleDrawShoe
from tests.tables.test_home_shoe import refused

pytestmark = pytest.mark.django_db


def played_then_next_round(shoe: TripleDrawShoe) -> int:
    """The shoe deals a whole round (its last report ROWS[7:]), the round settles, the next one's bets close."""
    ok(shoe.post(DEAL))
    shoe.hold_all()
    ok(shoe.post(ROWS[:7]))
    ok(shoe.post(ROWS[7:]))
    played = shoe.round_id
    settle_now(played)
    shoe.next_round()
    return played


def after_the_window(device: TableDevice) -> None:
    """The device's last report was accepted just over the retry window ago."""
    earlier = timezone.now() - timedelta(seconds=RETRY_WINDOW_SECONDS + 1)
    TableDevice.objects.filter(pk=device.pk).update(last_used_at=earlier)


def test_a_late_retry_of_the_last_rounds_last_report_is_refused_and_deals_nothing(shoe: TripleDrawShoe) -> None:
    played = played_then_next_round(shoe)
    device = TableDevice.objects.get(pk=shoe.device.pk)
    assert device.last_report == {"round_id": played, "cards": ROWS[7:]}
    before = shoe.snapshot()
    dealt_events = AuditEvent.objects.filter(action="shoe_cards_record").count()
    for retry in (ROWS[7:], ROWS[-1:]):  # the whole report, or the shoe reading its last card twice
        answer = shoe.post(retry)
        assert answer.status_code == 409, answer.content
        error = answer.json()["error"]
        assert error["code"] == "round_unclear"
        assert f"for round id {played}, and round 2 (id {shoe.round_id}) has none from it yet" in error["message"]
        assert error["message"].endswith(f'if they are new, the shoe sends them again with "round": {shoe.round_id}')
    assert shoe.snapshot()[:5] == before[:5]  # the new round, its cards: nothing dealt
    assert AuditEvent.objects.filter(action="shoe_cards_record").count() == dealt_events
    refusal = AuditEvent.objects.filter(action="shoe_cards_refuse").latest("id")
    assert (refusal.round_id, refusal.after["code"], refusal.after["cards"]) == (shoe.round_id, "round_unclear",
                                                                                 ROWS[-1:])
    assert TableDevice.objects.get(pk=shoe.device.pk).last_report == device.last_report
    # The dealer's tablet says what the refusal means at the table.
    tablet = Client()
    tablet.force_login(User.objects.get(username="dave"))
    screen = tablet.get(f"/tablet/tables/{shoe.table.pk}/").content.decode()
    assert ("if no card of this round is on the felt yet, nothing is missing (a late retry of the last round's "
            "report)") in screen
    # The retry naming its own round is not dealt into the round in play either.
    assert shoe.post(ROWS[7:], round=played).json()["error"]["code"] == "round_moved_on"
    assert not SeatHand.objects.filter(round_id=shoe.round_id).exclude(dealt=[]).exists()


def test_the_same_card_named_for_the_new_round_is_dealt(shoe: TripleDrawShoe) -> None:
    played_then_next_round(shoe)
    answer = ok(shoe.post(ROWS[-1:], round=shoe.round_id))
    assert (answer["repeated"], answer["round"]) == (False, shoe.round_id)
    assert SeatHand.objects.get(round_id=shoe.round_id, seat_number=1).dealt == ROWS[-1:]
    assert TableDevice.objects.get(pk=shoe.device.pk).last_report == {"round_id": shoe.round_id, "cards": ROWS[-1:]}
    # Now the shoe's last report is this round's: the same card again is a retry within the round, repeated.
    assert ok(shoe.post(ROWS[-1:]))["repeated"] is True


def test_the_same_card_after_the_retry_window_is_dealt_as_the_new_rounds_first(shoe: TripleDrawShoe) -> None:
    played_then_next_round(shoe)
    after_the_window(shoe.device)
    answer = ok(shoe.post(ROWS[-1:]))
    assert (answer["repeated"], answer["round"], answer["cards_due"]) == (False, shoe.round_id, 9)
    assert SeatHand.objects.get(round_id=shoe.round_id, seat_number=1).dealt == ROWS[-1:]
    assert AuditEvent.objects.filter(action="shoe_cards_record", round_id=shoe.round_id).count() == 1


def test_another_card_first_in_the_new_round_is_dealt_within_the_window(shoe: TripleDrawShoe) -> None:
    played_then_next_round(shoe)
    # Cards of the last report, but not its last ones in order: they cannot be its retry.
    answer = ok(shoe.post([ROWS[-2], DEAL[0]]))
    assert answer["repeated"] is False
    assert [h for h in SeatHand.objects.filter(round_id=shoe.round_id).order_by("seat_number")
            .values_list("dealt", flat=True)] == [[ROWS[-2]], [DEAL[0]]]


ShoeHand = tuple[Table, Shoe, dict[str, Any]]


def folded_then_next_hand(table: Table, shoe: Shoe, hand: dict[str, Any],
                          dealer_api: APIClient) -> tuple[list[str], dict[str, Any]]:
    """The shoe deals the hand (its last report the deal's last two cards), two players fold, the next hand starts."""
    ok(shoe.post(shoe.next(13)))
    last = shoe.next(2)
    ok(shoe.post(last))
    hand = state(dealer_api, hand)
    for _ in range(2):
        hand = act(dealer_api, hand, hand["awaiting"]["seat"], "fold")
    assert hand["status"] == "settled"
    following = ok(dealer_api.post(f"/api/v1/games/{hand['game_id']}/hands/", {}, format="json"), 201)
    return last, following


@pytest.fixture
def home_shoe(home_table: Callable[..., Table], floor_user: User, dealer_api: APIClient) -> ShoeHand:
    table = home_table("five-card-draw", source="shoe")
    shoe = Shoe(table, floor_user)
    return table, shoe, start(dealer_api, table)


def test_a_late_retry_of_the_last_hands_last_report_is_refused_and_deals_nothing(
    home_shoe: ShoeHand, dealer_api: APIClient
) -> None:
    table, shoe, hand = home_shoe
    last, following = folded_then_next_hand(table, shoe, hand, dealer_api)
    before = (state(dealer_api, following), HomeHand.objects.get(pk=following["id"]).version)
    dealt_events = AuditEvent.objects.filter(action="home_hand_cards").count()
    for retry in (last, last[1:]):
        error = refused(shoe.post(retry), 409, "hand_unclear")
        assert f"for hand id {hand['id']}, and hand 2 (id {following['id']}) has none from it" in error["message"]
    assert (state(dealer_api, following), HomeHand.objects.get(pk=following["id"]).version) == before
    assert AuditEvent.objects.filter(action="home_hand_cards").count() == dealt_events
    assert AuditEvent.objects.filter(action="shoe_cards_refuse").latest("id").after["hand_id"] == following["id"]
    tablet = Client()
    tablet.force_login(User.objects.get(username="dave"))
    screen = tablet.get(f"/tablet/tables/{table.pk}/", follow=True).content.decode()
    assert ("if no card of this hand is on the felt yet, nothing is missing (a late retry of the last hand's "
            "report)") in screen
    refused(shoe.post(last, hand=hand["id"]), 409, "hand_moved_on")
    assert state(dealer_api, following)["card_progress"]["received"] == 0


def test_the_same_card_named_for_the_new_hand_is_dealt(home_shoe: ShoeHand, dealer_api: APIClient) -> None:
    table, shoe, hand = home_shoe
    last, following = folded_then_next_hand(table, shoe, hand, dealer_api)
    answer = ok(shoe.post(last[1:], hand=following["id"]))
    assert (answer["repeated"], answer["hand"]) == (False, following["id"])
    assert state(dealer_api, following)["card_progress"]["received"] == 1
    assert TableDevice.objects.get(pk=shoe.device.pk).last_report == {"hand_id": following["id"], "cards": last[1:]}


def test_the_same_card_after_the_retry_window_is_dealt_as_the_new_hands_first(
    home_shoe: ShoeHand, dealer_api: APIClient
) -> None:
    table, shoe, hand = home_shoe
    last, following = folded_then_next_hand(table, shoe, hand, dealer_api)
    after_the_window(shoe.device)
    answer = ok(shoe.post(last[1:]))
    assert (answer["repeated"], answer["hand"]) == (False, following["id"])
    assert state(dealer_api, following)["card_progress"]["received"] == 1
    assert AuditEvent.objects.filter(action="home_hand_cards", object_id=str(following["id"])).count() == 1
