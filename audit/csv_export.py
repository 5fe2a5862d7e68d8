"""CSV rows of audit events, streamed a bounded chunk at a time so memory stays flat at any size."""

from __future__ import annotations

import csv
import datetime as dt
import json
from collections.abc import Iterator
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from audit.actions import ACTIONS
from audit.chain import HASHED_FIELDS
from audit.models import AuditEvent
from audit.selectors import event_chunks

# Every hashed field, then the chain links, so an export can be re-verified outside the system; last, what the
# action code reads as (not hashed: labels may be reworded, codes never are).
COLUMNS = (*HASHED_FIELDS, "prev_hash", "hash", "action_label")
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
        # TIME_ZONE, as on the screens and in the logs; the offset keeps the instant exact.
        return timezone.localtime(value).isoformat()
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def csv_lines(queryset: QuerySet[AuditEvent]) -> Iterator[str]:
    """The header, then one line per event, newest first."""
    writer = csv.writer(_Echo())
    yield writer.writerow(COLUMNS)
    for chunk in event_chunks(queryset):
        for row in chunk:
            row["action_label"] = ACTIONS.label(row["action"])
        yield "".join(writer.writerow([_cell(c, row[c]) for c in COLUMNS]) for row in chunk)
