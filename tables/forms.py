"""Reading what a dealer typed or tapped on the tablet into service arguments (format only; rules stay in services)."""

from __future__ import annotations

from casino.errors import DomainError
from casino.money_fields import MAX_CENTS, typed_dollars


def parse_amount_cents(text: str | None) -> int:
    """ "25" or "25.50" dollars -> 2500 / 2550 cents; anything else is a plain-words error."""
    raw = (text or "").strip()
    if not raw.replace("$", ""):
        raise DomainError("enter the bet amount", code="bad_amount", field="amount_cents")
    try:
        amount = typed_dollars(raw)
    except ValueError as exc:
        raise DomainError(str(exc), code="bad_amount", field="amount_cents") from None
    if not amount.is_finite() or amount <= 0:
        raise DomainError("the bet must be more than zero", code="bad_amount", field="amount_cents")
    cents = amount * 100
    if cents != cents.to_integral_value():
        raise DomainError("amounts go to the cent at most", code="bad_amount", field="amount_cents")
    if cents > MAX_CENTS:
        # Thousands of digits would not even print in the refusal ("... is outside the table limits").
        raise DomainError("that amount is too large", code="bad_amount", field="amount_cents")
    return int(cents)


def parse_circles(text: str | None) -> int:
    try:
        return int((text or "").strip())
    except ValueError:
        raise DomainError("choose 1, 2 or 3 circles", code="bad_circles", field="circles") from None


def parse_seat_number(text: str | None) -> int:
    try:
        return int((text or "").strip())
    except ValueError:
        raise DomainError("no seat chosen", code="bad_seat", field="seat_number") from None


def parse_card_list(text: str | None) -> list[str]:
    """Card tokens as typed or picked ("As Kd 10h", commas allowed); the service parses and checks them."""
    return (text or "").replace(",", " ").split()


def parse_reason(text: str | None) -> str:
    reason = (text or "").strip()
    if not reason:
        raise DomainError("give a reason", code="reason_required", field="reason")
    return reason
