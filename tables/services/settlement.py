"""The settlement service the Celery job runs: evaluate every hand, pay it, post the ledger (DESIGN 5)."""

from __future__ import annotations

import json
import logging
from datetime import datetime

from django.db import connection, transaction
from django.utils import timezone

from audit.services import audit_record
from casino.engine.cards import Card, parse_cards
from casino.engine.paytable import PaytableSpec
from casino.engine.round_settlement import RoundResult, SeatPlay, settle_round
from casino.sql import column as col
from casino.sql import get_with_related, insert_rows, update_rows
from casino.sql import table as tab
from paytables.models import PaytableLine
from tables import actions
from tables.models import Bet, DrawRow, HandOutcome, LedgerAccount, LedgerEntry, Round, SeatHand
from tables.services.locks import version_bump
from tables.signals import announce_ledger_posted

Phase = Round.Phase
logger = logging.getLogger(__name__)


def _round_result_and_bets(rnd: Round) -> tuple[RoundResult, dict[tuple[int, int], Bet], list[int]]:
    """Recompute a round's outcomes from its stored cards, bets and locked paytable snapshot; with its bets by
    (seat, circle), which settlement writes an outcome and a posting for, and its paytable version's line ids."""
    spec = PaytableSpec.from_dict(rnd.paytable_snapshot or {})
    rows, hands, bets, lines = _round_cards_and_bets(rnd.pk, rnd.paytable_id)
    by_seat: dict[int, list[Bet]] = {}
    for bet in bets:
        by_seat.setdefault(bet.seat_number, []).append(bet)
    seats = [
        SeatPlay(
            seat=seat,
            bet_cents=seat_bets[0].amount_cents,
            circles=tuple(bet.circle for bet in seat_bets),
            held=parse_cards(hands[seat][1] or []),
            dealt=parse_cards(hands[seat][0]) if hands[seat][0] else (),
        )
        for seat, seat_bets in sorted(by_seat.items())
    ]
    by_circle = {(bet.seat_number, bet.circle): bet for bet in bets}
    return settle_round(spec, rows, seats, rnd.table.max_payout_per_seat_cents), by_circle, lines


def _round_cards_and_bets(
    round_id: int, paytable_id: int | None
) -> tuple[list[tuple[Card, ...]], dict[int, tuple[list[str], list[str] | None]], list[Bet], list[int]]:
    """The round's rows in order, each seat's (dealt, held), its bets by seat and circle and the ids of its paytable
    version's lines in order, in one statement (written out: settlement runs once a round, and four ORM queries
    cost several times its CPU)."""
    # S608 does not apply: every name comes from model metadata; the round id is a parameter.
    sql = " UNION ALL ".join(
        [
            f"SELECT 0, {col(DrawRow, 'row')}, 0, 0, CAST({col(DrawRow, 'cards')} AS TEXT), NULL "  # noqa: S608
            f"FROM {tab(DrawRow)} WHERE {col(DrawRow, 'round')} = %s",
            f"SELECT 1, {col(SeatHand, 'seat_number')}, 0, 0, CAST({col(SeatHand, 'dealt')} AS TEXT), "  # noqa: S608
            f"CAST({col(SeatHand, 'held')} AS TEXT) FROM {tab(SeatHand)} WHERE {col(SeatHand, 'round')} = %s",
            f"SELECT 2, {col(Bet, 'seat_number')}, {col(Bet, 'circle')}, {col(Bet, 'amount_cents')}, "  # noqa: S608
            f"CAST({col(Bet, 'pk')} AS TEXT), NULL FROM {tab(Bet)} WHERE {col(Bet, 'round')} = %s",
            f"SELECT 3, {col(PaytableLine, 'position')}, 0, 0, CAST({col(PaytableLine, 'pk')} AS TEXT), "  # noqa: S608
            f"NULL FROM {tab(PaytableLine)} WHERE {col(PaytableLine, 'paytable')} = %s",
        ]
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [round_id] * 3 + [paytable_id])
        found = cursor.fetchall()
    rows = [parse_cards(json.loads(text)) for _, _, _, _, text, _ in sorted(r for r in found if r[0] == 0)]
    hands = {
        seat: (json.loads(dealt) or [], json.loads(held) if held is not None else None)
        for kind, seat, _, _, dealt, held in found
        if kind == 1
    }
    bets = [
        Bet(pk=int(pk), round_id=round_id, seat_number=seat, circle=circle, amount_cents=int(amount))
        for kind, seat, circle, amount, pk, _ in sorted(found, key=lambda r: (r[0], r[1], r[2]))
        if kind == 2
    ]
    lines = [int(pk) for _, _, _, _, pk, _ in sorted(r for r in found if r[0] == 3)]
    return rows, hands, bets, lines


