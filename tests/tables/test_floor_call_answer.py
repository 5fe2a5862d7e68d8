"""A dealer's call for the floor stays open until a floor supervisor answers it (the round or hand ending does not
close it): the answer is a service with an audited event (who, when, which call), an API endpoint for the floor
(409 when answered already), and no second call at the table while one is open. Found by the UX test: a call
vanished from the floor's live view and the tablet when the dealer started the next hand, though nobody answered."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from rest_framework.test import APIClient

from audit.models import AuditEvent
from casino.errors import BadInput, NotAllowed, NotFound, WrongPhase
from tables.models import FloorCall, Round, Table
from tables.selectors.floor_calls import table_call
from tables.services.floor_calls import floor_call_answer
from tables.services.home_games import game_floor_call, game_open
from tables.services.home_hands import hand_start
from tables.services.rounds import round_floor_call, round_void
from tests.tables.conftest import client_for
from tests.tables.test_home_services import seat_players
from tests.tables.test_payout_queue import logged_in
from tests.tables.test_seat_leave_and_floor_call import _betting

pytestmark = pytest.mark.django_db


@pytest.fixture
def called(manual_table: Table, dealer_user: User) -> FloorCall:
    """Round 1 at the manual table, its dealer calling the floor over a dispute."""
    rnd = _betting(manual_table, dealer_user, (1,))
    round_floor_call(round=rnd, actor=dealer_user, reason="dispute at seat 1")
    return FloorCall.objects.get(round=rnd)


def _state(call: FloorCall) -> tuple[Any, ...]:
    row = FloorCall.objects.get(pk=call.pk)
    return row.answered_at, row.answered_by_id, row.note, AuditEvent.objects.filter(action="floor_call_answer").count()


def test_the_floor_answers_a_call_with_a_note_and_the_answer_is_audited_naming_the_call(
    called: FloorCall, manual_table: Table, floor_user: User, assert_audited: Any
) -> None:
    version = Table.objects.get(pk=manual_table.pk).version
    before = timezone.now()
    answered = floor_call_answer(call=called.pk, actor=floor_user, note="  on my way  ")
    row = FloorCall.objects.get(pk=called.pk)
    assert (row.answered_by, row.note, row.is_open) == (floor_user, "on my way", False)
    assert row.answered_at is not None
    assert before <= row.answered_at <= timezone.now()
    assert answered.pk == called.pk
    assert not answered.is_open
    event = assert_audited("floor_call_answer", count=1, actor_username="fiona", table_id=manual_table.pk,
                           round_id=called.round_id, reason="on my way")
    assert event.after["call"] == called.pk
    assert event.after["called_by"] == "dave"
    assert (event.object_type, event.object_id) == ("tables.round", str(called.round_id))
    call_event = AuditEvent.objects.get(action="round_floor_call", round_id=called.round_id)
    assert call_event.after["call"] == called.pk  # compliance pairs the call with its answer
    # The table's version moves: the tablet's poll sees the answer.
    assert Table.objects.get(pk=manual_table.pk).version > version


def test_a_call_answered_already_is_refused_409_and_the_first_answer_stands(
    called: FloorCall, floor_user: User, admin_user: User
) -> None:
    floor_call_answer(call=called.pk, actor=floor_user, note="coming")
    first = _state(called)
    with pytest.raises(WrongPhase) as refused:
        floor_call_answer(call=called.pk, actor=admin_user, note="me too")
    assert refused.value.code == "floor_call_answered"
    assert "already answered by fiona at" in refused.value.message
    assert _state(called) == first


@pytest.mark.parametrize("who", ["dealer_user", "compliance_user"])
def test_only_a_floor_supervisor_answers_a_call(called: FloorCall, who: str, request: pytest.FixtureRequest) -> None:
    before = _state(called)
    with pytest.raises(NotAllowed):
        floor_call_answer(call=called.pk, actor=request.getfixturevalue(who))
    assert _state(called) == before
    assert FloorCall.objects.get(pk=called.pk).is_open


def test_a_note_too_long_or_an_unknown_call_is_refused_and_changes_nothing(
    called: FloorCall, floor_user: User
) -> None:
    before = _state(called)
    with pytest.raises(BadInput) as refused:
        floor_call_answer(call=called.pk, actor=floor_user, note="x" * 201)
    assert (refused.value.field, refused.value.code) == ("note", "note_too_long")
    with pytest.raises(NotFound):
        floor_call_answer(call=called.pk + 1000, actor=floor_user)
    with pytest.raises(NotFound):
        floor_call_answer(call=2**63, actor=floor_user)
    assert _state(called) == before


def test_no_second_call_while_one_is_open_even_in_the_next_round(
    called: FloorCall, manual_table: Table, dealer_user: User, floor_user: User
) -> None:
    rnd = Round.objects.get(pk=called.round_id)
    with pytest.raises(WrongPhase) as refused:
        round_floor_call(round=rnd, actor=dealer_user, reason="again")
    assert refused.value.code == "floor_call_open"
    assert "already called to Manual 1 at" in refused.value.message
    assert "by dave" in refused.value.message
    round_void(round=rnd, reason="dispute", actor=floor_user)
    second = _betting(manual_table, dealer_user, (1,))
    with pytest.raises(WrongPhase):
        round_floor_call(round=second, actor=dealer_user)
    assert AuditEvent.objects.filter(action="round_floor_call").count() == 1
    assert FloorCall.objects.filter(table=manual_table).count() == 1
    floor_call_answer(call=called.pk, actor=floor_user)
    round_floor_call(round=second, actor=dealer_user, reason="a new dispute")  # answered: a new call may be made
    assert FloorCall.objects.get(table=manual_table, answered_at=None).round_id == second.pk


def test_a_home_game_call_is_answered_the_same_way_and_blocks_a_second_call_meanwhile(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User, assert_audited: Any
) -> None:
    table = home_table("five-card-draw")
    game = game_open(table=table, actor=dealer_user, players=seat_players(3))
    hand = hand_start(game=game.pk, actor=dealer_user)
    game_floor_call(game=game.pk, actor=dealer_user, reason="misdeal")
    with pytest.raises(WrongPhase) as refused:
        game_floor_call(game=game.pk, actor=dealer_user)
    assert refused.value.code == "floor_call_open"
    call = FloorCall.objects.get(table=table)
    assert (call.game_id, call.hand_number, call.round_id, call.where) == (game.pk, hand.number, None, "Hand 1")
    floor_call_answer(call=call, actor=floor_user)
    event = assert_audited("floor_call_answer", count=1, object_type="tables.homegame", object_id=str(game.pk))
    assert (event.after["call"], event.after["hand"]) == (call.pk, hand.number)


def test_the_database_holds_one_open_call_per_table(called: FloorCall, manual_table: Table, dealer_user: User) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        FloorCall.objects.create(table=manual_table, called_at=timezone.now(), called_by=dealer_user)


# --- the API ------------------------------------------------------------------------------------------------------


def test_the_api_answers_a_call_for_the_floor_and_refuses_a_second_answer_409(
    called: FloorCall, floor_api: APIClient
) -> None:
    url = f"/api/v1/floor-calls/{called.pk}/answer/"
    response = floor_api.post(url, {"note": "two minutes"}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["id"], body["open"], body["answered_by"], body["note"], body["called_by"]) == (
        called.pk, False, "fiona", "two minutes", "dave")
    assert (body["table"], body["where"], body["reason"]) == ("Manual 1", "Round 1", "dispute at seat 1")
    assert body["answered_at"] is not None
    again = floor_api.post(url, {}, format="json")
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "floor_call_answered"


def test_the_answer_api_checks_the_role_the_id_and_the_note(
    called: FloorCall, dealer_api: APIClient, compliance_user: User, floor_api: APIClient
) -> None:
    url = f"/api/v1/floor-calls/{called.pk}/answer/"
    assert dealer_api.post(url, {}, format="json").status_code == 403
    assert client_for(compliance_user).post(url, {}, format="json").status_code == 403
    assert APIClient().post(url, {}, format="json").status_code in (401, 403)
    assert floor_api.post(f"/api/v1/floor-calls/{called.pk + 1000}/answer/", {}, format="json").status_code == 404
    long_note = floor_api.post(url, {"note": "x" * 201}, format="json")
    assert long_note.status_code == 400
    assert "note" in long_note.content.decode()
    assert FloorCall.objects.get(pk=called.pk).is_open
    assert not AuditEvent.objects.filter(action="floor_call_answer").exists()


def test_the_answer_api_refuses_a_key_it_does_not_read_and_answers_nothing(
    called: FloorCall, floor_api: APIClient
) -> None:
    # {"notes": "two minutes"} (for "note") answered the call with no note: the key was dropped unread.
    response = floor_api.post(f"/api/v1/floor-calls/{called.pk}/answer/", {"notes": "two minutes"}, format="json")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["field"] == "notes"
    assert "unknown field 'notes'" in error["message"]
    assert "takes note" in error["message"]
    assert FloorCall.objects.get(pk=called.pk).is_open
    assert not AuditEvent.objects.filter(action="floor_call_answer").exists()


def test_a_dealer_calling_again_through_the_api_while_a_call_is_open_gets_409(
    called: FloorCall, dealer_api: APIClient
) -> None:
    response = dealer_api.post(f"/api/v1/rounds/{called.round_id}/floor-call/", {}, format="json")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "floor_call_open"
    assert "has not answered yet" in response.json()["error"]["message"]


def test_the_floor_lists_the_open_calls(
    called: FloorCall, floor_api: APIClient, dealer_api: APIClient, floor_user: User
) -> None:
    listed = floor_api.get("/api/v1/floor-calls/")
    assert listed.status_code == 200
    assert [(c["id"], c["open"], c["table_id"]) for c in listed.json()] == [(called.pk, True, called.table_id)]
    assert dealer_api.get("/api/v1/floor-calls/").status_code == 403
    floor_call_answer(call=called.pk, actor=floor_user)
    assert floor_api.get("/api/v1/floor-calls/").json() == []


def test_the_schema_documents_the_floor_call_endpoints(floor_api: APIClient) -> None:
    schema = floor_api.get("/api/schema/", {"format": "json"}).json()
    answer = schema["paths"]["/api/v1/floor-calls/{call_id}/answer/"]["post"]
    assert answer["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/FloorCall"}
    body = answer["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    assert schema["components"]["schemas"][body]["properties"]["note"]["maxLength"] == 200
    assert "get" in schema["paths"]["/api/v1/floor-calls/"]


# --- the tablet ----------------------------------------------------------------------------------------------------


def test_the_tablet_shows_the_open_call_instead_of_the_button_then_who_answered(
    called: FloorCall, manual_table: Table, dealer_user: User, floor_user: User
) -> None:
    screen = f"/tablet/tables/{manual_table.pk}/"
    dealer = logged_in(dealer_user)
    page = dealer.get(screen).content.decode()
    assert 'class="call-floor"' not in page, "a second call while the first is open"
    called_at = timezone.localtime(called.called_at).strftime("%H:%M")
    assert page.count(f"Floor called at {called_at} — waiting") == 1
    round_void(round=Round.objects.get(pk=called.round_id), reason="dispute", actor=floor_user)
    assert f"Floor called at {called_at} — waiting" in dealer.get(screen).content.decode()  # after its round too
    answered = floor_call_answer(call=called.pk, actor=floor_user, note="coming")
    assert answered.answered_at is not None
    page = dealer.get(screen).content.decode()
    answered_at = timezone.localtime(answered.answered_at).strftime("%H:%M")
    assert f"Floor answered (fiona, {answered_at}): coming" in page
    assert "waiting" not in page


@pytest.mark.django_db(transaction=True)
def test_two_supervisors_answering_at_once_answer_it_once(
    require_postgres: None, manual_table: Table, dealer_user: User, floor_user: User, admin_user: User
) -> None:
    rnd = _betting(manual_table, dealer_user, (1,))
    round_floor_call(round=rnd, actor=dealer_user)
    call = FloorCall.objects.get(round=rnd)
    start, answers = threading.Barrier(4), []

    def tap(user: User) -> None:
        try:
            api = client_for(user)
            start.wait(10)
            answers.append(api.post(f"/api/v1/floor-calls/{call.pk}/answer/", {}, format="json").status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=tap, args=(user,)) for user in (floor_user, admin_user) * 2]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(answers) == [200, 409, 409, 409]
    assert AuditEvent.objects.filter(action="floor_call_answer").count() == 1


def test_the_tablet_says_who_answered_for_ten_minutes_then_shows_the_call_no_more(
    called: FloorCall, manual_table: Table, floor_user: User
) -> None:
    assert table_call(manual_table) == called  # open: shown whatever its age
    answered = floor_call_answer(call=called.pk, actor=floor_user)
    assert answered.answered_at is not None
    assert table_call(manual_table, now=answered.answered_at + timedelta(minutes=9, seconds=59)) == called
    assert table_call(manual_table, now=answered.answered_at + timedelta(minutes=10)) is None


def test_the_answer_is_no_longer_shown_once_the_next_round_begins(
    called: FloorCall, manual_table: Table, floor_user: User, dealer_user: User
) -> None:
    """A user tester read "Floor answered (floor, 07:26)" all through the next hand, as if the floor had answered a
    call made in it: the answer belongs to the round it was called in."""
    floor_call_answer(call=called.pk, actor=floor_user)
    assert table_call(manual_table) == called  # the round it was called in goes on: the answer is shown
    round_void(round=Round.objects.get(pk=called.round_id), reason="dispute", actor=floor_user)
    assert table_call(manual_table) == called  # between rounds: still the last thing that happened
    _betting(manual_table, dealer_user, (1,))
    assert table_call(manual_table) is None


def test_a_home_game_dealer_calls_the_floor_through_the_api_and_the_call_comes_back(
    home_table: Callable[..., Table], dealer_user: User, dealer_api: APIClient, floor_api: APIClient,
    compliance_user: User,
) -> None:
    # Found by the API's user test: a Triple Draw round had POST /rounds/{id}/floor-call/, a home game had no way to
    # call the floor but the tablet's form.
    table = home_table("five-card-draw")
    game = game_open(table=table, actor=dealer_user, players=seat_players(3))
    url = f"/api/v1/games/{game.pk}/floor-call/"
    assert client_for(compliance_user).post(url, {}, format="json").status_code == 403
    assert dealer_api.post(url, {"reason": "x" * 201}, format="json").status_code == 400
    assert dealer_api.post(f"/api/v1/games/{game.pk + 1000}/floor-call/", {}, format="json").status_code == 404
    assert not FloorCall.objects.filter(table=table).exists()
    response = dealer_api.post(url, {"reason": "misdeal at seat 3"}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["game_id"], body["where"], body["reason"], body["open"], body["called_by"]) == (
        game.pk, "Between hands", "misdeal at seat 3", True, "dave")
    assert [call["id"] for call in floor_api.get("/api/v1/floor-calls/").json()] == [body["id"]]
    again = dealer_api.post(url, {}, format="json")
    assert (again.status_code, again.json()["error"]["code"]) == (409, "floor_call_open")
    floor_api.post(f"/api/v1/floor-calls/{body['id']}/answer/", {}, format="json")
    schema = floor_api.get("/api/schema/", {"format": "json"}).json()
    assert "201" in schema["paths"]["/api/v1/games/{game_id}/floor-call/"]["post"]["responses"]
