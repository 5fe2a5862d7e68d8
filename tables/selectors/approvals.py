"""The floor's queue of large payouts awaiting approval: newest first, with the amount, table, seat, hand, dealer."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from casino.engine.hand_words import hand_label
from tables.models import Bet, HandOutcome, Round, Seat


@dataclass(frozen=True)
class PendingSeat:
    """A seat whose winnings in the round reached the table's approval threshold."""

    seat: int
    player_name: str
    stake_cents: int
    paid_cents: int
    win_cents: int
    hands: tuple[str, ...]  # the paying hands in words, best first ("Royal flush")


@dataclass(frozen=True)
class PendingPayout:
    round: Round
    settled_at: datetime | None
    threshold_cents: int
    seats: list[PendingSeat] = field(default_factory=list)

    @property
    def win_cents(self) -> int:
        return sum(seat.win_cents for seat in self.seats)

    @property
    def paid_cents(self) -> int:
        return sum(seat.paid_cents for seat in self.seats)


def payouts_awaiting_approval() -> list[PendingPayout]:
    """Every round awaiting approval, newest first, with the seats that reached their table's threshold."""
    rounds = list(
        Round.objects.filter(phase=Round.Phase.AWAITING_APPROVAL)
        .select_related("table", "dealer", "paytable")
        .order_by("-settled_at", "-pk")
    )
    ids = [rnd.pk for rnd in rounds]
    stakes: dict[tuple[int, int], int] = defaultdict(int)
    for bet in Bet.objects.filter(round_id__in=ids).only("round_id", "seat_number", "amount_cents"):
        stakes[(bet.round_id, bet.seat_number)] += bet.amount_cents
    paid: dict[tuple[int, int], int] = defaultdict(int)
    hands: dict[tuple[int, int], list[tuple[int, str]]] = defaultdict(list)
    for outcome in HandOutcome.objects.filter(round_id__in=ids).order_by("-paid_cents", "circle"):
        key = (outcome.round_id, outcome.seat_number)
        paid[key] += outcome.paid_cents
        if outcome.paid_cents > 0:
            hands[key].append((outcome.paid_cents, hand_label(outcome.line_hand or outcome.category)))
    names = {
        (seat.table_id, seat.number): seat.player_name
        for seat in Seat.objects.filter(table_id__in={rnd.table_id for rnd in rounds})
    }
    queue = []
    for rnd in rounds:
        threshold = rnd.table.supervisor_approval_threshold_cents
        seats = []
        for (round_id, number), stake in sorted(stakes.items()):
            if round_id != rnd.pk:
                continue
            win = paid[(round_id, number)] - stake
            if win >= threshold:
                seats.append(
                    PendingSeat(
                        seat=number,
                        player_name=names.get((rnd.table_id, number), ""),
                        stake_cents=stake,
                        paid_cents=paid[(round_id, number)],
                        win_cents=win,
                        hands=tuple(dict.fromkeys(label for _, label in hands[(round_id, number)])),
                    )
                )
        queue.append(PendingPayout(round=rnd, settled_at=rnd.settled_at, threshold_cents=threshold, seats=seats))
    return queue
