"""A round's seat hands, draw rows and betting seats as its services read them, in written-out statements
(casino.sql): every dealer action reads some of them, and building each ORM query cost more CPU than running it."""

from __future__ import annotations

from django.db import connection

from casino.sql import column, select_rows, table
from tables.models import Bet, DrawRow, Round, SeatHand


def seat_hands(rnd: Round, *, lock: bool = False) -> list[SeatHand]:
    """The round's seat hands (in no particular order); with `lock`, locked FOR UPDATE until the transaction ends."""
    return select_rows(SeatHand, f"{column(SeatHand, 'round')} = %s", [rnd.pk], for_update=lock)


def draw_rows(rnd: Round) -> list[DrawRow]:
    """The round's draw rows laid so far, in row order."""
    return select_rows(DrawRow, f"{column(DrawRow, 'round')} = %s", [rnd.pk], column(DrawRow, "row"))


def betting_seats(rnd: Round) -> list[int]:
    """The seat numbers with a bet in the round, ascending."""
    seat = column(Bet, "seat_number")
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT DISTINCT {seat} FROM {table(Bet)} WHERE {column(Bet, 'round')} = %s ORDER BY {seat}",  # noqa: S608
            [rnd.pk],
        )
        return [int(number) for (number,) in cursor.fetchall()]
