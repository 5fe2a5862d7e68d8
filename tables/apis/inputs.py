"""Strict request parts for the API (the home game's bodies, every amount of money): a body key the endpoint does
not read is refused by name, and money is a JSON integer of cents, never text or a float."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers


class WholeCentsField(serializers.IntegerField):
    """Cents as a JSON integer. DRF's IntegerField reads "3000", "3000.00" and 30.0 as numbers: a client sending
    dollars ("30.00") or text would book an amount it never meant, so anything but an integer is refused, as the
    Triple Draw bets are ("amount must be whole cents")."""

    default_error_messages = {"bad_amount": "must be whole cents (a JSON integer), got {got}"}

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("bad_amount", got=repr(data)[:20])
        return int(super().to_internal_value(data))


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
