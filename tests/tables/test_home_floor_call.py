"""A dealer at a home-game table calls the floor (a dispute, a misdeal, a ruling to make), as at a Triple Draw table:
the floor's live view alerts on it until a floor supervisor answers it (the hand or game ending does not), the tablet
says it was called, and the call is an audit event. Found missing by the floor's user test."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from audit.models import AuditEvent
from casino.errors import NotAllowed, WrongPhase
from floor.selectors.floor_view import floor_view
from tables.models import FloorCall, HomeGame, Table
from tables.services.floor_calls import floor_call_answer
from tables.services.home_games import game_close, game_floor_call, game_open
from tables.services.home_hands import hand_start
from tables.services.home_rulings import hand_void
from tests.tables.conftest import client_for
from tests.tables.test_home_services import seat_players
from tests.tables.test_payout_queue import logged_in

pytestmark = pytest.mark.django_db


def alerts(table: Table) -> list[str]:
    tile = next(tile for tile in floor_view().tiles if tile.table.pk == table.pk)
    return [alert.text for alert in tile.alerts if alert.code == "floor_call"]


def answer_open_call(table: Table, floor_user: User) -> None:
    floor_call_answer(call=FloorCall.objects.get(table=table, answered_at=None), actor=floor_user)


def test_a_call_between_hands_stays_after_the_next_hand_starts_until_the_floor_answers(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User
) -> None:
    table = home_table("five-card-draw")
    game = game_open(table=table, actor=dealer_user, players=seat_players(3))
    assert alerts(table) == []
    game_floor_call(game=game.pk, actor=dealer_user, reason="a player disputes his buy-in")
    call = FloorCall.objects.get(table=table)
    event = AuditEvent.objects.get(action="home_floor_call")
    assert (event.actor_username, event.reason, event.after) == (
        "dave", "a player disputes his buy-in", {"hand": None, "call": call.pk})
    [text] = alerts(table)
    assert text.startswith("Between hands: Dealer dave calls the floor at ")
    assert text.endswith("(a player disputes his buy-in)")
    called_at = text.removeprefix("Between hands: Dealer dave calls the floor at ")[:5]
    hand = hand_start(game=game.pk, actor=dealer_user)
    # Nobody answered it: the next hand's start does not end it, and the alert no longer says "between hands" now.
    assert alerts(table) == [f"Between hands (hand {hand.number} dealt since): Dealer dave called the floor at "
                             f"{called_at} (a player disputes his buy-in), waiting"]
    answer_open_call(table, floor_user)
    assert alerts(table) == []


def test_a_call_during_a_hand_stays_after_that_hand_ends_until_the_floor_answers(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User
) -> None:
    table = home_table("three-legged-race")
    game = game_open(table=table, actor=dealer_user, players=seat_players(2))
    hand = hand_start(game=game.pk, actor=dealer_user)
    game_floor_call(game=game.pk, actor=dealer_user)
    [text] = alerts(table)
    assert text.startswith(f"Hand {hand.number}: Dealer dave calls the floor at ")
    called_at = text.removeprefix(f"Hand {hand.number}: Dealer dave calls the floor at ")
    hand_void(hand=hand.pk, actor=floor_user, reason="misdeal: the floor came")
    over = f"Hand {hand.number} (voided): Dealer dave called the floor at {called_at}, waiting"
    assert alerts(table) == [over]  # the hand is over; the call is still open
    game_close(game=game.pk, actor=floor_user, reason="end of the session")
    assert alerts(table) == [over]  # not even the game's end answers it
    answer_open_call(table, floor_user)
    assert alerts(table) == []


def test_a_call_between_hands_of_a_game_since_closed_says_the_game_is_over(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User
) -> None:
    table = home_table("five-card-draw")
    game = game_open(table=table, actor=dealer_user, players=seat_players(2))
    game_floor_call(game=game.pk, actor=dealer_user)
    [text] = alerts(table)
    called_at = text.removeprefix("Between hands: Dealer dave calls the floor at ")
    game_close(game=game.pk, actor=floor_user, reason="end of the session")
    assert alerts(table) == [f"Between hands (game over): Dealer dave called the floor at {called_at}, waiting"]


def test_only_the_tables_staff_call_and_only_while_the_game_is_open(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User, compliance_user: User
) -> None:
    table = home_table("freak-of-nature")
    game = game_open(table=table, actor=dealer_user, players=seat_players(2))
    with pytest.raises(NotAllowed):
        game_floor_call(game=game.pk, actor=compliance_user)
    game_close(game=game.pk, actor=floor_user, reason="end of the session")
    with pytest.raises(WrongPhase):
        game_floor_call(game=game.pk, actor=dealer_user)
    assert not AuditEvent.objects.filter(action="home_floor_call").exists()


def test_the_dealer_calls_from_the_tablet_and_reads_it_once(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User
) -> None:
    table = home_table("five-card-draw")
    game = game_open(table=table, actor=dealer_user, players=seat_players(2))
    screen = f"/tablet/tables/{table.pk}/"
    dealer = logged_in(dealer_user)
    assert 'class="call-floor"' in dealer.get(screen).content.decode()
    assert 'class="call-floor"' not in logged_in(floor_user).get(screen).content.decode()  # the one called
    called = dealer.post(f"{screen}home/do/floor-call/", {"game": game.pk}, HTTP_HX_REQUEST="true")
    assert called.status_code == 200
    assert "Floor called at" in called.content.decode()
    assert AuditEvent.objects.filter(action="home_floor_call", object_id=str(game.pk)).count() == 1
    assert "Floor called at" in logged_in(floor_user).get(screen).content.decode()
    assert HomeGame.objects.get(pk=game.pk).is_open


def test_the_call_made_is_the_one_returned_and_the_api_answers_with_it_without_reading_it_back(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User
) -> None:
    table = home_table("five-card-draw")
    game = game_open(table=table, actor=dealer_user, players=seat_players(3))
    call = game_floor_call(game=game.pk, actor=dealer_user, reason="misdeal at seat 3")
    assert call.pk == FloorCall.objects.get(table=table, answered_at=None).pk
    assert (call.game_id, call.reason, call.called_by, call.where, call.is_open) == (
        game.pk, "misdeal at seat 3", dealer_user, "Between hands", True)
    floor_call_answer(call=call.pk, actor=floor_user)
    # The API answers with the call the service made: no second read of the row it has just written.
    with CaptureQueriesContext(connection) as queries:
        response = client_for(dealer_user).post(f"/api/v1/games/{game.pk}/floor-call/", {}, format="json")
    assert response.status_code == 201, response.content
    made = FloorCall.objects.get(table=table, answered_at=None)
    assert (response.json()["id"], response.json()["called_by"], response.json()["table"]) == (
        made.pk, "dave", table.name)
    sql = [query["sql"] for query in queries.captured_queries]
    inserted = next(i for i, text in enumerate(sql) if text.startswith(f'INSERT INTO "{FloorCall._meta.db_table}"'))
    assert not [text for text in sql[inserted + 1:] if f'FROM "{FloorCall._meta.db_table}"' in text]


def test_the_alert_names_a_floor_supervisor_calling_as_one_and_a_dealer_as_a_dealer(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User
) -> None:
    table = home_table("five-card-draw")
    game = game_open(table=table, actor=dealer_user, players=seat_players(3))
    called = client_for(dealer_user).post(f"/api/v1/games/{game.pk}/floor-call/", {}, format="json")
    assert called.status_code == 201, called.content
    [text] = alerts(table)
    assert text.startswith("Between hands: Dealer dave calls the floor at "), text
    answer_open_call(table, floor_user)
    # The floor may call the floor to a table too (a second supervisor wanted): not "Dealer fiona".
    called = client_for(floor_user).post(f"/api/v1/games/{game.pk}/floor-call/", {"reason": "second opinion"},
                                         format="json")
    assert called.status_code == 201, called.content
    [text] = alerts(table)
    assert text.startswith("Between hands: Floor supervisor fiona calls the floor at "), text
    assert text.endswith("(second opinion)")
