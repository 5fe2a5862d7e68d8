"""Money in words for people: integer cents as "$1.00", and stakes as "$2" when they are whole dollars."""

from __future__ import annotations


def money(cents: int) -> str:
    """ "$1.00", "$0.25", "-$3.50"."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}${whole:,}.{part:02d}"


def stake(cents: int) -> str:
    """A limit as dealers say it: "$2", or "$2.50" when it is not a whole number of dollars."""
    return money(cents)[:-3] if cents % 100 == 0 else money(cents)
