"""The audit API's timelines of a home game and a home hand (GET /api/v1/audit/games/{id}/, audit/hands/{id}/): the
same readers as a Triple Draw round's timeline, every event in order (rulings and floor calls included), the replay
verdict, a JSON 404 naming an unknown id, and reading writes nothing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import Permission, User
from django.db.models import F
from django.test.utils import override_settings
from rest_framework.test import APIClient

from audit.models import AuditEvent
from audit.services import audit_chain_seal
from tables.models import FloorCall, HomeGame, HomeHand, Table
from tables.services.floor_calls import floor_call_answer
from tables.services.home_games import game_floor_call, game_open, player_join
from tables.services.home_hands import hand_start
from tables.services.home_rulings import hand_award, hand_correct, hand_void
from tests.tables.conftest import client_for
from tests.tables.test_home_services import deck, play, seat_players

pytestmark = pytest.mark.django_db


@dataclass
class Played:
    table: Table
    game: HomeGame
    first: HomeHand  # corrected by the floor after a call, then played to the end
    second: HomeHand  # voided after a call
    third: HomeHand  # its pot awarded by ruling
    calls: dict[str, AuditEvent]  # by reason
    answers: dict[str, AuditEvent]  # the floor's answer to each call, by the call's reason


def answer(table: Table, floor_user: User, note: str = "") -> None:
    """The floor answers the table's open call: a dealer calls again only once it is answered."""
    floor_call_answer(call=FloorCall.objects.get(table=table, answered_at=None), actor=floor_user, note=note)


@pytest.fixture
def played(home_table: Callable[..., Table], dealer_user: User, floor_user: User) -> Played:
    table = home_table("five-card-draw")
    game = game_open(table=table, actor=dealer_user, players=seat_players(2))
    game_floor_call(game=game.pk, actor=dealer_user, reason="between hands")
    answer(table, floor_user)
    first = hand_start(game=game, actor=dealer_user, button=2, deck=deck(2, {1: "As Ad 4c 5c 7d", 2: "Kc Kh 4d 5d 8c"}))
    play(first, dealer_user, "1 bet 200")
    game_floor_call(game=game.pk, actor=dealer_user, reason="seat 1 says he checked")
    answer(table, floor_user, note="on my way")
    hand_correct(hand=first.pk, actor=floor_user, index=0, action="1 check", reason="the player checked")
    play(first, dealer_user, "2 check", "1 draw", "2 draw", "1 check", "2 check")
    player_join(game=game.pk, actor=dealer_user, seat=3, name="P3", buy_in_cents=10_000)
    second = hand_start(game=game, actor=dealer_user)
    game_floor_call(game=game.pk, actor=dealer_user, reason="misdeal")
    hand_void(hand=second.pk, actor=floor_user, reason="misdeal at the table")
    answer(table, floor_user)  # after the hand it was made in: still that hand's call and answer
    third = hand_start(game=game, actor=dealer_user)
    hand_award(hand=third.pk, actor=floor_user, seats=[1], reason="a card exposed")
    calls = {e.reason: e for e in AuditEvent.objects.filter(action="home_floor_call", object_id=str(game.pk))}
    replies = AuditEvent.objects.filter(action="floor_call_answer", object_id=str(game.pk))
    answered = {e.after["call"]: e for e in replies}
    answers = {reason: answered[call.after["call"]] for reason, call in calls.items()}
    hands = HomeHand.objects.in_bulk([first.pk, second.pk, third.pk])
    return Played(table, game, hands[first.pk], hands[second.pk], hands[third.pk], calls, answers)


def _get(user: User | None, url: str) -> Any:
    client = client_for(user) if user is not None else APIClient()
    return client.get(url)


def _timeline(user: User, url: str) -> dict[str, Any]:
    response = _get(user, url)
    assert response.status_code == 200, response.content
    return dict(response.json())


def _in_order(events: list[dict[str, Any]]) -> None:
    sealed = [e["sequence"] for e in events if e["sequence"] is not None]
    assert sealed == sorted(sealed)
    unsealed = [e["id"] for e in events if e["sequence"] is None]
    assert unsealed == sorted(unsealed)
    assert all(e["sequence"] is None for e in events[len(sealed):])  # the sealed first, then the rest by id


