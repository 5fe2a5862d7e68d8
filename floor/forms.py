"""Reading what a supervisor typed on the floor's screens into service arguments (format only; rules stay in the
services): dollar amounts, chip counts per denomination, gaming days."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal, InvalidOperation

from casino.errors import DomainError
from floor.chips import denominations


def parse_dollars(text: str | None, field: str) -> int:
    """ "1,250" or "1250.50" dollars -> cents; blank is 0; a negative or unreadable amount is a plain-words error."""
    raw = (text or "").strip().replace("$", "").replace(",", "")
    if not raw:
        return 0
    try:
        amount = Decimal(raw)
    except InvalidOperation:
        raise DomainError(f"{text!r} is not an amount of money", code="bad_amount", field=field) from None
    if not amount.is_finite():
        raise DomainError(f"{text!r} is not an amount of money", code="bad_amount", field=field)
    cents = amount * 100
    if cents != cents.to_integral_value():
        raise DomainError("amounts go to the cent at most", code="bad_amount", field=field)
    return int(cents)


def parse_chips(data: Mapping[str, str], prefix: str = "chips-") -> dict[str, int]:
    """One whole number of chips per denomination field (`chips-500`); blank is none. The service checks signs."""
    chips: dict[str, int] = {}
    for denomination in denominations():
        raw = (data.get(f"{prefix}{denomination}") or "").strip()
        if not raw:
            continue
        try:
            chips[str(denomination)] = int(raw)
        except ValueError:
            raise DomainError(
                f"the number of {chip_label(denomination)} chips must be a whole number, not {raw!r}",
                code="bad_count",
                field="chips",
            ) from None
    return chips


def chip_label(denomination: int) -> str:
    """500 -> "$5", 50 -> "$0.50"."""
    dollars, cents = divmod(denomination, 100)
    return f"${dollars:,}" if cents == 0 else f"${dollars}.{cents:02d}"
