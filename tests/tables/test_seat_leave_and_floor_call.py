"""Issue 14: a player leaving mid-round (the ruling in the README's tablet section) and the dealer's Call floor.

Ruling: until the round's first card is recorded, a leaving player's bets are returned and the seat drops out of
the round (unless it holds the round's only bets, when the floor voids the round instead); from the first card on,
the bets stay in play, the dealer records the hold the player announced, and the seat settles with the round.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from audit.models import AuditEvent
from casino.errors import DomainError, NotAllowed, WrongPhase
from floor.selectors.floor_view import floor_view
from tables.models import Bet, FloorCall, HandOutcome, Round, Seat, SeatHand, Table
from tables.services.bets import bet_place
from tables.services.cards import cards_deal, holds_record, rows_record
from tables.services.floor_calls import floor_call_answer
from tables.services.rounds import round_close_bets, round_floor_call, round_start, round_void
from tables.services.seats import seat_join, seat_leave
from tables.tasks import settle_round

pytestmark = pytest.mark.django_db


def _betting(table: Table, dealer: User, seats: tuple[int, ...]) -> Round:
    rnd = round_start(table=table, actor=dealer)
    for seat in seats:
        bet_place(round=rnd, seat_number=seat, amount_cents=1000, circles=2, actor=dealer)
    return rnd


def test_leaving_while_betting_is_open_returns_the_bets(rng_table: Table, dealer_user: User, assert_audited) -> None:  # type: ignore[no-untyped-def]
    rnd = _betting(rng_table, dealer_user, (1, 2))
    seat_leave(table=rng_table, seat_number=2, actor=dealer_user)
    assert not Bet.objects.filter(round=rnd, seat_number=2).exists()
    assert not Seat.objects.get(table=rng_table, number=2).occupied
    assert_audited("seat_leave", seat_number=2, round_id=rnd.pk)


def test_leaving_after_bets_close_but_before_the_deal_returns_the_bets_and_the_round_goes_on(
    rng_table: Table, dealer_user: User
) -> None:
    rnd = _betting(rng_table, dealer_user, (1, 2))
    round_close_bets(round=rnd, actor=dealer_user)
    seat_leave(table=rng_table, seat_number=2, actor=dealer_user)
    assert not Bet.objects.filter(round=rnd, seat_number=2).exists()
    assert not SeatHand.objects.filter(round=rnd, seat_number=2).exists()
    cards_deal(round=rnd, actor=dealer_user)
    assert list(SeatHand.objects.filter(round=rnd).values_list("seat_number", flat=True)) == [1]


def test_leaving_after_the_deal_keeps_the_bets_in_play_and_they_settle(manual_table: Table, dealer_user: User) -> None:
    rnd = _betting(manual_table, dealer_user, (1, 3))
    round_close_bets(round=rnd, actor=dealer_user)
    cards_deal(
        round=rnd, actor=dealer_user, cards={1: ["As", "Ah", "Kd", "7c", "2s"], 3: ["9c", "9d", "5h", "3s", "Jc"]}
    )
    seat_leave(table=manual_table, seat_number=3, actor=dealer_user)
    assert Bet.objects.filter(round=rnd, seat_number=3).count() == 2
    # The seat cannot be taken by someone else while its bets are still in play.
    with pytest.raises(DomainError, match="still has bets"):
        seat_join(table=manual_table, seat_number=3, actor=dealer_user)
    holds_record(round=rnd, seat_number=1, held=["As", "Ah"], actor=dealer_user)
    holds_record(round=rnd, seat_number=3, held=["9c", "9d"], actor=dealer_user)  # as the player announced
    rows_record(
        round=rnd,
        actor=dealer_user,
        rows=[["Ac", "Kh", "4d", "8s", "6c"], ["Qs", "Qh", "3d", "Td", "8h"], ["5c", "6d", "7h", "8d", "Th"]],
    )
    settle_round.apply(args=[rnd.pk])
    assert HandOutcome.objects.filter(round=rnd, seat_number=3).count() == 2
    assert Round.objects.get(pk=rnd.pk).phase in ("settled", "awaiting_approval")


def test_a_call_for_the_floor_is_audited_and_alerts_the_floor_view(
    manual_table: Table,
    dealer_user: User,
    other_dealer: User,
    floor_user: User,
    assert_audited,  # type: ignore[no-untyped-def]
) -> None:
    rnd = _betting(manual_table, dealer_user, (1,))
    with pytest.raises(NotAllowed):
        round_floor_call(round=rnd, actor=other_dealer)  # not assigned to this table
    round_floor_call(round=rnd, actor=dealer_user, reason="dispute at seat 1")
    assert_audited("round_floor_call", round_id=rnd.pk, actor_username="dave", reason="dispute at seat 1")
    alerts = [alert for tile, alert in floor_view().alerts if tile.table.pk == manual_table.pk]
    assert alerts[0].code == "floor_call"
    assert "dispute at seat 1" in alerts[0].text
    round_void(round=rnd, reason="dispute", actor=floor_user)
    calls = [a.text for t, a in floor_view().alerts if t.table.pk == manual_table.pk and a.code == "floor_call"]
    # The round's end does not answer it: the alert stays, saying what became of the round.
    past = alerts[0].text.replace("Round 1:", "Round 1 (voided):").replace("calls the floor", "called the floor")
    assert calls == [past + ", waiting"]
    floor_call_answer(call=FloorCall.objects.get(round=rnd), actor=floor_user)
    assert [a.code for t, a in floor_view().alerts if t.table.pk == manual_table.pk and a.code == "floor_call"] == []
    _betting(manual_table, dealer_user, (1,))  # the next round: the voided one is no longer the table's to call on
    with pytest.raises(WrongPhase, match="came after it"):
        round_floor_call(round=rnd, actor=dealer_user)


def test_the_api_calls_the_floor_through_the_same_service(
    manual_table: Table, dealer_user: User, floor_user: User, dealer_api: Any
) -> None:
    rnd = _betting(manual_table, dealer_user, (1,))
    response = dealer_api.post(f"/api/v1/rounds/{rnd.pk}/floor-call/", {"reason": "dispute"}, format="json")
    assert response.status_code == 200
    assert response.json()["phase"] == "betting"
    assert AuditEvent.objects.filter(round_id=rnd.pk, action="round_floor_call", reason="dispute").count() == 1
    round_void(round=rnd, reason="x", actor=floor_user)
    assert dealer_api.post(f"/api/v1/rounds/{rnd.pk}/floor-call/", {}, format="json").status_code == 409
