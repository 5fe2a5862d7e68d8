"""Writes to a table's seats: a player sits down or leaves.

Ruling on a player who leaves mid-round (issue 14; README, Dealer tablet): until the round's first card is recorded
(betting open, or bets closed but nothing dealt) the player's bets are returned and the seat drops out of the round
(unless it holds the round's only bets: then the floor voids the round). From the first card on, the bets stay in
play: the dealer records the hold the player announced, and the seat settles with the round like any other.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.services import audit_record
from casino.errors import DomainError, WrongPhase
from tables import actions
from tables.access import require_operator
from tables.models import Bet, Round, RoundCard, Seat, SeatHand, Table
from tables.selectors.rounds import round_in_play
from tables.services.guards import checked_seat_number, round_ref
from tables.services.locks import lock_round, lock_table

Phase = Round.Phase


@transaction.atomic
def seat_join(*, table: Table, seat_number: int, actor: User, player_name: str = "", player_card: str = "") -> Seat:
    require_operator(actor, table)
    # Refused, not cut short: the tablet once stored the first 100 characters of a longer name without a word.
    for field, value, most in (("player_name", player_name, 100), ("player_card", player_card, 40)):
        if len(value.strip()) > most:
            raise DomainError(f"the {field.replace('_', ' ')} is {len(value.strip())} characters long: at most {most}",
                              code="too_long", field=field)
    table = lock_table(table)
    seat_number = checked_seat_number(seat_number, table.seat_count)
    if not table.is_open:
        raise WrongPhase(f"table {table.name} is closed", code="table_closed")
    seat, _ = Seat.objects.select_for_update().get_or_create(table=table, number=seat_number)
    if seat.occupied:
        raise DomainError(f"seat {seat_number} is already taken", code="seat_taken", field="seat")
    in_play = round_in_play(table)
    if in_play is not None and Bet.objects.filter(round=in_play, seat_number=seat_number).exists():
        # The player who left still has bets in play here: a new player sits once that round is over.
        raise DomainError(
            f"seat {seat_number} still has bets in {round_ref(in_play)}: seat the new player after it",
            code="seat_in_play",
            field="seat",
        )
    seat.occupied = True
    seat.player_name = player_name.strip()
    seat.player_card = player_card.strip()
    seat.seated_at = timezone.now()
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
    after: dict[str, Any] = {}
    bets = Bet.objects.filter(round=in_play, seat_number=seat_number).order_by() if in_play else Bet.objects.none()
    staked = {str(c): a for c, a in bets.values_list("circle", "amount_cents")}
    if in_play is not None and staked:
        in_play = lock_round(in_play)
        before["bets"] = staked
        if _not_dealt(in_play):
            if (
                in_play.phase != Phase.BETTING
                and not Bet.objects.filter(round=in_play).exclude(seat_number=seat_number).exists()
            ):
                raise WrongPhase(
                    f"seat {seat_number} holds the only bets of {round_ref(in_play)}: "
                    "a floor supervisor voids the round instead",
                    code="only_bets_in_round",
                )
            # Nothing dealt yet: the bets go back to the player and the seat drops out of the round.
            SeatHand.objects.filter(round=in_play, seat_number=seat_number).delete()
            bets.delete()
            after["bets"] = "returned"
        else:
            # Cards are out: the bets stay in play and settle with the round.
            after["bets"] = "in_play"
    seat.occupied = False
    seat.player_name = ""
    seat.player_card = ""
    seat.seated_at = None
    seat.save()
    audit_record(
        action=actions.SEAT_LEAVE,
        obj=seat,
        table=table,
        round=in_play if "bets" in before else None,
        seat_number=seat_number,
        before=before,
        after=after or None,
        actor=actor,
    )
    return seat


def _not_dealt(rnd: Round) -> bool:
    """No card of the round is recorded yet (betting, or bets closed before the deal)."""
    if rnd.phase == Phase.BETTING:
        return True
    return rnd.phase == Phase.DEALING and not RoundCard.objects.filter(round=rnd).exists()
