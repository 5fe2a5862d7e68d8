"""Typed dollar amounts: a comma groups thousands or the amount is refused, so a decimal comma never scales a bet."""

from __future__ import annotations

import pytest

from casino.errors import DomainError
from casino.money_fields import dollars_to_cents, typed_dollars
from tables.forms import parse_amount_cents


@pytest.mark.parametrize(
    ("typed", "cents"),
    [("25", 2500), ("$25", 2500), ("2.50", 250), ("12.5", 1250), ("1,000", 100_000), ("$1,000.50", 100_050),
     ("12,345,678.90", 1_234_567_890), (" 7 ", 700)],
)
def test_dollars_with_or_without_thousands_commas_are_read_as_written(typed: str, cents: int) -> None:
    assert dollars_to_cents(typed) == cents
    assert parse_amount_cents(typed) == cents


@pytest.mark.parametrize("typed", ["2,5", "3,50", "1,00", "1000,00", ",5", "1,0000", "1,000,00", "12,34.5"])
def test_a_comma_that_does_not_group_thousands_is_refused_not_dropped(typed: str) -> None:
    with pytest.raises(ValueError, match=r"a comma only groups thousands \(1,000\)"):
        typed_dollars(typed)
    with pytest.raises(DomainError) as refused:
        parse_amount_cents(typed)
    assert refused.value.field == "amount_cents"
    assert "type cents after a point (2.50)" in refused.value.message



@pytest.mark.parametrize(
    "typed", ["1e2", "1E2", "1e999999", "1_000", "NaN", "Infinity", "-inf", "١٢", "0x10", "+5", "5$5"]
)
def test_only_plain_digits_with_one_point_are_money_never_exponents_or_other_number_forms(typed: str) -> None:
    # Before: Decimal() took them all ("1e2" became a $100.00 bet, "١٢" $12.00) and "1e999999" was a server error.
    with pytest.raises(ValueError, match="is not an amount of money: type dollars"):
        dollars_to_cents(typed)
    with pytest.raises(DomainError) as refused:
        parse_amount_cents(typed)
    assert refused.value.field == "amount_cents"
    assert "is not an amount of money" in refused.value.message


def test_an_amount_too_large_to_store_is_refused_in_words() -> None:
    # Before: thousands of digits reached the table-limits refusal, which could not print them (a server error).
    with pytest.raises(DomainError, match="that amount is too large"):
        parse_amount_cents("9" * 5000)
    with pytest.raises(ValueError, match="that amount is too large"):
        dollars_to_cents("9" * 5000)
    assert parse_amount_cents("5.") == 500
    assert parse_amount_cents(".50") == 50
