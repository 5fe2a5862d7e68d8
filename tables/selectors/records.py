"""A round's record and its independent replay: the DESIGN 9 export, the stored outcome and the replay verdict."""

from __future__ import annotations

from typing import Any

from casino.engine.errors import EngineError
from casino.engine.round_settlement import replay_round_record
from tables.models import Bet, DrawRow, HandOutcome, LedgerAccount, LedgerEntry, Round, SeatHand

Phase = Round.Phase
WITH_ROWS = (Phase.SETTLING, Phase.AWAITING_APPROVAL, Phase.SETTLED)


def round_record(round_id: int) -> dict[str, Any] | None:
    """The round's DESIGN 9 record by id, None if there is no such round (compliance's download, AUDIT_ROUND_RECORD:
    audit asks by id, never importing tables)."""
    rnd = Round.objects.select_related("table").filter(pk=round_id).first()
    return round_export(rnd) if rnd is not None else None


def round_export(round: Round) -> dict[str, Any]:
    """The DESIGN 9 round record of a round whose rows are recorded (replay_round reads it back)."""
    rnd = round
    snapshot = dict(rnd.paytable_snapshot or {})
    bets: dict[int, list[Bet]] = {}
    for bet in Bet.objects.filter(round=rnd).order_by("seat_number", "circle"):
        bets.setdefault(bet.seat_number, []).append(bet)
    hands = {h.seat_number: h for h in SeatHand.objects.filter(round=rnd)}
    seats = []
    for number, seat_bets in sorted(bets.items()):
        entry: dict[str, Any] = {
            "seat": number,
            "bet_cents": seat_bets[0].amount_cents,
            "circles": [bet.circle for bet in seat_bets],
            "held": (hands[number].held or []) if number in hands else [],
        }
        if number in hands and hands[number].dealt:
            entry["dealt"] = hands[number].dealt
        seats.append(entry)
    record: dict[str, Any] = {
        "table": rnd.table.name,
        "round": rnd.number,
        "phase": rnd.phase,
        "paytable": snapshot,
        "max_payout_per_seat_cents": rnd.table.max_payout_per_seat_cents,
        "rows": [row.cards for row in DrawRow.objects.filter(round=rnd).order_by("row")],
        "seats": seats,
    }
    if rnd.phase in (Phase.AWAITING_APPROVAL, Phase.SETTLED):
        record["outcome"] = stored_outcome(rnd)
    return record


def stored_outcome(rnd: Round) -> dict[str, Any]:
    """What was recorded as paid, in the DESIGN 9 output shape."""
    seats: dict[int, dict[str, Any]] = {}
    stakes: dict[int, int] = {}
    for o in HandOutcome.objects.filter(round=rnd).select_related("bet").order_by("seat_number", "circle"):
        seat = seats.setdefault(o.seat_number, {"seat": o.seat_number, "hands": [], "total_return_cents": 0})
        seat["hands"].append(
            {
                "circle": o.circle,
                "cards": o.cards,
                "hand": o.category,
                "line": o.line_hand or None,
                "return_cents": o.paid_cents,
            }
        )
        seat["total_return_cents"] += o.paid_cents
        stakes[o.seat_number] = stakes.get(o.seat_number, 0) + o.bet.amount_cents
    for number, seat in seats.items():
        seat["net_cents"] = seat["total_return_cents"] - stakes[number]
    return {
        "seats": [seats[n] for n in sorted(seats)],
        "table_net_cents": -sum(seat["net_cents"] for seat in seats.values()),
    }


