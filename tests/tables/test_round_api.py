"""Whole Triple Draw rounds through the REST API: several seats, 1-3 circles, holds of 0-5 cards, both bases."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.db.models import Sum
from rest_framework.test import APIClient

from casino.engine.round_settlement import replay_round_record
from tables.models import HandOutcome, LedgerAccount, LedgerEntry, Round, Table
from tests.tables.helpers import bet, ok, play_manual, settle_now, start

pytestmark = pytest.mark.django_db

# Rule sheet: "Players holding two cards will use Draw Cards 1, 2, and 3 ... Players holding all five cards will not
# use any Draw Cards."
SEATS = {
    1: {"bet": 1000, "circles": 3, "dealt": "Js Jh 4c 7d 9s", "held": "Js Jh"},
    2: {"bet": 1000, "circles": 2, "dealt": "Ac Kc Qc Tc 2d", "held": "Ac Kc Qc Tc"},
    3: {"bet": 1000, "circles": 1, "dealt": "3s 3d 3h 8c 8d", "held": "3s 3d 3h 8c 8d"},
    4: {"bet": 1000, "circles": 3, "dealt": "5c 6d 7h 9c Kd", "held": ""},
    5: {"bet": 1000, "circles": [1], "dealt": "2s 4s 6s 8s Ts", "held": "2s"},
}
ROWS = ["Jc 2h 5d Qs 6h", "4d 4h Kh 2c 7s", "As Ah 9h 9d Qh"]


def hands_of(state: dict[str, Any], seat: int) -> list[tuple[int, str, list[str], int]]:
    entry = next(s for s in state["seats"] if s["seat"] == seat)
    return [(o["circle"], o["hand"], o["cards"], o["paid_cents"]) for o in entry["outcomes"]]


def test_a_manual_round_pays_each_circle_from_its_own_row(manual_table: Table, dealer_api: APIClient) -> None:
    state = play_manual(dealer_api, manual_table.pk, SEATS, ROWS)
    assert state["phase"] == "settled"
    assert hands_of(state, 1) == [
        (1, "three_of_a_kind", ["Js", "Jh", "Jc", "2h", "5d"], 3000),
        (2, "two_pair", ["Js", "Jh", "4d", "4h", "Kh"], 2000),
        (3, "two_pair", ["Js", "Jh", "As", "Ah", "9h"], 2000),
    ]
    assert hands_of(state, 2) == [
        (1, "royal_flush", ["Ac", "Kc", "Qc", "Tc", "Jc"], 800_000),
        (2, "high_card", ["Ac", "Kc", "Qc", "Tc", "4d"], 0),
    ]
    assert hands_of(state, 3) == [(1, "full_house", ["3s", "3d", "3h", "8c", "8d"], 9000)]
    assert hands_of(state, 4) == [
        (1, "high_card", ["Jc", "2h", "5d", "Qs", "6h"], 0),
        (2, "one_pair", ["4d", "4h", "Kh", "2c", "7s"], 0),
        (3, "two_pair", ["As", "Ah", "9h", "9d", "Qh"], 2000),
    ]
    # A pair of twos is below the jacks-or-better line: it loses.
    assert hands_of(state, 5) == [(1, "one_pair", ["2s", "Jc", "2h", "5d", "Qs"], 0)]
    assert {s["seat"]: s["net_cents"] for s in state["seats"] if s["circles"]} == {
        1: 4000,
        2: 798_000,
        3: 8000,
        4: -1000,
        5: -1000,
    }
    assert state["totals"] == {"stakes_cents": 10_000, "returns_cents": 818_000, "table_net_cents": -808_000}


def test_the_ledger_has_one_balanced_posting_per_bet_and_the_table_wins_stakes_minus_returns(
    manual_table: Table, dealer_api: APIClient
) -> None:
    state = play_manual(dealer_api, manual_table.pk, SEATS, ROWS)
    entries = LedgerEntry.objects.filter(round_id=state["id"])
    assert entries.count() == 2 * 10  # ten bets, two legs each
    assert entries.aggregate(total=Sum("amount_cents"))["total"] == 0
    for bet_id in entries.values_list("bet_id", flat=True).distinct():
        assert entries.filter(bet_id=bet_id).aggregate(total=Sum("amount_cents"))["total"] == 0
    bankroll = entries.filter(account=LedgerAccount.TABLE_BANKROLL).aggregate(total=Sum("amount_cents"))["total"]
    assert bankroll == state["totals"]["stakes_cents"] - state["totals"]["returns_cents"] == -808_000


def test_the_export_replays_to_the_same_outcomes(manual_table: Table, dealer_api: APIClient) -> None:
    state = play_manual(dealer_api, manual_table.pk, SEATS, ROWS)
    record = ok(dealer_api.get(f"/api/v1/rounds/{state['id']}/export/"))
    assert set(record) >= {"paytable", "rows", "seats"}
    assert record["rows"] == [row.split() for row in ROWS]
    replayed = replay_round_record(record).to_dict()
    assert replayed["table_net_cents"] == record["outcome"]["table_net_cents"] == -808_000
    for seat, stored in zip(replayed["seats"], record["outcome"]["seats"], strict=True):
        assert [(h["circle"], h["cards"], h["return_cents"]) for h in seat["hands"]] == [
            (h["circle"], h["cards"], h["return_cents"]) for h in stored["hands"]
        ]
    assert ok(dealer_api.get(f"/api/v1/rounds/{state['id']}/replay/"))["ok"] is True


def test_a_to_1_paytable_returns_the_stake_on_top_and_pushes_a_zero_line(
    rng_table: Table, dealer_api: APIClient, floor_user: Any, jacks_for_1: Any
) -> None:
    # House paytable, to_1: two pair pays 1 to 1 (returns 2x), jacks or better pays 0 to 1 (a push).
    manual = Table.objects.get(pk=rng_table.pk)
    manual.card_source = "manual"
    manual.save()
    seats = {
        1: {"bet": 500, "circles": 3, "dealt": "Js Jh 4c 7d 9s", "held": "Js Jh"},
        2: {"bet": 500, "circles": 1, "dealt": "Ac Kc Qc Tc 2d", "held": "Ac Kc Qc Tc"},
    }
    state = play_manual(dealer_api, manual.pk, seats, ROWS)
    assert hands_of(state, 1) == [
        (1, "three_of_a_kind", ["Js", "Jh", "Jc", "2h", "5d"], 1500),
        (2, "two_pair", ["Js", "Jh", "4d", "4h", "Kh"], 1000),
        (3, "two_pair", ["Js", "Jh", "As", "Ah", "9h"], 1000),
    ]
    assert hands_of(state, 2) == [(1, "royal_flush", ["Ac", "Kc", "Qc", "Tc", "Jc"], 500 * 251)]


def test_rng_rounds_with_random_holds_settle_and_replay(rng_table: Table, dealer_api: APIClient) -> None:
    chooser = random.Random(7)
    for _ in range(4):
        round_id = start(dealer_api, rng_table.pk)
        circles = {seat: chooser.randint(1, 3) for seat in range(1, 8)}
        for seat, count in circles.items():
            ok(bet(dealer_api, round_id, seat, 1000, count))
        ok(dealer_api.post(f"/api/v1/rounds/{round_id}/close-bets/"))
        state = ok(dealer_api.post(f"/api/v1/rounds/{round_id}/deal/", {}, format="json"))
        assert state["phase"] == "holding"
        assert state["rows"] == []  # no row card is known before the holds are locked
        for index, seat in enumerate(state["seats"]):
            held = seat["dealt"][: index % 6]  # holds of 0, 1, 2, 3, 4, 5 cards
            ok(
                dealer_api.post(
                    f"/api/v1/rounds/{round_id}/holds/", {"seat": seat["seat"], "held": held}, format="json"
                )
            )
        ok(dealer_api.post(f"/api/v1/rounds/{round_id}/rows/", {}, format="json"))
        settle_now(round_id)
        state = ok(dealer_api.get(f"/api/v1/rounds/{round_id}/"))
        assert state["phase"] == "settled"
        assert len(set(state["used_cards"])) == len(state["used_cards"]) == 7 * 5 + 15
        assert HandOutcome.objects.filter(round_id=round_id).count() == sum(circles.values())
        for seat in state["seats"]:
            for outcome in seat["outcomes"]:
                k = len(seat["held"])
                assert outcome["cards"] == seat["held"] + state["rows"][outcome["circle"] - 1][: 5 - k]
        entries = LedgerEntry.objects.filter(round_id=round_id)
        assert entries.aggregate(total=Sum("amount_cents"))["total"] == 0
        assert ok(dealer_api.get(f"/api/v1/rounds/{round_id}/replay/"))["ok"] is True
    assert Round.objects.filter(table=rng_table, phase="settled").count() == 4


def test_a_tablet_may_send_every_seats_bets_and_holds_in_one_request(
    manual_table: Table, dealer_api: APIClient
) -> None:
    round_id = start(dealer_api, manual_table.pk)
    bets = [{"seat": n, "amount_cents": s["bet"], "circles": s["circles"]} for n, s in SEATS.items()]
    state = ok(dealer_api.post(f"/api/v1/rounds/{round_id}/bets/batch/", {"bets": bets}, format="json"))
    assert {s["seat"]: s["circles"] for s in state["seats"] if s["circles"]} == {
        1: [1, 2, 3],
        2: [1, 2],
        3: [1],
        4: [1, 2, 3],
        5: [1],
    }
    ok(dealer_api.post(f"/api/v1/rounds/{round_id}/close-bets/"))
    ok(
        dealer_api.post(
            f"/api/v1/rounds/{round_id}/deal/",
            {"cards": {str(n): s["dealt"].split() for n, s in SEATS.items()}},
            format="json",
        )
    )
    holds = [{"seat": n, "held": s["held"].split()} for n, s in SEATS.items()]
    state = ok(dealer_api.post(f"/api/v1/rounds/{round_id}/holds/batch/", {"holds": holds}, format="json"))
    assert state["phase"] == "drawing"
    ok(dealer_api.post(f"/api/v1/rounds/{round_id}/rows/", {"rows": [r.split() for r in ROWS]}, format="json"))
    settle_now(round_id)
    assert ok(dealer_api.get(f"/api/v1/rounds/{round_id}/"))["totals"]["table_net_cents"] == -808_000


@pytest.mark.parametrize("amount", ["500", 500.0, "5.00", True])
def test_a_bet_that_is_not_a_json_integer_of_cents_is_refused_and_places_nothing(
    manual_table: Table, dealer_api: APIClient, amount: Any
) -> None:
    # Found by the API's user test: one seat's bet took "500" and 500.0, and read "5.00" (five dollars meant) as 5
    # cents; the batch endpoint already refused them.
    round_id = start(dealer_api, manual_table.pk)
    for body in ({"seat": 1, "amount_cents": amount}, {"seat": 1, "amounts_cents": [amount]}):
        response = dealer_api.post(f"/api/v1/rounds/{round_id}/bets/", body, format="json")
        assert response.status_code == 400, response.content
        assert "must be whole cents" in response.content.decode()
    assert not Round.objects.get(pk=round_id).bets.exists()
