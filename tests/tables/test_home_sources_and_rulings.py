"""Home-game card sources (a card-reading shoe, physical cards recorded on a manual table) and the floor's rulings
(void, correct, award), each with a reason, audited, the original record kept."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from casino.errors import DomainError, NotAllowed, WrongPhase
from tables.models import HomeGame, Table
from tables.services.devices import device_create
from tables.services.home_games import game_close, game_open
from tables.services.home_hands import hand_act, hand_start
from tables.services.home_rulings import hand_award, hand_correct, hand_void
from tests.tables.helpers import ok
from tests.tables.test_home_services import balanced, deck, play, seat_players


def test_a_shoe_reports_each_card_the_hand_awaits(home_table: Callable[..., Table], floor_user: User,
                                                   dealer_api: APIClient) -> None:
    table = home_table("freak-of-nature", source="shoe")
    _, token = device_create(table=table, name="shoe 1", actor=floor_user)
    game = ok(dealer_api.post(f"/api/v1/tables/{table.pk}/games/", {"players": [
        {"seat": 1, "name": "A", "buy_in_cents": 10_000}, {"seat": 2, "name": "B", "buy_in_cents": 10_000}]},
        format="json"), 201)
    hand = ok(dealer_api.post(f"/api/v1/games/{game['id']}/hands/", {"button": 2}, format="json"), 201)
    assert hand["awaiting"] == {"kind": "card", "seat": 1, "count": 1, "seats": [], "text": "a card for seat 1"}
    shoe = APIClient()
    cards = deck(2, {1: "5h 5d 9c 9s Kh", 2: "Qs Qd Qc 4h 7d"}, stock="2c")
    post = lambda sent: shoe.post("/api/v1/shoe/cards/", {"cards": sent}, format="json",  # noqa: E731
                                  HTTP_AUTHORIZATION=f"Device {token}")
    assert post(["5h", "5h"]).status_code == 400  # the same card twice: all or nothing
    assert ok(dealer_api.get(f"/api/v1/hands/{hand['id']}/"))["players"][0]["cards"] == []
    assert ok(post(cards[:10]))["phase"] == "betting"
    hand = ok(dealer_api.get(f"/api/v1/hands/{hand['id']}/"))
    assert hand["players"][0]["cards"] == ["5h", "5d", "9c", "9s", "Kh"]
    for body in ({"seat": 1, "action": "check"}, {"seat": 2, "action": "check"},
                 {"seat": 1, "action": "draw", "cards": ["Kh"]}):
        hand = ok(dealer_api.post(f"/api/v1/hands/{hand['id']}/actions/", body, format="json"))
    assert hand["awaiting"]["kind"] == "card"
    assert post(["Kh"]).status_code == 400  # the discard cannot come back
    ok(post(["2c"]))
    for body in ({"seat": 2, "action": "draw", "cards": []}, {"seat": 1, "action": "check"},
                 {"seat": 2, "action": "check"}):
        hand = ok(dealer_api.post(f"/api/v1/hands/{hand['id']}/actions/", body, format="json"))
    assert hand["summary"]["wild_rank"] == "5"
    assert hand["summary"]["pots"] == [{"amount_cents": 200, "winners": [1]}]
    assert post(["3c"]).status_code == 409  # no hand in play


def test_a_manual_table_records_the_betting_the_counts_drawn_and_the_hands_shown(
    home_table: Callable[..., Table], dealer_api: APIClient
) -> None:
    table = home_table("five-card-draw", source="manual", rules={"kill_cards": ["Kd"]})
    game = ok(dealer_api.post(f"/api/v1/tables/{table.pk}/games/", {"players": [
        {"seat": s, "name": f"P{s}", "buy_in_cents": 10_000} for s in (1, 2, 3)]}, format="json"), 201)
    hand = ok(dealer_api.post(f"/api/v1/games/{game['id']}/hands/", {"button": 3}, format="json"), 201)
    assert hand["awaiting"]["kind"] == "deal"
    url = f"/api/v1/hands/{hand['id']}/actions/"
    for body in ({"action": "dealt"}, {"seat": 1, "action": "check"}, {"seat": 2, "action": "check"},
                 {"seat": 3, "action": "check"}):
        hand = ok(dealer_api.post(url, body, format="json"))
    # Five-card draw: at most 3, or 4 keeping an ace: the tablet asks the dealer to confirm the ace.
    answer = dealer_api.post(url, {"seat": 1, "action": "draw", "count": 4}, format="json")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "wrong_discard_count"
    hand = ok(dealer_api.post(url, {"seat": 1, "action": "draw", "count": 4, "keeps_ace": True}, format="json"))
    hand = ok(dealer_api.post(url, {"seat": 2, "action": "draw", "count": 2}, format="json"))
    hand = ok(dealer_api.post(url, {"seat": 3, "action": "killed", "card": "Kd"}, format="json"))
    assert hand["players"][2]["dead"] is True
    for body in ({"seat": 1, "action": "bet", "amount_cents": 400}, {"seat": 2, "action": "call"}):
        hand = ok(dealer_api.post(url, body, format="json"))
    assert hand["awaiting"]["kind"] == "show"
    cards_url = f"/api/v1/hands/{hand['id']}/cards/"
    answer = dealer_api.post(cards_url, {"seat": 1, "cards": ["Qs", "Qd", "Qc", "4h", "7d"]}, format="json")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "ace_not_shown"
    ok(dealer_api.post(cards_url, {"seat": 1, "cards": ["As", "Ad", "Qc", "4h", "7d"]}, format="json"))
    hand = ok(dealer_api.post(cards_url, {"seat": 2, "cards": ["Ks", "Kh", "Qd", "4c", "7c"]}, format="json"))
    assert hand["status"] == "settled"
    assert hand["summary"] == {"wild_rank": None, "dead": [3], "pots": [{"amount_cents": 1_100, "winners": [1]}],
                               "legs": {}}
    assert "2 draw 2" in hand["actions"]
    assert "1 draw 4 ace" in hand["actions"]


def test_the_floor_corrects_a_recorded_action_and_the_chips_follow(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User, assert_audited: Any
) -> None:
    game = game_open(table=home_table("five-card-draw"), actor=dealer_user, players=seat_players(2))
    hand = hand_start(game=game, actor=dealer_user, button=2, deck=deck(2, {1: "As Ad 4c 5c 7d", 2: "Kc Kh 4d 5d 8c"}))
    hand = play(hand, dealer_user, "1 bet 200")
    with pytest.raises(NotAllowed):
        hand_correct(hand=hand.pk, actor=dealer_user, index=0, action="1 check", reason="misheard")
    with pytest.raises(DomainError) as refused:
        hand_correct(hand=hand.pk, actor=floor_user, index=0, action="1 check", reason="")
    assert refused.value.field == "reason"
    hand = hand_correct(hand=hand.pk, actor=floor_user, index=0, action="1 check", reason="the player checked")
    assert hand.record["actions"] == ["1 check"]
    assert hand.original_record["actions"] == ["1 bet 200"]
    assert dict(game.players.values_list("seat", "stack_cents")) == {1: 9_900, 2: 9_900}
    assert_audited("home_hand_correct", table_id=game.table_id, reason="the player checked")
    balanced(game)
    with pytest.raises(DomainError) as refused:
        hand_correct(hand=hand.pk, actor=floor_user, index=0, action="2 check", reason="x")
    assert refused.value.code == "bad_correction"
    play(hand, dealer_user, "2 check", "1 draw", "2 draw", "1 check", "2 check")
    hand.refresh_from_db()
    assert hand.result["pots"] == [{"amount_cents": 200, "winners": [1]}]


def test_the_floor_awards_a_pot_by_ruling_and_voids_a_hand(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User, assert_audited: Any
) -> None:
    game = game_open(table=home_table("pregnant-threes", rules={"draws": 1, "cards_per_draw": 3,
                                                                "draw": "optional"}),
                     actor=dealer_user, players=seat_players(3))
    hand = hand_start(game=game, actor=dealer_user, button=3)
    hand = play(hand, dealer_user, "1 bet 200", "2 call")
    with pytest.raises(NotAllowed):
        hand_award(hand=hand.pk, actor=dealer_user, seats=[2], reason="exposed card")
    hand = hand_award(hand=hand.pk, actor=floor_user, seats=[2, 1], reason="a card exposed, split by ruling")
    assert hand.status == "settled"
    assert hand.ruling["seats"] == [1, 2]
    assert dict(game.players.values_list("seat", "stack_cents")) == {1: 10_050, 2: 10_050, 3: 9_900}
    assert_audited("home_pot_ruling", table_id=game.table_id)
    hand = hand_start(game=game, actor=dealer_user)
    play(hand, dealer_user, "2 bet 200")
    hand = hand_void(hand=hand.pk, actor=floor_user, reason="misdeal")
    assert dict(game.players.values_list("seat", "stack_cents")) == {1: 10_050, 2: 10_050, 3: 9_900}
    assert hand.record["actions"] == ["2 bet 200"]  # the original record is kept
    # The hand's view (API, compliance) shows the stacks after the void, not as the hand stood when it was voided.
    from tables.selectors.home import hand_view

    shown = {p["seat"]: (p["stack_cents"], p["in_pot_cents"]) for p in hand_view(hand)["players"]}
    assert shown == {1: (10_050, 0), 2: (10_050, 0), 3: (9_900, 0)}
    assert_audited("home_hand_void", table_id=game.table_id, reason="misdeal")
    balanced(game)
    # As after a misdeal, the button does not move: the hand dealt again has the voided hand's button (seat 1, left
    # of seat 3's), however many times it is voided.
    assert hand.button == 1
    again = hand_start(game=game, actor=dealer_user)
    assert again.button == 1
    hand_void(hand=again.pk, actor=floor_user, reason="dealt from the wrong deck")
    assert hand_start(game=game, actor=dealer_user).button == 1


def test_closing_a_leg_game_by_ruling_awards_the_carried_pot_with_a_reason(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User
) -> None:
    game = game_open(table=home_table("three-legged-race"), actor=dealer_user, players=seat_players(2))
    hand = hand_start(game=game, actor=dealer_user, button=2, deck=deck(2, {1: "As Ad 4c 5c 7d", 2: "Kc Kh 4d 5d 8c"},
                                                                      stock="2c 2d 2h 3c 3d 3h"))
    play(hand, dealer_user, "1 check", "2 check", "1 draw 4c 5c 7d", "2 draw 4d 5d 8c", "1 check", "2 check")
    game.refresh_from_db()
    assert game.pot_cents == 200
    with pytest.raises(DomainError) as refused:
        game_close(game=game, actor=floor_user, award_seat=1, reason=" ")
    assert refused.value.field == "reason"
    game_close(game=game, actor=floor_user, award_seat=1, reason="seat 2 agreed to concede")
    game = HomeGame.objects.get(pk=game.pk)
    assert game.status == "closed"
    assert dict(game.players.values_list("seat", "cashed_out_cents")) == {1: 10_100, 2: 9_900}
    balanced(game)
    with pytest.raises(WrongPhase):  # the hand and the game are over
        hand_act(hand=hand.pk, actor=dealer_user, seat=1, action="check")


def test_a_voided_hand_is_dealt_again_with_the_same_button(
    home_table: Callable[..., Table], dealer_user: User, floor_user: User
) -> None:
    # A misdeal voided by the floor is no hand: the redeal keeps the button where it was (the button moves one seat
    # left only after a hand that was played).
    game = game_open(table=home_table("five-card-draw"), actor=dealer_user, players=seat_players(3))
    first = hand_start(game=game, actor=dealer_user, button=2)
    hand_void(hand=first.pk, actor=floor_user, reason="misdeal")
    assert hand_start(game=game, actor=dealer_user).button == 2
