"""Strict request parts for the API (the home game's bodies, every number in a body): a body key the endpoint does
not read is refused by name, and a number (a seat, a count, an id, money in cents) is a JSON integer, never text or
a float."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers


def _sent(data: Any) -> str:
    """What was sent instead of a JSON integer, in a few words for the refusal."""
    shown = repr(data)[:20]
    return f"text {shown}" if isinstance(data, str) else shown


class WholeNumberField(serializers.IntegerField):
    """A whole number (a seat, a count, a hand's or round's id) as a JSON integer. DRF's IntegerField reads "3",
    "3.0" and 3.0 as 3: a client sending text has a bug the API would hide, acting on a number it never sent as
    one, so anything but a JSON integer is refused, naming the field. (The API parses JSON only: a form-encoded
    body, whose values are all text, is refused before any field is read.)"""

    error_key = "not_whole_number"
    default_error_messages = {"not_whole_number": "must be a whole number (a JSON integer), not {got}"}

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail(self.error_key, got=_sent(data))
        return int(super().to_internal_value(data))


class WholeCentsField(WholeNumberField):
    """Cents as a JSON integer. DRF's IntegerField reads "3000", "3000.00" and 30.0 as numbers: a client sending
    dollars ("30.00") or text would book an amount it never meant, so anything but an integer is refused, as the
    Triple Draw bets are ("amount must be whole cents")."""

    error_key = "bad_amount"
    default_error_messages = {"bad_amount": "must be whole cents (a JSON integer), got {got}"}


class StrictInputSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """A request body whose every key the endpoint reads. A key it does not (a typo, `discards` for `cards`, `award`
    for `award_seat`) would be dropped while the rest was acted on: the client would think it had said it."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            unknown = sorted(str(key) for key in data if key not in self.fields)
            if unknown:
                taken = ", ".join(self.fields) or "no fields"
                raise serializers.ValidationError(
                    {unknown[0]: f"unknown field {unknown[0]!r}: this request takes {taken}"}, code="unknown_field")
        return super().to_internal_value(data)
