"""Every bad input gets a 4xx JSON error naming the problem, and the round is left exactly as it was."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from audit.models import AuditEvent
from tables.models import Table
from tests.tables.conftest import client_for
from tests.tables.helpers import bet, ok, start

pytestmark = pytest.mark.django_db

DEALT = {"1": ["Js", "Jh", "4c", "7d", "9s"], "2": ["Ac", "Kc", "Qc", "Tc", "2d"]}


def betting_round(api: APIClient, table: Table) -> int:
    round_id = start(api, table.pk)
    ok(bet(api, round_id, 1, 1000, 3))
    ok(bet(api, round_id, 2, 1000, 1))
    return round_id


def holding_round(api: APIClient, table: Table) -> int:
    round_id = betting_round(api, table)
    ok(api.post(f"/api/v1/rounds/{round_id}/close-bets/"))
    ok(api.post(f"/api/v1/rounds/{round_id}/deal/", {"cards": DEALT}, format="json"))
    return round_id


def snapshot(api: APIClient, round_id: int) -> tuple[dict[str, Any], int]:
    return ok(api.get(f"/api/v1/rounds/{round_id}/")), AuditEvent.objects.count()


def refused(
    api: APIClient,
    round_id: int,
    method: str,
    path: str,
    body: Any,
    status: int,
    code: str,
    says: str,
    reader: APIClient | None = None,
) -> None:
    reader = reader or api
    before = snapshot(reader, round_id)
    response = getattr(api, method)(f"/api/v1/rounds/{round_id}/{path}", body, format="json")
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert error["code"] == code
    assert says.lower() in error["message"].lower()
    assert snapshot(reader, round_id) == before


BETTING_CASES = [
    # Rule sheet: "All bets must be equal."
    ("unequal bets", {"seat": 3, "amounts_cents": [500, 600]}, 400, "unequal_bets", "equal"),
    (
        "a fourth circle by number",
        {"seat": 3, "amount_cents": 500, "circles": [1, 2, 3, 4]},
        400,
        "bad_circles",
        "1 to 3",
    ),
    ("four circles by count", {"seat": 3, "amount_cents": 500, "circles": 4}, 400, "bad_circles", "1 to 3"),
    ("a circle that does not exist", {"seat": 3, "amount_cents": 500, "circles": [4]}, 400, "bad_circles", "circle 4"),
    ("a bet below the minimum", {"seat": 3, "amount_cents": 100, "circles": 1}, 400, "bet_outside_limits", "limits"),
    # In dollars, as every other screen and message: the limits read as money, not bare cents.
    ("a bet above the maximum", {"seat": 3, "amount_cents": 20_000, "circles": 1}, 400, "bet_outside_limits",
     "a bet of $200.00 a circle is outside the table limits $"),
    ("an eighth seat", {"seat": 8, "amount_cents": 500, "circles": 1}, 400, "bad_seat", "seat"),
    ("no amount at all", {"seat": 3, "circles": 1}, 400, "invalid", "amount_cents"),
]


@pytest.mark.parametrize(("case", "body", "status", "code", "says"), BETTING_CASES, ids=[c[0] for c in BETTING_CASES])
def test_a_bad_bet_is_refused_and_changes_nothing(
    manual_table: Table, dealer_api: APIClient, case: str, body: dict[str, Any], status: int, code: str, says: str
) -> None:
    round_id = betting_round(dealer_api, manual_table)
    refused(dealer_api, round_id, "post", "bets/", body, status, code, says)


HOLDING_CASES = [
    ("a bet after bets closed", "bets/", {"seat": 1, "amount_cents": 500, "circles": 1}, 409, "wrong_phase", "closed"),
    ("a card dealt twice", "deal/", {"cards": {"1": ["Js", "2c", "3c", "4d", "5d"]}}, 400, "already_dealt", "seat 1"),
    (
        "a held card not among the dealt cards",
        "holds/",
        {"seat": 1, "held": ["Js", "Qd"]},
        400,
        "held_not_dealt",
        "Qd",
    ),
    (
        "six held cards",
        "holds/",
        {"seat": 1, "held": ["Js", "Jh", "4c", "7d", "9s", "2h"]},
        400,
        "too_many_held",
        "at most 5",
    ),
    ("a held card twice", "holds/", {"seat": 1, "held": ["Js", "Js"]}, 400, "duplicate_card", "Js"),
    ("a malformed card", "holds/", {"seat": 1, "held": ["Zz"]}, 400, "bad_card", "Zz"),
    (
        "rows before every hold is in",
        "rows/",
        {"rows": [["2h", "3h", "4h", "5h", "6h"]] * 3},
        409,
        "holds_missing",
        "hold",
    ),
    ("a hold for a seat without a bet", "holds/", {"seat": 5, "held": []}, 400, "seat_has_no_bets", "seat 5"),
]


@pytest.mark.parametrize(
    ("case", "path", "body", "status", "code", "says"), HOLDING_CASES, ids=[c[0] for c in HOLDING_CASES]
)
def test_a_bad_card_entry_is_refused_and_changes_nothing(
    manual_table: Table, dealer_api: APIClient, case: str, path: str, body: Any, status: int, code: str, says: str
) -> None:
    round_id = holding_round(dealer_api, manual_table)
    refused(dealer_api, round_id, "post", path, body, status, code, says)


def test_a_dealt_card_already_in_the_round_is_refused(manual_table: Table, dealer_api: APIClient) -> None:
    round_id = betting_round(dealer_api, manual_table)
    ok(dealer_api.post(f"/api/v1/rounds/{round_id}/close-bets/"))
    ok(dealer_api.post(f"/api/v1/rounds/{round_id}/deal/", {"cards": {"1": DEALT["1"]}}, format="json"))
    # DESIGN 5: "A card appears at most once per round across all seats and rows."
    refused(
        dealer_api,
        round_id,
        "post",
        "deal/",
        {"cards": {"2": ["Js", "Kc", "Qc", "Tc", "2d"]}},
        400,
        "duplicate_card",
        "Js",
    )


def test_a_row_card_already_dealt_is_refused(manual_table: Table, dealer_api: APIClient) -> None:
    round_id = holding_round(dealer_api, manual_table)
    ok(dealer_api.post(f"/api/v1/rounds/{round_id}/holds/", {"seat": 1, "held": ["Js"]}, format="json"))
    ok(dealer_api.post(f"/api/v1/rounds/{round_id}/holds/", {"seat": 2, "held": []}, format="json"))
    rows = [["2h", "3h", "4h", "5h", "6h"], ["7h", "8h", "9h", "Th", "Qh"], ["Kh", "Ah", "2s", "3s", "Ac"]]
    refused(dealer_api, round_id, "post", "rows/", {"rows": rows}, 400, "duplicate_card", "Ac")
    rows[2][4] = "4s"
    rows[2][3] = "3s "  # surrounding spaces are tolerated, a fourth row is not
    refused(dealer_api, round_id, "post", "rows/", {"rows": [*rows, rows[0]]}, 400, "wrong_row_count", "3 rows")


def test_a_dealer_cannot_act_on_another_table(manual_table: Table, dealer_api: APIClient, other_dealer: User) -> None:
    round_id = betting_round(dealer_api, manual_table)
    refused(
        client_for(other_dealer),
        round_id,
        "post",
        "bets/",
        {"seat": 3, "amount_cents": 500, "circles": 1},
        403,
        "not_assigned",
        manual_table.name,
        reader=dealer_api,  # a dealer reads only the tables assigned to them, as on the tablet
    )


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("bets/", {"seat": 3, "amount_cents": 500, "circles": 1}),
        ("close-bets/", {}),
        ("void/", {"reason": "compliance tries"}),
    ],
)
def test_compliance_reads_but_cannot_write(
    manual_table: Table, dealer_api: APIClient, compliance_user: User, path: str, body: Any
) -> None:
    round_id = betting_round(dealer_api, manual_table)
    compliance = client_for(compliance_user)
    assert compliance.get(f"/api/v1/rounds/{round_id}/").status_code == 200
    refused(compliance, round_id, "post", path, body, 403, "read_only", "read-only")


def test_a_stranger_can_neither_read_nor_write(manual_table: Table, dealer_api: APIClient, stranger: User) -> None:
    round_id = betting_round(dealer_api, manual_table)
    api = client_for(stranger)
    assert api.get(f"/api/v1/rounds/{round_id}/").json()["error"]["code"] == "permission_denied"
    assert api.get("/api/v1/tables/").status_code == 403
    refused(api, round_id, "post", "close-bets/", {}, 403, "permission_denied", "role", reader=dealer_api)


def test_an_anonymous_request_is_refused_with_json(manual_table: Table) -> None:
    response = APIClient().get("/api/v1/tables/")
    assert response.status_code in (401, 403)
    assert "error" in response.json()


def test_a_dealer_cannot_void_and_a_void_needs_a_reason(
    manual_table: Table, dealer_api: APIClient, floor_api: APIClient
) -> None:
    round_id = betting_round(dealer_api, manual_table)
    refused(dealer_api, round_id, "post", "void/", {"reason": "misdeal"}, 403, "floor_only", "floor")
    refused(floor_api, round_id, "post", "void/", {"reason": "  "}, 400, "reason_required", "reason")
    state = ok(floor_api.post(f"/api/v1/rounds/{round_id}/void/", {"reason": "misdeal"}, format="json"))
    assert (state["phase"], state["void_reason"]) == ("voided", "misdeal")
    refused(floor_api, round_id, "post", "void/", {"reason": "again"}, 409, "wrong_phase", "voided")


def test_a_bad_entry_in_a_batch_of_bets_refuses_the_whole_batch(manual_table: Table, dealer_api: APIClient) -> None:
    round_id = betting_round(dealer_api, manual_table)
    batch = {
        "bets": [
            {"seat": 3, "amount_cents": 500, "circles": 3},
            {"seat": 4, "amounts_cents": [500, 700]},
        ]
    }
    refused(dealer_api, round_id, "post", "bets/batch/", batch, 400, "unequal_bets", "bets[1] (seat 4)")


def test_a_bad_entry_in_a_batch_of_holds_refuses_the_whole_batch(manual_table: Table, dealer_api: APIClient) -> None:
    round_id = holding_round(dealer_api, manual_table)
    batch = {"holds": [{"seat": 1, "held": ["Js", "Jh"]}, {"seat": 2, "held": ["Js"]}]}
    refused(dealer_api, round_id, "post", "holds/batch/", batch, 400, "held_not_dealt", "holds[1] (seat 2)")
