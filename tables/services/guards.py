"""Checks the services share before they write: the round's phase, a seat number, an entry of a batch."""

from __future__ import annotations

from typing import Any

from casino.errors import DomainError, WrongPhase
from tables.models import HomeGame, HomeHand, Round


def numbered(kind: str, number: int, pk: int) -> str:
    """A round, game or hand as a refusal names it: its number at the table, as the dealer calls it, and its id,
    which is what an API client holds and puts in the path ("round 34 (id 46)"; the tablet shows the number alone)."""
    return f"{kind} {number} (id {pk})"


def round_ref(rnd: Round) -> str:
    return numbered("round", rnd.number, rnd.pk)


def game_ref(game: HomeGame) -> str:
    return numbered("game", game.number, game.pk)


def hand_ref(hand: HomeHand) -> str:
    return numbered("hand", hand.number, hand.pk)


def require_phase(rnd: Round, *phases: str, action: str) -> None:
    if rnd.phase not in phases:
        wanted = " or ".join(phases)
        raise WrongPhase(f"cannot {action}: {round_ref(rnd)} is {rnd.phase}, not {wanted}")


def checked_seat_number(value: Any, seats: int) -> int:
    """A seat number 1..seats (the table type's seat count); only a true int counts (not 2.0, "2" or True)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= seats:
        shown = repr(value)[:20]
        raise DomainError(f"seat must be a number from 1 to {seats}, got {shown}", code="bad_seat", field="seat")
    return value


def seat_key(key: Any) -> int:
    """A seat named as a mapping key: canonical ASCII decimal only ("3", not "03", " 3" or a non-ASCII digit)."""
    if isinstance(key, int) and not isinstance(key, bool):
        return key
    text = str(key)
    if not (text.isascii() and text.isdigit() and text == str(int(text))):
        raise DomainError(f"bad seat number {text[:20]!r}", code="bad_seat", field="cards")
    return int(text)


def entry_error(index: int, seat: Any, exc: DomainError, collection: str) -> DomainError:
    """The same error, saying which entry of a batch it concerns."""
    error = type(exc)(f"{collection}[{index}] (seat {str(seat)[:20]}): {exc.message}", code=exc.code)
    error.field = f"{collection}.{index}.{exc.field}" if exc.field else f"{collection}.{index}"
    return error
