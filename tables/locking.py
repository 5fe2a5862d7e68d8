"""Row locks and checks shared by the tables services: lock a table or round (raising its version), phase, seat."""

from __future__ import annotations

from typing import Any

from casino.api_errors import DomainError, WrongPhase
from casino.errors import NotFound
from tables.models import MAX_SEATS, Round, Table
from tables.versions import version_bump


class RoundNotFound(NotFound):
    """No round with that id."""


# Taking a row's write lock means a write follows (a failed one rolls back), so the lock helpers raise the version.
def lock_table(table: Table) -> Table:
    locked = Table.objects.select_for_update().get(pk=table.pk)
    version_bump(locked)
    return locked


def lock_round(rnd: Round) -> Round:
    found = (
        Round.objects.select_for_update(of=("self",))
        .select_related("table", "dealer", "approved_by")
        .filter(pk=rnd.pk)
        .first()
    )
    if found is None:
        raise RoundNotFound(f"round {rnd.pk} does not exist")
    version_bump(found)
    return found


def require_phase(rnd: Round, *phases: str, action: str) -> None:
    if rnd.phase not in phases:
        wanted = " or ".join(phases)
        raise WrongPhase(f"cannot {action}: round {rnd.number} is {rnd.phase}, not {wanted}")


def checked_seat_number(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SEATS:
        raise DomainError(f"seat must be a number from 1 to {MAX_SEATS}, got {value!r}", code="bad_seat", field="seat")
    return value
