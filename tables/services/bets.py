"""Bet services of Triple Draw: place, replace and clear a seat's equal bets on 1-3 circles, one seat or a batch."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import connection, transaction

from audit.services import audit_event, audit_record, audit_record_many
from casino.engine.money import money
from casino.engine.triple_draw import MAX_CIRCLES, MAX_SEATS
from casino.errors import DomainError
from casino.sql import column as col
from casino.sql import insert_rows, placeholders
from casino.sql import table as tab
from tables import actions
from tables.access import require_operator
from tables.models import Bet, Round, Seat, Table
from tables.services.guards import checked_seat_number, entry_error, require_phase
from tables.services.locks import lock_round

Phase = Round.Phase


def _circle_numbers(circles: int | Sequence[int] | None, amounts: Sequence[int] | None) -> list[int]:
    if circles is None:
        circles = len(amounts) if amounts is not None else 1
    if isinstance(circles, bool) or not isinstance(circles, int | list | tuple):
        # 2.0 or 2.5 or "2" is not a count: only a whole number or a list of circle numbers is.
        raise DomainError("circles must be 1-3 or a list of circle numbers", code="bad_circles", field="circles")
    if isinstance(circles, int):
        if not 1 <= circles <= MAX_CIRCLES:
            raise DomainError(
                f"a seat bets 1 to {MAX_CIRCLES} circles, not {circles}", code="bad_circles", field="circles"
            )
        return list(range(1, circles + 1))
    numbers = list(circles)
    if not 1 <= len(numbers) <= MAX_CIRCLES:
        raise DomainError(
            f"a seat bets 1 to {MAX_CIRCLES} circles, not {len(numbers)}", code="bad_circles", field="circles"
        )
    for number in numbers:
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= MAX_CIRCLES:
            raise DomainError(
                f"there is no betting circle {repr(number)[:20]} (circles are 1-3)", code="bad_circles", field="circles"
            )
    if len(set(numbers)) != len(numbers):
        raise DomainError("a circle is named twice", code="bad_circles", field="circles")
    return sorted(numbers)


def _bet_terms(
    table: Table, seat_number: Any, amount_cents: int | Sequence[int], circles: int | Sequence[int] | None
) -> tuple[int, list[int], int]:
    """Check one seat's bet against the rules and limits: (seat, circle numbers, amount per circle)."""
    seat_number = checked_seat_number(seat_number, MAX_SEATS)
    amounts = list(amount_cents) if isinstance(amount_cents, list | tuple) else None
    numbers = _circle_numbers(circles, amounts)
    if amounts is None:
        amounts = [amount_cents] * len(numbers)
    if len(amounts) != len(numbers):
        raise DomainError(f"{len(amounts)} amounts for {len(numbers)} circles", code="bad_circles", field="circles")
    for amount in amounts:
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise DomainError(
                f"amount must be whole cents, got {repr(amount)[:20]}", code="bad_amount", field="amount_cents"
            )
    if len(set(amounts)) != 1:
        raise DomainError(
            f"all bets of a seat must be equal, got {sorted(set(amounts))}", code="unequal_bets", field="amount_cents"
        )
    amount = amounts[0]
    if not table.min_bet_cents <= amount <= table.max_bet_cents:
        raise DomainError(
            f"a bet of {money(amount)} a circle is outside the table limits {money(table.min_bet_cents)} to "
            f"{money(table.max_bet_cents)}",
            code="bet_outside_limits",
            field="amount_cents",
        )
    return seat_number, numbers, amount


def _seats_and_bets(rnd: Round, seats: list[int]) -> tuple[set[int], dict[int, dict[str, int]]]:
    """Which of these seats have a player, and each one's bets in the round (circle -> cents): one statement
    (written out: every bet asks both, and two ORM queries cost several times their own CPU)."""
    marks = placeholders(len(seats))
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {col(Seat, 'number')}, 0, 0 FROM {tab(Seat)} WHERE {col(Seat, 'table')} = %s "  # noqa: S608
            f"AND {col(Seat, 'occupied')} AND {col(Seat, 'number')} IN ({marks}) UNION ALL "
            f"SELECT {col(Bet, 'seat_number')}, {col(Bet, 'circle')}, {col(Bet, 'amount_cents')} FROM {tab(Bet)} "
            f"WHERE {col(Bet, 'round')} = %s AND {col(Bet, 'seat_number')} IN ({marks})",
            [rnd.table_id, *seats, rnd.pk, *seats],
        )
        found = cursor.fetchall()
    occupied = {seat for seat, circle, _ in found if circle == 0}
    previous: dict[int, dict[str, int]] = {}
    for seat, circle, amount in found:
        if circle:
            previous.setdefault(seat, {})[str(circle)] = int(amount)
    return occupied, previous


