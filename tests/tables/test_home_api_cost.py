"""What a home-game action costs through the API: its queries are bounded, the answer (built from the engine hand the
write just stored) is the state a fresh read rebuilds from the record, and a draw's cards are in its one audit event."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from audit.models import AuditEvent
from tables.models import HomeHand, Table
from tables.services import home_engine
from tests.tables.helpers import ok
from tests.tables.test_home_api import open_game

# The game locked and bumped with its table read, the hand locked and bumped, the dealer's assignment, the players,
# the audit event, the hand written, a bet's or call's ledger posting and the game's pot, and in a test the savepoint
# and its release: 11 (a check, which moves no chips, 8; it took 15 before this was counted).
MOST_QUERIES_AN_ACTION = 11
# Where the database cannot check the ledger at commit (SQLite), the service reads the game's sums: three more; and
# SQLite cannot lock a row and read its table in one statement: one more.
CHECKING_THE_LEDGER = 4


def next_body(hand: dict[str, Any]) -> dict[str, Any]:
    seat = hand["awaiting"]["seat"]
    if hand["legal"] is not None:
        return {"seat": seat, "action": "check" if "check" in hand["legal"]["actions"] else "call"}
    held = next(p["cards"] for p in hand["players"] if p["seat"] == seat)
    return {"seat": seat, "action": "draw", "cards": held[:3]}


def test_every_action_of_a_hand_answers_what_a_fresh_read_gives_within_its_query_bound(
    home_table: Callable[..., Table], dealer_api: APIClient
) -> None:
    game = open_game(dealer_api, home_table("five-card-draw"), players=4)
    hand = ok(dealer_api.post(f"/api/v1/games/{game['id']}/hands/", {}, format="json"), 201)
    assert hand == ok(dealer_api.get(f"/api/v1/hands/{hand['id']}/"))
    counts = []
    while hand["status"] == "in_play":
        body = next_body(hand)
        if not counts:  # a bet first, so the calls move chips
            body = {"seat": body["seat"], "action": "bet", "amount_cents": hand["legal"]["bet"]["minimum_cents"]}
        with CaptureQueriesContext(connection) as queries:
            answer = ok(dealer_api.post(f"/api/v1/hands/{hand['id']}/actions/", body, format="json"))
        counts.append(len(queries.captured_queries))
        assert answer == ok(dealer_api.get(f"/api/v1/hands/{hand['id']}/")), body
        hand = answer
    assert hand["status"] == "settled"
    # The last action settles the hand: the award, its audit event and the floor's figures come on top.
    most = MOST_QUERIES_AN_ACTION + (0 if connection.vendor == "postgresql" else CHECKING_THE_LEDGER)
    assert max(counts[:-1]) <= most, counts


def test_a_draw_on_an_rng_table_is_one_audit_event_with_its_replacement_cards(
    home_table: Callable[..., Table], dealer_api: APIClient
) -> None:
    game = open_game(dealer_api, home_table("five-card-draw"), players=2)
    hand = ok(dealer_api.post(f"/api/v1/games/{game['id']}/hands/", {}, format="json"), 201)
    while hand["phase"] != "drawing":
        hand = ok(dealer_api.post(f"/api/v1/hands/{hand['id']}/actions/", next_body(hand), format="json"))
    seat = hand["awaiting"]["seat"]
    before = AuditEvent.objects.count()
    held = next(p["cards"] for p in hand["players"] if p["seat"] == seat)
    answer = ok(dealer_api.post(f"/api/v1/hands/{hand['id']}/actions/",
                                {"seat": seat, "action": "draw", "cards": held[:3]}, format="json"))
    assert AuditEvent.objects.count() == before + 1
    event = AuditEvent.objects.order_by("-id").first()
    assert event is not None
    assert event.action == "home_hand_action"
    assert event.after["action"] == f"{seat} draw {' '.join(held[:3])}"
    now = next(p["cards"] for p in answer["players"] if p["seat"] == seat)
    assert [card for _, card in event.after["cards"]] == now[2:]
    assert {dealt_to for dealt_to, _ in event.after["cards"]} == {seat}
    assert HomeHand.objects.get(pk=hand["id"]).record["actions"][-1] == event.after["action"]


def test_the_next_write_takes_the_engine_hand_the_last_answer_was_built_from(
    home_table: Callable[..., Table], dealer_api: APIClient, floor_api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    rebuilt: list[int] = []
    original = home_engine.rebuild

    def counting(row: HomeHand, rules: Any) -> Any:
        rebuilt.append(row.pk)
        return original(row, rules)

    monkeypatch.setattr(home_engine, "rebuild", counting)
    game = open_game(dealer_api, home_table("five-card-draw"), players=3)
    hand = ok(dealer_api.post(f"/api/v1/games/{game['id']}/hands/", {}, format="json"), 201)
    for _ in range(3):
        hand = ok(dealer_api.post(f"/api/v1/hands/{hand['id']}/actions/", next_body(hand), format="json"))
    assert rebuilt == []
    # A write elsewhere (the floor's correction, which plays the hand again) moves the version on: rebuilt next time.
    ok(floor_api.post(f"/api/v1/hands/{hand['id']}/correct/", {"index": 0, "action": hand["actions"][0],
                                                               "reason": "the same, recorded again"},
                      format="json"))
    hand = ok(dealer_api.get(f"/api/v1/hands/{hand['id']}/"))
    answer = ok(dealer_api.post(f"/api/v1/hands/{hand['id']}/actions/", next_body(hand), format="json"))
    assert rebuilt == [hand["id"]]
    assert answer == ok(dealer_api.get(f"/api/v1/hands/{hand['id']}/"))
