"""Reads of tables and rounds: full round state, the DESIGN 9 export and the independent replay verdict."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from casino.engine.errors import EngineError
from casino.engine.round_settlement import replay_round_record
from tables.models import Bet, DrawRow, HandOutcome, LedgerAccount, LedgerEntry, Round, Seat, SeatHand, Table

Phase = Round.Phase
WITH_ROWS = (Phase.SETTLING, Phase.AWAITING_APPROVAL, Phase.SETTLED)
NO_HANDS = (Phase.BETTING,)
NO_ROWS = (Phase.BETTING, Phase.DEALING, Phase.HOLDING)


def table_list() -> QuerySet[Table]:
    return Table.objects.select_related("paytable").prefetch_related("dealers").order_by("name")


def table_current_round(table: Table) -> Round | None:
    return Round.objects.filter(table=table).exclude(phase__in=Round.FINISHED).first()


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def table_state(table: Table) -> dict[str, Any]:
    current = table_current_round(table)
    paytable = table.paytable
    return {
        "id": table.pk,
        "name": table.name,
        "table_type": table.table_type,
        "is_open": table.is_open,
        "card_source": table.card_source,
        "min_bet_cents": table.min_bet_cents,
        "max_bet_cents": table.max_bet_cents,
        "max_payout_per_seat_cents": table.max_payout_per_seat_cents,
        "supervisor_approval_threshold_cents": table.supervisor_approval_threshold_cents,
        "paytable": None
        if paytable is None
        else {
            "id": paytable.pk,
            "name": paytable.name,
            "version": paytable.version,
            "basis": paytable.basis,
            "status": paytable.status,
        },
        "dealers": sorted(user.username for user in table.dealers.all()),
        "seats": [
            {"seat": s.number, "occupied": s.occupied, "player_name": s.player_name, "player_card": s.player_card}
            for s in Seat.objects.filter(table=table).order_by("number")
        ],
        "current_round": None
        if current is None
        else {"id": current.pk, "number": current.number, "phase": current.phase},
    }


def round_state(round: Round) -> dict[str, Any]:
    """Everything the tablet and the API show about a round, JSON-ready."""
    rnd = round
    table = rnd.table
    bets: dict[int, dict[int, int]] = {}
    # .order_by(): the models' default ordering goes through round -> table (two joins and a sort) for nothing.
    for seat_number, circle, amount in (
        Bet.objects.filter(round=rnd).order_by().values_list("seat_number", "circle", "amount_cents")
    ):
        bets.setdefault(seat_number, {})[circle] = amount
    # Each part is read only in the phases where it can exist (a round's state is read after every action).
    hands = (
        {h.seat_number: h for h in SeatHand.objects.filter(round=rnd).order_by()} if rnd.phase not in NO_HANDS else {}
    )
    outcomes: dict[int, list[dict[str, Any]]] = {}
    paid_phases = (Phase.AWAITING_APPROVAL, Phase.SETTLED, Phase.VOIDED)
    found = HandOutcome.objects.filter(round=rnd) if rnd.phase in paid_phases else HandOutcome.objects.none()
    for o in found.order_by("seat_number", "circle"):
        outcomes.setdefault(o.seat_number, []).append(
            {
                "circle": o.circle,
                "cards": o.cards,
                "hand": o.category,
                "description": o.description,
                "line": o.line_hand or None,
                "paytable_line_id": o.paytable_line_id,
                "return_cents": o.return_cents,
                "paid_cents": o.paid_cents,
            }
        )
    players = {s.number: s for s in Seat.objects.filter(table=table).order_by()}
    numbers = sorted(set(bets) | {n for n, s in players.items() if s.occupied})
    seats = []
    total_stake = total_paid = 0
    for number in numbers:
        seat_bets = bets.get(number, {})
        stake = sum(seat_bets.values())
        paid = sum(o["paid_cents"] for o in outcomes.get(number, []))
        total_stake += stake
        total_paid += paid
        hand = hands.get(number)
        seat = players.get(number)
        seats.append(
            {
                "seat": number,
                "player_name": seat.player_name if seat else "",
                "occupied": bool(seat and seat.occupied),
                "bets": {str(c): a for c, a in sorted(seat_bets.items())},
                "circles": sorted(seat_bets),
                "bet_cents": next(iter(seat_bets.values()), 0),
                "stake_cents": stake,
                "dealt": hand.dealt if hand else [],
                "held": hand.held if hand else None,
                "outcomes": outcomes.get(number, []),
                "return_cents": paid,
                "net_cents": paid - stake if number in outcomes else None,
            }
        )
    settled = rnd.phase in (Phase.AWAITING_APPROVAL, Phase.SETTLED)
    rows = [row.cards for row in DrawRow.objects.filter(round=rnd).order_by("row")] if rnd.phase not in NO_ROWS else []
    used = [card for n in sorted(hands) for card in (hands[n].dealt or hands[n].held or [])]
    used += [card for row in rows for card in row]
    return {
        "id": rnd.pk,
        "table": {"id": table.pk, "name": table.name, "card_source": table.card_source},
        "number": rnd.number,
        "phase": rnd.phase,
        "paytable": None if rnd.paytable_id is None else {"id": rnd.paytable_id, **(rnd.paytable_snapshot or {})},
        "dealer": rnd.dealer.username if rnd.dealer_id else None,
        "started_at": _iso(rnd.started_at),
        "bets_closed_at": _iso(rnd.bets_closed_at),
        "rows_recorded_at": _iso(rnd.rows_recorded_at),
        "settled_at": _iso(rnd.settled_at),
        "approved_by": rnd.approved_by.username if rnd.approved_by_id else None,
        "voided_at": _iso(rnd.voided_at),
        "void_reason": rnd.void_reason,
        "seats": seats,
        "rows": rows,
        "missing_holds": sorted(n for n, h in hands.items() if h.held is None),
        "used_cards": used,
        "totals": {
            "stakes_cents": total_stake,
            "returns_cents": total_paid if settled else None,
            "table_net_cents": total_stake - total_paid if settled else None,
        },
    }


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