def test_a_hands_timeline_is_its_events_in_order_with_its_rulings_and_the_floor_calls_made_during_it(
    played: Played, compliance_user: User
) -> None:
    audit_chain_seal()
    body = _timeline(compliance_user, f"/api/v1/audit/hands/{played.first.pk}/")
    assert (body["hand_id"], body["game_id"], body["table_id"], body["number"]) == (
        played.first.pk, played.game.pk, played.table.pk, 1)
    own = set(AuditEvent.objects.filter(object_type="tables.homehand", object_id=str(played.first.pk))
              .values_list("id", flat=True))
    call = played.calls["seat 1 says he checked"]
    answered = played.answers["seat 1 says he checked"]
    assert {e["id"] for e in body["events"]} == own | {call.id, answered.id}
    _in_order(body["events"])
    actions = [e["action"] for e in body["events"]]
    assert actions[0] == "home_hand_start"
    assert actions[-1] == "home_hand_settle"
    # The call came after the bet it disputes and before the floor's correction of it.
    assert actions.index("home_floor_call") < actions.index("floor_call_answer") < actions.index("home_hand_correct")
    reply = next(e for e in body["events"] if e["action"] == "floor_call_answer")
    assert (reply["actor_username"], reply["reason"], reply["after"]["call"]) == (
        "fiona", "on my way", call.after["call"])
    correction = next(e for e in body["events"] if e["action"] == "home_hand_correct")
    assert (correction["reason"], correction["actor_username"], correction["exception_kind"]) == (
        "the player checked", "fiona", "correction")
    assert body["verdict"] == {"ok": True, "differences": []}

    voided = _timeline(compliance_user, f"/api/v1/audit/hands/{played.second.pk}/")
    assert [e["action"] for e in voided["events"]][-3:] == ["home_floor_call", "home_hand_void", "floor_call_answer"]
    assert voided["events"][-2]["reason"] == "misdeal at the table"
    assert voided["events"][-3]["id"] == played.calls["misdeal"].id
    assert voided["events"][-1]["id"] == played.answers["misdeal"].id
    assert voided["verdict"]["ok"] is True
    assert "voided" in voided["verdict"]["note"]
    awarded = _timeline(compliance_user, f"/api/v1/audit/hands/{played.third.pk}/")
    assert "home_pot_ruling" in [e["action"] for e in awarded["events"]]
    assert {"home_floor_call", "floor_call_answer"}.isdisjoint(e["action"] for e in awarded["events"])  # no call then


def test_a_games_timeline_is_every_event_of_the_game_its_hands_and_players_in_order(
    played: Played, compliance_user: User, dealer_user: User, floor_user: User
) -> None:
    audit_chain_seal()
    fourth = hand_start(game=played.game.pk, actor=dealer_user)  # events not sealed yet: listed after the sealed
    hand_void(hand=fourth.pk, actor=floor_user, reason="after the seal")
    body = _timeline(compliance_user, f"/api/v1/audit/games/{played.game.pk}/")
    assert (body["game_id"], body["table_id"], body["number"]) == (played.game.pk, played.table.pk, 1)
    opened = AuditEvent.objects.get(action="home_game_open", object_id=str(played.game.pk))
    # Everything at the table since the game opened is the game's: hands, joins, calls, rulings.
    expected = list(AuditEvent.objects.filter(table_id=played.table.pk, id__gte=opened.id)
                    .order_by(F("sequence").asc(nulls_last=True), "id"))
    assert expected[-1].sequence is None
    assert expected[0].sequence is not None
    assert [e["id"] for e in body["events"]] == [e.id for e in expected]
    _in_order(body["events"])
    actions = [e["action"] for e in body["events"]]
    assert actions[0] == "home_game_open"
    for action in ("home_floor_call", "home_hand_correct", "home_hand_void", "home_pot_ruling", "home_player_join"):
        assert action in actions
    assert actions.count("home_floor_call") == actions.count("floor_call_answer") == 3
    assert body["verdict"]["ok"] is True, body["verdict"]
    assert "floor's ruling" in body["verdict"]["note"]
    assert body["events"][0]["action_label"]  # the same event shape as the trail and the round timeline
    assert set(body["events"][0]) == set(_timeline(compliance_user, "/api/v1/audit/events/")["results"][0])


def test_a_stored_result_that_no_longer_matches_its_record_is_a_verdict_that_is_not_ok(
    played: Played, compliance_user: User
) -> None:
    stored = played.first.result
    HomeHand.objects.filter(pk=played.first.pk).update(result={**stored, "pots": []})
    for url in (f"/api/v1/audit/hands/{played.first.pk}/", f"/api/v1/audit/games/{played.game.pk}/"):
        verdict = _timeline(compliance_user, url)["verdict"]
        assert verdict["ok"] is False
        assert any("pots" in difference for difference in verdict["differences"]), verdict


def test_the_compliance_page_of_a_hand_shows_the_floor_call_made_during_it(
    played: Played, compliance_user: User
) -> None:
    client = APIClient()
    client.force_login(compliance_user)
    text = client.get(f"/compliance/home/hands/{played.first.pk}/").content.decode()
    assert "seat 1 says he checked" in text
    assert "misdeal" not in text  # the calls of other moments are not this hand's
    assert "between hands" not in text


