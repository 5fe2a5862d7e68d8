"""Money as people type and read it on forms: dollars and cents in, integer cents out ("25" -> 2500)."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from casino.engine.money import money

# The largest amount a form accepts: PositiveBigIntegerField's range, in cents.
MAX_CENTS = 2**63 - 1


# Commas only as thousands separators ("1,000", "12,345.50"): a keypad whose locale types a decimal comma sends
# "2,5" for $2.50, and dropping that comma would read it as $25.00.
_GROUPED = re.compile(r"\d{1,3}(,\d{3})+(\.\d*)?")
# What is left once the commas are read: plain ASCII digits with at most one point. Decimal() alone also takes
# "1e2" ($100.00 from a slip of the keypad), "1_000", "NaN", "Infinity" and other scripts' digits, and "1e999999"
# overflowed the cents arithmetic into a server error.
_DOLLAR_SIGN = re.compile(r"^(-?)\$")  # "$25", "-$3": the sign in front only ("5$5" is a typo, not $55.00)
_PLAIN = re.compile(r"-?(\d+\.?\d*|\.\d+)", re.ASCII)


def typed_dollars(text: str) -> Decimal:
    """What someone typed as dollars ("25", "$1,000.50", "12.5") as a Decimal; ValueError with a message for people.
    A comma anywhere but between groups of three digits is refused, never dropped."""
    raw = _DOLLAR_SIGN.sub(r"\1", text.strip().replace(" ", ""), count=1)
    if "," in raw:
        if not _GROUPED.fullmatch(raw):
            raise ValueError(f"{text.strip()[:30]!r} is not an amount of money: type cents after a point (2.50); "
                             "a comma only groups thousands (1,000)")
        raw = raw.replace(",", "")
    try:
        if not _PLAIN.fullmatch(raw):
            raise InvalidOperation
        return Decimal(raw)
    except InvalidOperation:
        raise ValueError(f"{text.strip()[:30]!r} is not an amount of money: type dollars, e.g. 25 or 12.50") from None


def dollars_to_cents(text: str) -> int:
    """ "25", "$1,000.50" -> 2500, 100050; raises ValueError with a message for people."""
    amount = typed_dollars(text)
    if not amount.is_finite():
        raise ValueError(f"{text.strip()[:30]!r} is not an amount of money")
    cents = amount * 100
    if cents != cents.to_integral_value():
        raise ValueError("amounts go to the cent at most (two decimals)")
    if cents < 0:
        raise ValueError("an amount cannot be negative")
    if cents > MAX_CENTS:
        raise ValueError("that amount is too large")
    return int(cents)


def cents_to_dollars(cents: int) -> str:
    """250000 -> "2,500.00": what a dollar field shows for a stored amount (it reads the commas back)."""
    whole, part = divmod(int(cents), 100)
    return f"{whole:,}.{part:02d}"


class DollarsInput(forms.TextInput):
    """A text box for dollars (a decimal keypad on touch screens); the stored cents are shown as dollars."""

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__({"inputmode": "decimal", "autocomplete": "off", "size": 14, **(attrs or {})})

    def format_value(self, value: Any) -> str | None:
        if isinstance(value, int) and not isinstance(value, bool):
            return cents_to_dollars(value)
        formatted: str | None = super().format_value(value)
        return formatted


class DollarsField(forms.Field):
    """Typed in dollars and cents, cleaned to integer cents (so 25 means $25.00, never 25 cents)."""

    widget = DollarsInput

    def __init__(self, *, minimum_cents: int = 0, **kwargs: Any) -> None:
        self.minimum_cents = minimum_cents
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        try:
            cents = dollars_to_cents(str(value))
        except ValueError as exc:
            raise ValidationError(str(exc), code="bad_amount") from None
        if cents < self.minimum_cents:
            raise ValidationError(f"the amount must be at least {money(self.minimum_cents)}", code="too_small")
        return cents

    def has_changed(self, initial: Any, data: Any) -> bool:
        try:
            return bool(self.to_python(data) != initial)
        except ValidationError:
            return True
