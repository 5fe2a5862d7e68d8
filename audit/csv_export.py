"""CSV rows of audit events, streamed a bounded chunk at a time so memory stays flat at any size."""

from __future__ import annotations

import csv
import datetime as dt
import json
from collections.abc import Iterator
from typing import Any

from django.db.models import QuerySet

from audit.models import AuditEvent
from audit.selectors import event_chunks

COLUMNS = (
    "id",
    "sequence",
    "occurred_at",
    "actor_id",
    "actor_username",
    "actor_role",
    "actor_kind",
    "action",
    "exception_kind",
    "object_type",
    "object_id",
    "object_repr",
    "table_id",
    "table_repr",
    "round_id",
    "round_repr",
    "seat_number",
    "before",
    "after",
    "reason",
    "approver_id",
    "approver_username",
    "correlation_id",
    "client_address",
    "prev_hash",
    "hash",
)
# A spreadsheet would run a cell starting with one of these as a formula (CSV injection).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


class _Echo:
    def write(self, value: str) -> str:
        return value


def _cell(name: str, value: Any) -> Any:
    if value is None:
        return ""
    if name in {"before", "after"}:
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    if isinstance(value, dt.datetime):
        return value.astimezone(dt.UTC).isoformat()
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def csv_lines(queryset: QuerySet[AuditEvent]) -> Iterator[str]:
    """The header, then one line per event, newest first."""
    writer = csv.writer(_Echo())
    yield writer.writerow(COLUMNS)
    for chunk in event_chunks(queryset):
        yield "".join(writer.writerow([_cell(c, row[c]) for c in COLUMNS]) for row in chunk)