def _urls(played: Played) -> list[str]:
    return [f"/api/v1/audit/games/{played.game.pk}/", f"/api/v1/audit/hands/{played.first.pk}/"]


@pytest.mark.parametrize("persona", ["compliance_user", "floor_user", "dealer_user", "other_dealer", "stranger"])
def test_the_home_timelines_have_the_round_timelines_readers(
    request: pytest.FixtureRequest, played: Played, persona: str
) -> None:
    user = request.getfixturevalue(persona)
    round_status = _get(user, "/api/v1/audit/rounds/1/").status_code
    assert round_status == (200 if persona == "compliance_user" else 403)
    for url in _urls(played):
        response = _get(user, url)
        assert response.status_code == round_status, (url, response.content)
        if round_status == 403:
            assert response.json()["error"]["message"] == "The audit API needs the compliance role."


def test_anyone_given_the_compliance_permission_reads_them_and_nobody_signed_out(
    played: Played, floor_user: User
) -> None:
    for url in _urls(played):
        assert _get(None, url).status_code == _get(None, "/api/v1/audit/rounds/1/").status_code
        assert _get(None, url).status_code in {401, 403}
    floor_user.user_permissions.add(Permission.objects.get(codename="use_compliance_screens"))
    granted = User.objects.get(pk=floor_user.pk)  # permissions are cached on the instance
    for url in _urls(played):
        assert _get(granted, url).status_code == 200


def test_an_unknown_id_is_a_json_404_naming_it(played: Played, compliance_user: User) -> None:
    game_id = HomeGame.objects.order_by("-pk").values_list("pk", flat=True).first() + 1000
    hand_id = HomeHand.objects.order_by("-pk").values_list("pk", flat=True).first() + 1000
    game = _get(compliance_user, f"/api/v1/audit/games/{game_id}/")
    assert game.status_code == 404
    assert game.json() == {"error": {"code": "game_not_found", "message": f"home game {game_id} does not exist"}}
    hand = _get(compliance_user, f"/api/v1/audit/hands/{hand_id}/")
    assert hand.status_code == 404
    assert hand.json() == {"error": {"code": "hand_not_found", "message": f"home hand {hand_id} does not exist"}}


@override_settings(AUDIT_HOME_GAME_TIMELINE="", AUDIT_HOME_HAND_TIMELINE="")
def test_without_a_provider_the_timelines_say_they_are_not_available(played: Played, compliance_user: User) -> None:
    response = _get(compliance_user, f"/api/v1/audit/games/{played.game.pk}/")
    assert response.status_code == 404
    assert response.json()["error"]["message"] == (
        "home game timelines are not available (AUDIT_HOME_GAME_TIMELINE is not set)")


def test_reading_the_timelines_writes_nothing(played: Played, compliance_user: User) -> None:
    counts = {model._meta.label: model._default_manager.count() for model in apps.get_models()}
    last = AuditEvent.objects.order_by("-id").values_list("id", flat=True).first()
    for url in [*_urls(played), f"/api/v1/audit/hands/{played.second.pk}/", "/api/v1/audit/games/999999/"]:
        _get(compliance_user, url)
    assert AuditEvent.objects.order_by("-id").values_list("id", flat=True).first() == last
    assert {model._meta.label: model._default_manager.count() for model in apps.get_models()} == counts


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_the_home_timelines_accept_no_writes(played: Played, compliance_user: User, method: str) -> None:
    events = AuditEvent.objects.count()
    for url in _urls(played):
        assert getattr(client_for(compliance_user), method)(url, {}, format="json").status_code == 405
    assert AuditEvent.objects.count() == events


def test_the_schema_documents_both_timelines(compliance_user: User) -> None:
    schema = client_for(compliance_user).get("/api/schema/", {"format": "json"}).json()
    for path, component in (("/api/v1/audit/games/{game_id}/", "HomeGameTimeline"),
                            ("/api/v1/audit/hands/{hand_id}/", "HomeHandTimeline")):
        operation = schema["paths"][path]["get"]
        assert operation["responses"]["200"]["content"]["application/json"]["schema"] == {
            "$ref": f"#/components/schemas/{component}"}
        assert "404" in operation["responses"]
        properties = schema["components"]["schemas"][component]["properties"]
        assert properties["events"]["items"] == {"$ref": "#/components/schemas/AuditEventOutput"}
        assert properties["verdict"]["allOf"] == [{"$ref": "#/components/schemas/TimelineVerdict"}]