def ledger_post(rnd: Round, outcomes: list[HandOutcome] | None = None) -> int:
    """One balanced posting per bet (seat <-> table bankroll); returns the table's net. Never posts twice.

    `outcomes` are the round's stored outcomes when the caller has just written them (with their bets), in the
    transaction that took the round out of `settling` under its row lock: nothing can have been posted before.
    """
    if outcomes is None and LedgerEntry.objects.filter(round=rnd).exists():
        return -sum(
            LedgerEntry.objects.filter(round=rnd, account=LedgerAccount.SEAT).values_list("amount_cents", flat=True)
        )
    now = timezone.now()
    entries: list[LedgerEntry] = []
    table_net = 0
    if outcomes is None:
        outcomes = list(HandOutcome.objects.filter(round=rnd).select_related("bet"))
    for outcome in outcomes:
        seat_net = outcome.paid_cents - outcome.bet.amount_cents
        table_net -= seat_net
        for account, amount in ((LedgerAccount.SEAT, seat_net), (LedgerAccount.TABLE_BANKROLL, -seat_net)):
            entries.append(
                LedgerEntry(
                    round_id=rnd.pk,
                    bet_id=outcome.bet_id,
                    table_id=rnd.table_id,
                    account=account,
                    seat_number=outcome.seat_number,
                    amount_cents=amount,
                    posted_at=now,
                )
            )
    insert_rows(entries)
    _announce(rnd, now)
    return table_net


def _announce(rnd: Round, posted_at: datetime) -> None:
    """Tell listeners (the floor's summaries) in the posting's transaction, so the jobs they record (outbox) commit
    with it; their errors are logged and never reach the caller."""
    announce_ledger_posted(sender=LedgerEntry, table_id=rnd.table_id, posted_at=posted_at, round_id=rnd.pk)


@transaction.atomic
def round_settlement_apply(*, round_id: int) -> str:
    """Settle a round in `settling`; a second or concurrent run finds it settled and changes nothing."""
    rnd = get_with_related(Round, round_id, ("table",), lock=True)
    if rnd is None or rnd.phase != Phase.SETTLING:
        return "missing" if rnd is None else rnd.phase
    version_bump(rnd)
    assert rnd.paytable_id is not None  # the paytable version is locked on the round at close of bets
    result, bets, lines = _round_result_and_bets(rnd)
    outcomes = []
    for seat in result.seats:
        for hand in seat.hands:
            line = lines[hand.line_index] if hand.line_index is not None and hand.line_index < len(lines) else None
            outcomes.append(
                HandOutcome(
                    round_id=rnd.pk,
                    bet=bets[(seat.seat, hand.circle)],
                    seat_number=seat.seat,
                    circle=hand.circle,
                    cards=[str(card) for card in hand.cards],
                    category=hand.category,
                    description=hand.description[:80],
                    paytable_line_id=line,
                    line_hand=hand.line_hand or "",
                    return_cents=hand.return_cents,
                    paid_cents=hand.paid_cents,
                )
            )
    insert_rows(outcomes)
    threshold = rnd.table.supervisor_approval_threshold_cents
    big = [seat.seat for seat in result.seats if seat.net_cents >= threshold > 0]
    rnd.settled_at = timezone.now()
    if big:
        rnd.phase = Phase.AWAITING_APPROVAL
    else:
        ledger_post(rnd, outcomes)
        rnd.phase = Phase.SETTLED
    update_rows([rnd], ["phase", "settled_at"])
    audit_record(
        action=actions.ROUND_SETTLEMENT,
        obj=rnd,
        table=rnd.table,
        round=rnd,
        before={"phase": Phase.SETTLING},
        after={
            "phase": rnd.phase,
            "table_net_cents": result.table_net_cents,
            "stakes_cents": sum(seat.stake_cents for seat in result.seats),
            "returns_cents": sum(seat.total_return_cents for seat in result.seats),
            "capped_seats": [seat.seat for seat in result.seats if seat.capped],
            "awaiting_approval_seats": big,
        },
    )
    return rnd.phase
