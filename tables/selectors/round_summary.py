"""What happened in a Triple Draw round, for the compliance timeline (settings.AUDIT_ROUND_SUMMARY) and its rules.

Plain JSON-like values only (audit names these functions in settings instead of importing tables).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.db import connection

from casino.api_time import api_time
from casino.sql import column as col
from casino.sql import placeholders
from casino.sql import table as tab
from tables.models import Bet, DrawRow, HandOutcome, Round, SeatHand


def round_summary(round_id: int) -> dict[str, Any] | None:
    """Seats, bets, cards, holds, rows, each hand's result and payout, approval and void of one round (None if none)."""
    rnd = Round.objects.select_related("table", "paytable", "approved_by", "dealer").filter(pk=round_id).first()
    if rnd is None:
        return None
    bets: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for bet in Bet.objects.filter(round=rnd).order_by("seat_number", "circle"):
        bets[bet.seat_number].append({"circle": bet.circle, "amount_cents": bet.amount_cents})
    hands = {h.seat_number: h for h in SeatHand.objects.filter(round=rnd)}
    outcomes: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for outcome in HandOutcome.objects.filter(round=rnd).order_by("seat_number", "circle"):
        outcomes[outcome.seat_number].append(
            {
                "circle": outcome.circle,
                "cards": list(outcome.cards),
                "hand": outcome.category,
                "description": outcome.description,
                "return_cents": outcome.return_cents,
                "paid_cents": outcome.paid_cents,
            }
        )
    seats = []
    for number in sorted(set(bets) | set(hands) | set(outcomes)):
        hand = hands.get(number)
        staked = sum(b["amount_cents"] for b in bets[number])
        paid = sum(o["paid_cents"] for o in outcomes[number])
        seats.append(
            {
                "seat": number,
                "bets": bets[number],
                "staked_cents": staked,
                "dealt": list(hand.dealt) if hand is not None else [],
                "held": list(hand.held) if hand is not None and hand.held is not None else None,
                "hands": outcomes[number],
                "paid_cents": paid,
                "net_cents": paid - staked if outcomes[number] else None,
            }
        )
    rows = [list(r.cards) for r in DrawRow.objects.filter(round=rnd).order_by("row")]
    return {
        "table": rnd.table.name,
        "table_id": rnd.table_id,
        "number": rnd.number,
        "phase": rnd.phase,
        "paytable": str(rnd.paytable) if rnd.paytable is not None else "",
        "dealer": rnd.dealer.get_username() if rnd.dealer is not None else "",
        "started_at": api_time(rnd.started_at),
        "rows_recorded_at": api_time(rnd.rows_recorded_at),
        "settled_at": api_time(rnd.settled_at),
        "approved_by": rnd.approved_by.get_username() if rnd.approved_by is not None else "",
        "approved_at": api_time(rnd.approved_at),
        "voided_at": api_time(rnd.voided_at),
        "void_reason": rnd.void_reason,
        "rows": rows,
        "seats": seats,
        "staked_cents": sum(s["staked_cents"] for s in seats),
        "paid_cents": sum(s["paid_cents"] for s in seats),
    }


def round_payouts(round_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    """Per round: what each seat was paid (after the cap) and the total, in one query (settings.AUDIT_ROUND_PAYOUTS)."""
    result: dict[int, dict[str, Any]] = {}
    ids = [int(pk) for pk in round_ids]
    if not ids:
        return result
    # Written out: the exception scan asks after every seal job that saw a settlement, and building the ORM's
    # grouped query cost more CPU than running it.
    round_column, seat = col(HandOutcome, "round"), col(HandOutcome, "seat_number")
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {round_column}, {seat}, SUM({col(HandOutcome, 'paid_cents')}) FROM {tab(HandOutcome)} "  # noqa: S608
            f"WHERE {round_column} IN ({placeholders(len(ids))}) GROUP BY {round_column}, {seat}",
            ids,
        )
        rows = cursor.fetchall()
    for round_id, seat_number, paid in rows:
        entry = result.setdefault(int(round_id), {"paid_cents": 0, "seats": {}})
        entry["seats"][int(seat_number)] = int(paid or 0)
        entry["paid_cents"] += int(paid or 0)
    return result
