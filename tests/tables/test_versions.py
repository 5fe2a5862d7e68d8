"""Table and round versions: every write raises them in commit order, so the tablet poll and round ETag miss nothing."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import Max
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from audit.models import AuditEvent
from casino.errors import WrongPhase
from tables.models import Round, SeatHand, Table
from tables.services.bets import bet_place
from tables.services.cards import cards_deal, holds_record, rows_record
from tables.services.rounds import round_close_bets, round_start, round_void, round_void_request
from tables.services.seats import seat_join, seat_leave
from tables.services.settlement import round_settlement_apply
from tables.services.tables import table_close, table_unassign_dealer

HTMX = {"HTTP_HX_REQUEST": "true"}


class Poller:
    """A tablet polling one table the way htmx does: it sends the version of the screen it shows."""

    def __init__(self, user: User, table: Table) -> None:
        self.client = Client()
        self.client.force_login(user)
        self.url = reverse("tablet:state", args=[table.pk])
        self.version = ""
        assert self.poll() == 200

    def poll(self) -> int:
        response = self.client.get(self.url, {"v": self.version} if self.version else {}, **HTMX)
        if response.status_code == 200:
            self.version = response.content.decode().split('data-version="', 1)[1].split('"', 1)[0]
        return int(response.status_code)


def _hold_two(rnd: Round, seat: int, actor: User) -> None:
    dealt = SeatHand.objects.get(round=rnd, seat_number=seat).dealt
    holds_record(round=rnd, seat_number=seat, held=dealt[:2], actor=actor)


def test_every_write_to_the_table_or_its_round_changes_the_poll_answer_once(
    rng_table: Table, dealer_user: User, floor_user: User
) -> None:
    """DESIGN: a change made elsewhere appears on the tablet within about a second; nothing else re-renders it."""
    tablet = Poller(dealer_user, rng_table)
    assert tablet.poll() == 204
    rnd = round_start(table=rng_table, actor=dealer_user)
    dealer, floor = dealer_user, floor_user
    steps: list[tuple[str, Callable[[], Any]]] = [
        ("round_start", lambda: None),  # already made; the poll below must still see it
        ("bet seat 1", lambda: bet_place(round=rnd, seat_number=1, amount_cents=900, circles=2, actor=dealer)),
        ("bet seat 2", lambda: bet_place(round=rnd, seat_number=2, amount_cents=500, circles=1, actor=dealer)),
        ("seat 7 leaves", lambda: seat_leave(table=rng_table, seat_number=7, actor=dealer_user)),
        ("close bets", lambda: round_close_bets(round=rnd, actor=dealer_user)),
        ("deal", lambda: cards_deal(round=rnd, actor=dealer_user)),
        ("hold seat 1", lambda: _hold_two(rnd, 1, dealer_user)),
        ("hold seat 2", lambda: _hold_two(rnd, 2, dealer_user)),
        ("rows", lambda: rows_record(round=rnd, actor=dealer_user)),
        ("settlement job", lambda: round_settlement_apply(round_id=rnd.pk)),
        ("seat 7 joins", lambda: seat_join(table=rng_table, seat_number=7, player_name="Zoe", actor=floor)),
        ("table closed", lambda: table_close(table=rng_table, actor=floor_user)),
    ]
    versions = [Round.objects.get(pk=rnd.pk).version]
    for what, step in steps:
        step()
        assert tablet.poll() == 200, f"the tablet missed: {what}"
        assert tablet.poll() == 204, f"the tablet re-rendered twice for: {what}"
        versions.append(Round.objects.get(pk=rnd.pk).version)
    assert versions == sorted(versions)
    assert Round.objects.get(pk=rnd.pk).phase == Round.Phase.SETTLED


def test_void_request_and_void_change_the_round_version(rng_table: Table, dealer_user: User, floor_user: User) -> None:
    rnd = round_start(table=rng_table, actor=dealer_user)
    tablet = Poller(dealer_user, rng_table)
    round_void_request(round=rnd, reason="misdeal", actor=dealer_user)
    assert tablet.poll() == 200
    assert tablet.poll() == 204
    round_void(round=rnd, reason="misdeal", actor=floor_user)
    assert tablet.poll() == 200
    assert Round.objects.get(pk=rnd.pk).version == 2


def test_a_refused_write_leaves_the_version_alone(rng_table: Table, dealer_user: User) -> None:
    rnd = round_start(table=rng_table, actor=dealer_user)
    tablet = Poller(dealer_user, rng_table)
    with pytest.raises(WrongPhase):
        rows_record(round=rnd, actor=dealer_user)
    assert Round.objects.get(pk=rnd.pk).version == 0
    assert tablet.poll() == 204


@pytest.mark.django_db(transaction=True)
def test_a_change_with_the_lower_audit_id_committing_last_still_reaches_the_poll(
    require_postgres: None, rng_table: Table, dealer_user: User
) -> None:
    """The bug the versions fix: audit ids are taken before commit, so the newest id missed this change."""
    rnd = round_start(table=rng_table, actor=dealer_user)
    took_id, release, failed = threading.Event(), threading.Event(), []

    def seat_leaves_slowly() -> None:
        try:
            with transaction.atomic():
                seat_leave(table=rng_table, seat_number=7, actor=dealer_user)
                took_id.set()
                assert release.wait(20)
        except Exception as exc:  # surfaced by the assertion below
            failed.append(exc)
            took_id.set()
        finally:
            connection.close()

    slow = threading.Thread(target=seat_leaves_slowly)
    slow.start()
    try:
        assert took_id.wait(20)
        assert not failed
        bet_place(round=rnd, seat_number=1, amount_cents=1000, circles=1, actor=dealer_user)
        tablet = Poller(dealer_user, rng_table)  # shows the bet, not yet the empty seat 7
        assert tablet.poll() == 204
        newest_before = AuditEvent.objects.filter(table_id=rng_table.pk).aggregate(newest=Max("id"))["newest"]
    finally:
        release.set()
        slow.join(20)
    assert not failed
    leave = AuditEvent.objects.get(action="seat_leave", table_id=rng_table.pk)
    bet = AuditEvent.objects.filter(action__startswith="bet", round_id=rnd.pk).latest("id")
    # The scenario: the seat change took the lower id and committed last, so the newest audit id did not move.
    assert leave.pk < bet.pk
    assert AuditEvent.objects.filter(table_id=rng_table.pk).aggregate(newest=Max("id"))["newest"] == bet.pk
    assert newest_before == bet.pk
    assert tablet.poll() == 200
    assert tablet.poll() == 204


def test_a_round_answers_304_to_its_own_etag_until_it_or_its_table_changes(
    rng_table: Table, dealer_user: User, floor_user: User, dealer_api: APIClient
) -> None:
    rnd = round_start(table=rng_table, actor=dealer_user)
    url = f"/api/v1/rounds/{rnd.pk}/"
    first = dealer_api.get(url)
    assert first.status_code == 200
    assert first["ETag"]
    same = dealer_api.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert same.status_code == 304
    assert same.content == b""
    assert same["ETag"] == first["ETag"]
    bet_place(round=rnd, seat_number=1, amount_cents=1000, circles=1, actor=dealer_user)
    after_bet = dealer_api.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert after_bet.status_code == 200
    assert after_bet.json()["seats"][0]["seat"] == 1
    # The round's state lists the seated players, which change under the table's lock, not the round's.
    seat_leave(table=rng_table, seat_number=7, actor=dealer_user)
    after_leave = dealer_api.get(url, HTTP_IF_NONE_MATCH=after_bet["ETag"])
    assert after_leave.status_code == 200
    assert after_leave["ETag"] != after_bet["ETag"]
    assert dealer_api.get(url, HTTP_IF_NONE_MATCH=f'"x", {after_leave["ETag"]}').status_code == 304


def test_the_etag_is_checked_after_access_so_a_stranger_learns_nothing(
    rng_table: Table, dealer_user: User, stranger: User
) -> None:
    rnd = round_start(table=rng_table, actor=dealer_user)
    api = APIClient()
    api.force_authenticate(stranger)
    assert api.get(f"/api/v1/rounds/{rnd.pk}/", HTTP_IF_NONE_MATCH="*").status_code == 403


def test_a_table_answers_304_to_its_own_etag_until_it_or_its_round_in_play_changes(
    rng_table: Table, dealer_user: User, floor_user: User, floor_api: APIClient
) -> None:
    url = f"/api/v1/tables/{rng_table.pk}/"
    first = floor_api.get(url)
    assert first.status_code == 200
    assert floor_api.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    dealer, floor = dealer_user, floor_user
    changes: list[Callable[[], Any]] = [
        lambda: round_start(table=rng_table, actor=dealer),
        lambda: bet_place(
            round=Round.objects.get(table=rng_table), seat_number=1, amount_cents=500, circles=1, actor=dealer
        ),
        lambda: round_close_bets(round=Round.objects.get(table=rng_table), actor=dealer),
        lambda: seat_leave(table=rng_table, seat_number=7, actor=dealer),
        lambda: table_unassign_dealer(table=rng_table, dealer=dealer, actor=floor),
    ]
    etag = first["ETag"]
    for change in changes:
        change()
        response = floor_api.get(url, HTTP_IF_NONE_MATCH=etag)
        assert response.status_code == 200
        assert response["ETag"] != etag
        etag = response["ETag"]
        assert floor_api.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert response.json()["current_round"]["phase"] == "dealing"
    assert response.json()["dealers"] == []


def test_every_round_action_answers_with_the_etag_of_the_state_it_shows(
    rng_table: Table, dealer_user: User, dealer_api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    """A dealer who acted holds the state the action answered: a conditional GET with its ETag is 304 until the
    round changes again (settlement included), so the first status poll after an action need carry no body."""
    started = dealer_api.post(f"/api/v1/tables/{rng_table.pk}/rounds/")
    assert started.status_code == 201
    rnd = started.json()["id"]
    url = f"/api/v1/rounds/{rnd}/"
    steps: list[tuple[str, dict[str, Any]]] = [
        ("bets/batch/", {"bets": [{"seat": 1, "amount_cents": 1000, "circles": 2}]}),
        ("close-bets/", {}),
        ("deal/", {}),
    ]
    answers = [started]
    for path, body in steps:
        answers.append(dealer_api.post(url + path, body, format="json"))
        assert answers[-1].status_code == 200, answers[-1].json()
    held = answers[-1].json()["seats"][0]["dealt"][:2]
    answers.append(dealer_api.post(url + "holds/batch/", {"holds": [{"seat": 1, "held": held}]}, format="json"))
    with django_capture_on_commit_callbacks(execute=False):  # settlement is left queued: the round stays drawing
        answers.append(dealer_api.post(url + "rows/", {}, format="json"))
    tags = [answer["ETag"] for answer in answers]
    assert len(set(tags)) == len(tags)  # each action changed the state, so each answer names a new one
    last = answers[-1]
    assert last.json()["phase"] == "settling"
    assert dealer_api.get(url, HTTP_IF_NONE_MATCH=last["ETag"]).status_code == 304
    assert dealer_api.get(url, HTTP_IF_NONE_MATCH=tags[-2]).status_code == 200
    round_settlement_apply(round_id=rnd)
    settled = dealer_api.get(url, HTTP_IF_NONE_MATCH=last["ETag"])
    assert settled.status_code == 200
    assert settled.json()["phase"] == "settled"