def compare_outcomes(recomputed: dict[str, Any], stored: dict[str, Any]) -> list[str]:
    differences: list[str] = []
    want = {s["seat"]: s for s in recomputed["seats"]}
    got = {s["seat"]: s for s in stored["seats"]}
    for number in sorted(set(want) | set(got)):
        if number not in got:
            differences.append(f"seat {number}: recomputed hands but nothing was recorded")
            continue
        if number not in want:
            differences.append(f"seat {number}: recorded hands for a seat that did not bet")
            continue
        want_hands = {h["circle"]: h for h in want[number]["hands"]}
        got_hands = {h["circle"]: h for h in got[number]["hands"]}
        for circle in sorted(set(want_hands) | set(got_hands)):
            w, g = want_hands.get(circle), got_hands.get(circle)
            if w is None or g is None:
                differences.append(
                    f"seat {number} circle {circle}: {'not recorded' if g is None else 'not recomputed'}"
                )
                continue
            for key in ("cards", "hand", "line", "return_cents"):
                if w[key] != g[key]:
                    differences.append(
                        f"seat {number} circle {circle} {key}: recomputed {w[key]!r}, recorded {g[key]!r}"
                    )
    if recomputed["table_net_cents"] != stored["table_net_cents"]:
        differences.append(
            f"table net: recomputed {recomputed['table_net_cents']}, recorded {stored['table_net_cents']}"
        )
    return differences


def _ledger_differences(rnd: Round, recomputed: dict[str, Any]) -> list[str]:
    differences: list[str] = []
    legs: dict[int, dict[str, int]] = {}
    for bet_id, account, amount in LedgerEntry.objects.filter(round=rnd).values_list(
        "bet_id", "account", "amount_cents"
    ):
        legs.setdefault(bet_id, {})[account] = amount
    bets = list(Bet.objects.filter(round=rnd))
    if rnd.phase != Phase.SETTLED:
        if legs:
            differences.append(f"ledger posted for a round that is {rnd.phase}")
        return differences
    paid = {(s["seat"], h["circle"]): h["return_cents"] for s in recomputed["seats"] for h in s["hands"]}
    for bet in bets:
        posting = legs.get(bet.pk)
        if posting is None:
            differences.append(f"seat {bet.seat_number} circle {bet.circle}: no ledger posting")
            continue
        if sum(posting.values()) != 0:
            differences.append(f"seat {bet.seat_number} circle {bet.circle}: ledger posting does not sum to zero")
        expected = paid.get((bet.seat_number, bet.circle), 0) - bet.amount_cents
        if posting.get(LedgerAccount.SEAT) != expected:
            differences.append(
                f"seat {bet.seat_number} circle {bet.circle} ledger: seat credited "
                f"{posting.get(LedgerAccount.SEAT)}, recomputed {expected}"
            )
    return differences


def round_replay(round: Round) -> dict[str, Any]:
    """Recompute a stored round from its export alone and list every difference from what was recorded and paid."""
    rnd = round
    if rnd.phase not in WITH_ROWS:
        return {"ok": True, "checked": False, "phase": rnd.phase, "differences": [], "recomputed": None}
    record = round_export(rnd)
    try:
        recomputed = replay_round_record(record).to_dict()
    except EngineError as exc:
        return {
            "ok": False,
            "checked": True,
            "phase": rnd.phase,
            "differences": [f"cannot replay: {exc}"],
            "recomputed": None,
        }
    differences: list[str] = []
    if rnd.phase == Phase.SETTLING:
        return {"ok": True, "checked": False, "phase": rnd.phase, "differences": [], "recomputed": recomputed}
    differences += compare_outcomes(recomputed, record["outcome"])
    differences += _ledger_differences(rnd, recomputed)
    return {
        "ok": not differences,
        "checked": True,
        "phase": rnd.phase,
        "differences": differences,
        "recomputed": recomputed,
    }


def round_replay_verdict(round_id: int) -> dict[str, Any]:
    """For the audit timeline (settings.AUDIT_ROUND_VERDICT): {"ok": bool, "differences": [...]}."""
    rnd = Round.objects.select_related("table").filter(pk=round_id).first()
    if rnd is None:
        return {"ok": False, "differences": [f"round {round_id} does not exist"]}
    verdict = round_replay(rnd)
    return {
        "ok": verdict["ok"],
        "differences": verdict["differences"],
        "checked": verdict["checked"],
        "phase": verdict["phase"],
    }
