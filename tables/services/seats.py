"""Writes to a table's seats: a player sits down or leaves (taking back bets while betting is open)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from audit.services import audit_record
from casino.errors import DomainError, WrongPhase
from tables import actions
from tables.access import require_operator
from tables.models import Bet, Round, Seat, Table
from tables.selectors.rounds import round_in_play
from tables.services.guards import checked_seat_number
from tables.services.locks import lock_table

Phase = Round.Phase


@transaction.atomic
def seat_join(*, table: Table, seat_number: int, actor: User, player_name: str = "", player_card: str = "") -> Seat:
    require_operator(actor, table)
    table = lock_table(table)
    seat_number = checked_seat_number(seat_number, table.seat_count)
    if not table.is_open:
        raise WrongPhase(f"table {table.name} is closed", code="table_closed")
    seat, _ = Seat.objects.select_for_update().get_or_create(table=table, number=seat_number)
    if seat.occupied:
        raise DomainError(f"seat {seat_number} is already taken", code="seat_taken", field="seat")
    seat.occupied = True
    seat.player_name = player_name.strip()[:100]
    seat.player_card = player_card.strip()[:40]
    seat.save()
    audit_record(
        action=actions.SEAT_JOIN,
        obj=seat,
        table=table,
        seat_number=seat_number,
        after={"player_name": seat.player_name, "player_card": seat.player_card},
        actor=actor,
    )
    return seat


@transaction.atomic
def seat_leave(*, table: Table, seat_number: int, actor: User) -> Seat:
    require_operator(actor, table)
    table = lock_table(table)
    seat_number = checked_seat_number(seat_number, table.seat_count)
    seat = Seat.objects.select_for_update().filter(table=table, number=seat_number).first()
    if seat is None or not seat.occupied:
        raise DomainError(f"seat {seat_number} is empty", code="seat_empty", field="seat")
    in_play = round_in_play(table)
    before: dict[str, Any] = {"player_name": seat.player_name, "player_card": seat.player_card}
    if in_play is not None and Bet.objects.filter(round=in_play, seat_number=seat_number).exists():
        if in_play.phase != Phase.BETTING:
            raise WrongPhase(f"seat {seat_number} has bets in round {in_play.number}", code="seat_in_play")
        # A player leaving while bets are open takes the bets back; the event records which.
        bets = Bet.objects.filter(round=in_play, seat_number=seat_number)
        before["bets"] = {str(c): a for c, a in bets.values_list("circle", "amount_cents")}
        bets.delete()
    seat.occupied = False
    seat.player_name = ""
    seat.player_card = ""
    seat.save()
    audit_record(
        action=actions.SEAT_LEAVE,
        obj=seat,
        table=table,
        round=in_play if "bets" in before else None,
        seat_number=seat_number,
        before=before,
        actor=actor,
    )
    return seat
