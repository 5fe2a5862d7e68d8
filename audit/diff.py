"""Before/after comparison of one event's JSON values, field by field, for the event detail screen."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from audit.presentation import fact_label, show_value


@dataclass(frozen=True)
class DiffRow:
    field: str
    before: str
    after: str
    status: str  # "changed", "added", "removed" or "same"
    label: str = ""  # the field as a person reads it; `field` keeps the stored name
    before_shown: str = ""
    after_shown: str = ""


def _show(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


_MISSING = object()


def before_after_diff(before: Any, after: Any) -> list[DiffRow]:
    """One row per key of either side; non-dict values compare as a single "value" row."""
    if not isinstance(before, dict) or not isinstance(after, dict):
        if before is None and after is None:
            return []
        before = {"value": before} if before is not None else {}
        after = {"value": after} if after is not None else {}
    rows = []
    for key in sorted(set(before) | set(after), key=str):
        old, new = before.get(key, _MISSING), after.get(key, _MISSING)
        if old is _MISSING:
            status = "added"
        elif new is _MISSING:
            status = "removed"
        else:
            status = "same" if old == new else "changed"
        rows.append(
            DiffRow(
                field=str(key),
                before="" if old is _MISSING else _show(old),
                after="" if new is _MISSING else _show(new),
                status=status,
                label=fact_label(str(key), after or before),
                before_shown="" if old is _MISSING else show_value(old, name=str(key)),
                after_shown="" if new is _MISSING else show_value(new, name=str(key)),
            )
        )
    return rows