def _place_bets(rnd: Round, terms: list[tuple[int, list[int], int]], actor: User) -> list[Bet]:
    """Replace the bets of the seats in `terms` (each checked already): one delete, one insert, an event per seat."""
    seats = [seat for seat, _, _ in terms]
    occupied, previous = _seats_and_bets(rnd, seats)
    for index, seat in enumerate(seats):
        if seat not in occupied:
            error = DomainError(f"seat {seat} is empty: seat a player first", code="seat_empty", field="seat")
            raise entry_error(index, seat, error, "bets") if len(seats) > 1 else error
    if previous:  # a seat's first bet has nothing to replace (the delete would cost two statements)
        Bet.objects.filter(round=rnd, seat_number__in=seats).delete()
    bets = [
        Bet(round=rnd, seat_number=seat, circle=number, amount_cents=amount)
        for seat, numbers, amount in terms
        for number in numbers
    ]
    insert_rows(bets, returning=True)
    audit_record_many(
        [
            audit_event(
                action=actions.BET_PLACE,
                obj=rnd,
                table=rnd.table,
                round=rnd,
                seat_number=seat,
                before={"bets": previous[seat]} if seat in previous else None,
                after={"bets": {str(n): amount for n in numbers}},
                actor=actor,
            )
            for seat, numbers, amount in terms
        ]
    )
    return bets


@transaction.atomic
def bet_place(
    *,
    round: Round,
    seat_number: int,
    amount_cents: int | Sequence[int],
    actor: User,
    circles: int | Sequence[int] | None = None,
) -> list[Bet]:
    """Replace the seat's bets with equal bets on the given circles (a count 1-3, or circle numbers).

    `amount_cents` may be one amount or one per circle; amounts that differ are refused (all bets must be equal).
    """
    rnd = lock_round(round)
    require_operator(actor, rnd.table)
    require_phase(rnd, Phase.BETTING, action="place a bet (bets are closed)")
    return _place_bets(rnd, [_bet_terms(rnd.table, seat_number, amount_cents, circles)], actor)


@transaction.atomic
def bet_clear(*, round: Round, seat_number: int, actor: User) -> None:
    rnd = lock_round(round)
    require_operator(actor, rnd.table)
    require_phase(rnd, Phase.BETTING, action="clear bets (bets are closed)")
    seat_number = checked_seat_number(seat_number, MAX_SEATS)
    previous = list(Bet.objects.filter(round=rnd, seat_number=seat_number).values_list("circle", "amount_cents"))
    if not previous:
        raise DomainError(f"seat {seat_number} has no bet to clear", code="seat_has_no_bets", field="seat")
    Bet.objects.filter(round=rnd, seat_number=seat_number).delete()
    audit_record(
        action=actions.BET_CLEAR,
        obj=rnd,
        table=rnd.table,
        round=rnd,
        seat_number=seat_number,
        before={"bets": {str(c): a for c, a in previous}},
        actor=actor,
    )


@transaction.atomic
def bets_place_all(*, round: Round, bets: Sequence[Mapping[str, Any]], actor: User) -> list[Bet]:
    """Several seats' bets at once, all or nothing: [{"seat", "amount_cents" | "amounts_cents", "circles"?}]."""
    rnd = lock_round(round)
    require_operator(actor, rnd.table)
    require_phase(rnd, Phase.BETTING, action="place bets (bets are closed)")
    if not bets:
        raise DomainError("no bets given", code="no_bets", field="bets")
    terms = []
    for index, entry in enumerate(bets):
        try:
            amount = entry.get("amounts_cents", entry.get("amount_cents"))
            terms.append(_bet_terms(rnd.table, entry.get("seat"), amount, entry.get("circles")))
        except DomainError as exc:
            raise entry_error(index, entry.get("seat"), exc, "bets") from None
    seats = [seat for seat, _, _ in terms]
    if len(set(seats)) != len(seats):
        raise DomainError("a seat appears twice in the batch", code="duplicate_seat", field="bets")
    return _place_bets(rnd, terms, actor)
