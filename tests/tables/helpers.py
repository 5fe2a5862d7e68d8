"""Helpers that drive a round through the REST API the way a dealer tablet does."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from tables.models import Round
from tables.tasks import settle_round


def ok(response: Any, status: int = 200) -> dict[str, Any]:
    assert response.status_code == status, response.content
    return dict(response.json())


def start(api: APIClient, table_id: int) -> int:
    return int(ok(api.post(f"/api/v1/tables/{table_id}/rounds/"), 201)["id"])


def bet(api: APIClient, round_id: int, seat: int, amount: int, circles: Any) -> Any:
    return api.post(
        f"/api/v1/rounds/{round_id}/bets/", {"seat": seat, "amount_cents": amount, "circles": circles}, format="json"
    )


def settle_now(round_id: int) -> str:
    """Run the settlement task body in this process (the queued on-commit job is not run under `db` tests)."""
    return str(settle_round.apply(args=[round_id]).get())


def play_manual(api: APIClient, table_id: int, seats: dict[int, dict[str, Any]], rows: list[str]) -> dict[str, Any]:
    """seats: {n: {"bet": cents, "circles": k, "dealt": "Js Jh ...", "held": "Js Jh"}}; returns the settled state."""
    round_id = start(api, table_id)
    for number, seat in seats.items():
        ok(bet(api, round_id, number, seat["bet"], seat["circles"]))
    ok(api.post(f"/api/v1/rounds/{round_id}/close-bets/"))
    ok(
        api.post(
            f"/api/v1/rounds/{round_id}/deal/",
            {"cards": {str(n): s["dealt"].split() for n, s in seats.items()}},
            format="json",
        )
    )
    for number, seat in seats.items():
        ok(api.post(f"/api/v1/rounds/{round_id}/holds/", {"seat": number, "held": seat["held"].split()}, format="json"))
    state = ok(api.post(f"/api/v1/rounds/{round_id}/rows/", {"rows": [r.split() for r in rows]}, format="json"))
    assert state["phase"] == Round.Phase.SETTLING
    settle_now(round_id)
    return ok(api.get(f"/api/v1/rounds/{round_id}/"))
