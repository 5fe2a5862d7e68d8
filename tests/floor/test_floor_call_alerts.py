"""The floor answers a dealer's call from its alert on the live view ("On my way", an optional note): the alert
stays, through the end of its round or hand, until then; the page refuses a second answer and anyone but the floor;
the view reads every open call in one query however many tables call."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from audit.models import AuditEvent
from floor.selectors.floor_view import floor_view
from tables.models import CardSource, FloorCall, Round, Table
from tables.services.home_games import game_floor_call, game_open
from tables.services.rounds import round_floor_call, round_void
from tests.tables.conftest import open_home_table, open_table
from tests.tables.test_home_services import seat_players
from tests.tables.test_payout_queue import logged_in
from tests.tables.test_seat_leave_and_floor_call import _betting

pytestmark = pytest.mark.django_db


def _call(table: Table, dealer: User, reason: str = "dispute at seat 1") -> FloorCall:
    round_floor_call(round=_betting(table, dealer, (1,)), actor=dealer, reason=reason)
    return FloorCall.objects.get(table=table, answered_at=None)


def _answer_forms(html: str) -> list[str]:
    return re.findall(r'<form method="post" action="(/floor/calls/\d+/answer/)" class="answer-call"', html)


def test_the_floor_answers_a_call_from_its_alert_and_the_alert_goes(
    manual_table: Table, floor_user: User, dealer_user: User
) -> None:
    call = _call(manual_table, dealer_user)
    round_void(round=Round.objects.get(pk=call.round_id), reason="dispute", actor=floor_user)
    floor = logged_in(floor_user)
    page = floor.get("/floor/").content.decode()
    # Its round is over and nobody answered: the alert says so, in the past, and that the call still waits.
    assert re.search(r"Round 1 \(voided\): Dealer dave called the floor at \d\d:\d\d \(dispute at seat 1\), waiting",
                     page)
    assert _answer_forms(page) == [f"/floor/calls/{call.pk}/answer/"]
    assert 'name="note"' in page
    token = floor_view().token
    answered = floor.post(f"/floor/calls/{call.pk}/answer/", {"note": "on my way"}, follow=True)
    assert answered.redirect_chain == [("/floor/", 302)]
    page = answered.content.decode()
    assert f"Answered the call at {manual_table.name}" in page
    assert "the floor at" not in page
    assert _answer_forms(page) == []
    assert floor_view().token != token  # the other supervisors' pages drop the alert at their next poll
    event = AuditEvent.objects.get(action="floor_call_answer")
    assert (event.actor_username, event.reason, event.after["call"]) == ("fiona", "on my way", call.pk)


def test_the_page_refuses_a_second_answer_and_anyone_but_the_floor(
    manual_table: Table, floor_user: User, dealer_user: User, compliance_user: User
) -> None:
    call = _call(manual_table, dealer_user)
    url = f"/floor/calls/{call.pk}/answer/"
    assert logged_in(dealer_user).post(url).status_code == 403
    assert logged_in(compliance_user).post(url).status_code == 403
    assert Client().post(url).status_code == 302  # to the sign-in page
    floor = logged_in(floor_user)
    assert floor.get(url).status_code == 405
    assert FloorCall.objects.get(pk=call.pk).is_open
    floor.post(url)
    again = floor.post(url, {"note": "again"}, follow=True).content.decode()
    assert "Not answered: floor call" in again
    assert "already answered by fiona" in again
    assert AuditEvent.objects.filter(action="floor_call_answer").count() == 1
    unknown = floor.post(f"/floor/calls/{call.pk + 1000}/answer/", follow=True).content.decode()
    assert "does not exist" in unknown


def test_the_view_reads_the_open_calls_in_one_query_however_many_tables_call(
    manual_table: Table, floor_user: User, dealer_user: User
) -> None:
    paytable = manual_table.paytable
    assert paytable is not None
    _call(manual_table, dealer_user)
    with CaptureQueriesContext(connection) as one:
        assert [a.code for _, a in floor_view().alerts][:1] == ["floor_call"]
    for number in (2, 3):
        _call(open_table(f"Manual {number}", CardSource.MANUAL, paytable, floor_user, dealer_user), dealer_user)
    home = open_home_table("Draw 1", "five-card-draw", floor_user, dealer_user)
    game_floor_call(game=game_open(table=home, actor=dealer_user, players=seat_players(2)).pk, actor=dealer_user)
    with CaptureQueriesContext(connection) as four:
        view = floor_view()
    assert [a.code for _, a in view.alerts].count("floor_call") == 4
    assert len(four) == len(one), [q["sql"] for q in four.captured_queries]
    assert sum("floorcall" in q["sql"].lower() for q in four.captured_queries) == 1
