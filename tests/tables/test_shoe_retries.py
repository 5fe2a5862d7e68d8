"""A Triple Draw shoe's network retry: a report repeating the round's last recorded cards, in order, is answered as
accepted (`repeated`) and changes nothing, mid-deal, after the report that completed the deal or the rows, and
mid-rows; a genuinely new report is never taken for one. Also a home-game shoe's retry after its card ended the
hand."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from audit.models import AuditEvent
from tables.models import HomeHand, Round, SeatHand, Table
from tests.tables.helpers import bet, ok, settle_now, start
from tests.tables.shoe_support import DEAL, ROWS, TripleDrawShoe
from tests.tables.test_home_shoe import Shoe, refused

pytestmark = pytest.mark.django_db

def assert_repeated(shoe: TripleDrawShoe, cards: list[str], phase: str) -> None:
    before = shoe.snapshot()
    answer = ok(shoe.post(cards))
    assert (answer["repeated"], answer["phase"], answer["round"]) == (True, phase, shoe.round_id)
    assert shoe.snapshot() == before


def test_a_retry_mid_deal_is_repeated_and_changes_nothing(shoe: TripleDrawShoe) -> None:
    first = ok(shoe.post(DEAL[:3]))
    assert (first["repeated"], first["cards_due"]) == (False, 7)
    assert first["awaiting"] == {"kind": "deal", "seat": 2, "row": None, "text": "3 of 10 cards read; next: seat 2"}
    assert_repeated(shoe, DEAL[:3], "dealing")
    assert_repeated(shoe, DEAL[2:3], "dealing")  # the shoe read its last card twice


def test_a_retry_of_the_report_that_completed_the_deal_is_repeated_while_holding_and_drawing(
    shoe: TripleDrawShoe
) -> None:
    ok(shoe.post(DEAL[:4]))
    assert ok(shoe.post(DEAL[4:]))["phase"] == "holding"
    assert_repeated(shoe, DEAL[4:], "holding")
    shoe.hold_all()
    assert_repeated(shoe, DEAL[4:], "drawing")  # no row card laid yet: the deal's cards are still the last


def test_a_retry_mid_rows_and_of_the_report_that_completed_the_rows_is_repeated(shoe: TripleDrawShoe) -> None:
    ok(shoe.post(DEAL))
    shoe.hold_all()
    ok(shoe.post(ROWS[:7]))
    assert_repeated(shoe, ROWS[:7], "drawing")
    assert ok(shoe.post(ROWS[7:]))["phase"] == "settling"
    assert_repeated(shoe, ROWS[7:], "settling")
    settle_now(shoe.round_id)
    assert_repeated(shoe, ROWS[7:], "settled")  # no round in play: the table's last round's last cards
    assert_repeated(shoe, ROWS[-1:], "settled")
    answer = shoe.post(ROWS[7:], round=shoe.round_id)
    assert ok(answer)["repeated"] is True


def test_a_genuinely_new_report_is_never_taken_for_a_retry(shoe: TripleDrawShoe) -> None:
    ok(shoe.post(DEAL[:4]))
    # Cards recorded before, but not the last ones in order: a card dealt twice, refused, nothing dealt.
    for sent in (DEAL[:2], DEAL[2:4][::-1], [DEAL[3], DEAL[4]], [*DEAL[1:4], DEAL[4]]):
        before = shoe.snapshot()
        answer = shoe.post(sent)
        assert answer.status_code == 400, sent
        assert Round.objects.get(pk=shoe.round_id).version == before[0]
    fresh = ok(shoe.post(DEAL[4:6]))
    assert fresh["repeated"] is False
    assert list(SeatHand.objects.filter(round_id=shoe.round_id).order_by("seat_number")
                .values_list("dealt", flat=True)) == [["Js", "Jh", "4c"], ["Ac", "Kc", "Qc"]]
    # After the last round settles, the same cards reported for the next round (naming it) are new: dealt, not
    # repeated (without the round, see test_shoe_late_retry.py).
    ok(shoe.post(DEAL[6:]))
    shoe.hold_all()
    ok(shoe.post(ROWS))
    settle_now(shoe.round_id)
    following = start(shoe.api, shoe.table.pk)
    ok(bet(shoe.api, following, 1, 1000, 1))
    ok(shoe.api.post(f"/api/v1/rounds/{following}/close-bets/"))
    answer = ok(shoe.post(ROWS[-2:], round=following))
    assert (answer["repeated"], answer["round"]) == (False, following)
    assert SeatHand.objects.get(round_id=following, seat_number=1).dealt == ROWS[-2:]


def test_a_retry_of_the_report_whose_card_ended_a_home_hand_is_repeated_not_no_hand(
    home_table: Callable[..., Table], floor_user: User, dealer_api: APIClient
) -> None:
    table = home_table("five-card-draw", source="shoe", rules={"ante_cents": 100, "betting": "no_limit",
                                                                "min_bet_cents": 100})
    shoe = Shoe(table, floor_user)
    players = [{"seat": s, "name": f"P{s}", "buy_in_cents": 1_000} for s in (1, 2)]
    game = ok(dealer_api.post(f"/api/v1/tables/{table.pk}/games/", {"players": players}, format="json"), 201)
    hand = ok(dealer_api.post(f"/api/v1/games/{game['id']}/hands/", {"button": 2}, format="json"), 201)
    url = f"/api/v1/hands/{hand['id']}/actions/"
    ok(shoe.post(shoe.next(10)))
    # Both all in before the draw: the last replacement card ends the hand at the showdown.
    hand = ok(dealer_api.post(url, {"seat": hand["awaiting"]["seat"], "action": "allin"}, format="json"))
    hand = ok(dealer_api.post(url, {"seat": hand["awaiting"]["seat"], "action": "call"}, format="json"))
    for _ in range(2):
        seat = hand["awaiting"]["seat"]
        held = next(p["cards"] for p in hand["players"] if p["seat"] == seat)
        hand = ok(dealer_api.post(url, {"seat": seat, "action": "draw", "cards": held[:1]}, format="json"))
        if hand["awaiting"]["kind"] == "card":
            last = shoe.next(1)
            ok(shoe.post(last))
            hand = ok(dealer_api.get(f"/api/v1/hands/{hand['id']}/"))
    assert hand["status"] == "settled"
    before = (ok(dealer_api.get(f"/api/v1/hands/{hand['id']}/")), AuditEvent.objects.count(),
              HomeHand.objects.get(pk=hand["id"]).version)
    answer = ok(shoe.post(last))
    assert (answer["repeated"], answer["hand"]) == (True, hand["id"])
    assert (ok(dealer_api.get(f"/api/v1/hands/{hand['id']}/")), AuditEvent.objects.count(),
            HomeHand.objects.get(pk=hand["id"]).version) == before
    # Any other card between hands is still refused: no hand in play.
    refused(shoe.post(shoe.next(1)), 409, "no_hand")
