"""The settlement service the Celery job runs: evaluate every hand, pay it, post the ledger (DESIGN 5)."""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from audit.services import audit_record
from casino.engine.cards import parse_cards
from casino.engine.paytable import PaytableSpec
from casino.engine.round_settlement import RoundResult, SeatPlay, settle_round
from paytables.models import PaytableLine
from tables import actions
from tables.models import Bet, DrawRow, HandOutcome, LedgerAccount, LedgerEntry, Round, SeatHand
from tables.services.locks import version_bump
from tables.signals import announce_ledger_posted

Phase = Round.Phase
logger = logging.getLogger(__name__)


def round_result(rnd: Round) -> RoundResult:
    """Recompute a round's outcomes from its stored cards, bets and locked paytable snapshot."""
    spec = PaytableSpec.from_dict(rnd.paytable_snapshot or {})
    rows = [parse_cards(row.cards) for row in DrawRow.objects.filter(round=rnd).order_by("row")]
    hands = {hand.seat_number: hand for hand in SeatHand.objects.filter(round=rnd).order_by()}
    bets: dict[int, list[Bet]] = {}
    for bet in Bet.objects.filter(round=rnd).order_by("seat_number", "circle"):
        bets.setdefault(bet.seat_number, []).append(bet)
    seats = [
        SeatPlay(
            seat=seat,
            bet_cents=seat_bets[0].amount_cents,
            circles=tuple(bet.circle for bet in seat_bets),
            held=parse_cards(hands[seat].held or []),
            dealt=parse_cards(hands[seat].dealt) if hands[seat].dealt else (),
        )
        for seat, seat_bets in sorted(bets.items())
    ]
    return settle_round(spec, rows, seats, rnd.table.max_payout_per_seat_cents)


def ledger_post(rnd: Round, outcomes: list[HandOutcome] | None = None) -> int:
    """One balanced posting per bet (seat <-> table bankroll); returns the table's net. Never posts twice.

    `outcomes` are the round's stored outcomes when the caller has just written them (with their bets).
    """
    if LedgerEntry.objects.filter(round=rnd).exists():
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
                    round=rnd,
                    bet=outcome.bet,
                    table_id=rnd.table_id,
                    account=account,
                    seat_number=outcome.seat_number,
                    amount_cents=amount,
                    posted_at=now,
                )
            )
    LedgerEntry.objects.bulk_create(entries)
    _announce(rnd, now)
    return table_net


def _announce(rnd: Round, posted_at: datetime) -> None:
    """Tell listeners (the floor's summaries) in the posting's transaction, so the jobs they record (outbox) commit
    with it; their errors are logged and never reach the caller."""
    announce_ledger_posted(sender=LedgerEntry, table_id=rnd.table_id, posted_at=posted_at, round_id=rnd.pk)


@transaction.atomic
def round_settlement_apply(*, round_id: int) -> str:
    """Settle a round in `settling`; a second or concurrent run finds it settled and changes nothing."""
    rnd = Round.objects.select_for_update(of=("self",)).select_related("table").filter(pk=round_id).first()
    if rnd is None or rnd.phase != Phase.SETTLING:
        return "missing" if rnd is None else rnd.phase
    version_bump(rnd)
    result = round_result(rnd)
    assert rnd.paytable_id is not None  # the paytable version is locked on the round at close of bets
    lines = list(PaytableLine.objects.filter(paytable_id=rnd.paytable_id).order_by("position"))
    bets = {(bet.seat_number, bet.circle): bet for bet in Bet.objects.filter(round=rnd).order_by()}
    outcomes = []
    for seat in result.seats:
        for hand in seat.hands:
            line = lines[hand.line_index] if hand.line_index is not None and hand.line_index < len(lines) else None
            outcomes.append(
                HandOutcome(
                    round=rnd,
                    bet=bets[(seat.seat, hand.circle)],
                    seat_number=seat.seat,
                    circle=hand.circle,
                    cards=[str(card) for card in hand.cards],
                    category=hand.category,
                    description=hand.description[:80],
                    paytable_line=line,
                    line_hand=hand.line_hand or "",
                    return_cents=hand.return_cents,
                    paid_cents=hand.paid_cents,
                )
            )
    HandOutcome.objects.bulk_create(outcomes)
    threshold = rnd.table.supervisor_approval_threshold_cents
    big = [seat.seat for seat in result.seats if seat.net_cents >= threshold > 0]
    rnd.settled_at = timezone.now()
    if big:
        rnd.phase = Phase.AWAITING_APPROVAL
    else:
        ledger_post(rnd, outcomes)
        rnd.phase = Phase.SETTLED
    rnd.save(update_fields=["phase", "settled_at"])
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
