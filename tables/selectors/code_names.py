"""The names people see for a table's stored codes (its type, its card source), for audit text read at read time."""

from __future__ import annotations

from functools import cache

from tables.models import CardSource, TableType


@cache
def _names() -> dict[str, dict[str, str]]:
    types = {kind.value: str(kind.label) for kind in TableType}
    # A home game records its type as `variant`: the same codes as a table's type.
    return {"table_type": types, "variant": types,
            "card_source": {source.value: str(source.label) for source in CardSource}}


def code_name(field: str, code: str) -> str | None:
    """ "Dealer-entered cards" for ("card_source", "manual"); None for a field or a code this app does not name."""
    return _names().get(field, {}).get(code)
