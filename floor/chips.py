"""Chips by denomination as entered (`{"500": 20}`: denomination in cents -> number of chips): checked and totalled."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings

from casino.errors import DomainError


def denominations() -> tuple[int, ...]:
    """The chip denominations a tray holds, in cents, smallest first (FLOOR_CHIP_DENOMINATIONS_CENTS)."""
    return tuple(settings.FLOOR_CHIP_DENOMINATIONS_CENTS)


def chips_clean(chips: Any, *, field: str = "chips") -> dict[str, int]:
    """{"500": 20, ...} with every configured denomination present (0 when not given); a clear error otherwise."""
    if not isinstance(chips, Mapping):
        raise DomainError(
            "chips must map each denomination in cents to a number of chips", code="bad_chips", field=field
        )
    known = {str(value): value for value in denominations()}
    cleaned = {key: 0 for key in known}
    for key, count in chips.items():
        name = str(key).strip()
        if name not in known:
            allowed = ", ".join(known)
            raise DomainError(
                f"no {name!r} chip: denominations are {allowed} cents", code="bad_denomination", field=field
            )
        if isinstance(count, bool) or not isinstance(count, int):
            raise DomainError(f"the count of {name}-cent chips must be a whole number", code="bad_count", field=field)
        if count < 0:
            raise DomainError(
                f"the count of {name}-cent chips cannot be negative ({count})", code="negative_count", field=field
            )
        cleaned[name] = count
    return cleaned


def count_clean(chips: Any) -> dict[str, int]:
    """A chip inventory: `chips_clean`, refusing a count with no denomination at all. A blank count is a form nobody
    filled in, not an empty tray (an empty tray is counted as 0 of a chip), so it must not be recorded as $0.00."""
    if isinstance(chips, Mapping) and not chips:
        raise DomainError(
            "enter the number of chips of at least one denomination (0 for none): a blank count records nothing",
            code="no_chips_entered",
            field="chips",
        )
    return chips_clean(chips)


def chips_total(chips: Mapping[str, int]) -> int:
    """The value of the chips in cents."""
    return sum(int(denomination) * count for denomination, count in chips.items())
