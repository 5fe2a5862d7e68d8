"""CSV rows of audit events, streamed a bounded chunk at a time so memory stays flat at any size."""

from __future__ import annotations

import csv
import datetime as dt
import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.text import slugify

from audit.actions import ACTIONS
from audit.chain import HASHED_FIELDS
from audit.models import AuditEvent
from audit.presentation import amount_cents, summary
from audit.selectors import event_chunks
from casino.engine.money import money

# Every hashed field, then the chain links, so an export can be re-verified outside the system; last, what the
# action code reads as (not hashed: labels may be reworded, codes never are).
# Then what a person reads: the amount in dollars, the values in words, and the time zone of every time.
COLUMNS = (*HASHED_FIELDS, "prev_hash", "hash", "action_label", "amount", "summary", "time_zone")
# A spreadsheet would run a cell starting with one of these as a formula (CSV injection): such a cell gets a leading
# "'". So does one that already starts with "'", so the guard stays reversible and the hashed fields re-verify: a text
# cell that starts with "'" is the stored value with one "'" added.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_GUARDED_START = (*_FORMULA_START, "'")


class _Echo:
    def write(self, value: str) -> str:
        return value


def spreadsheet_safe(value: Any) -> Any:
    """A text cell a spreadsheet would run as a formula gets a leading "'" (and one starting with "'" too, so the
    guard can be undone); anything else is left as it is."""
    if isinstance(value, str) and value.startswith(_GUARDED_START):
        return "'" + value
    return value


class SafeWriter:
    """csv.writer whose every cell is spreadsheet-safe: a table's name or a case's summary is text people typed.
    `writerow` returns what the underlying writer returns (the line, when streaming through an echo)."""

    def __init__(self, out: Any) -> None:
        self._writer = csv.writer(out)

    def writerow(self, row: Iterable[Any]) -> Any:
        return self._writer.writerow([spreadsheet_safe(cell) for cell in row])


def _cell(name: str, value: Any) -> Any:
    if value is None:
        return ""
    if name in {"before", "after"}:
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    if isinstance(value, dt.datetime):
        # TIME_ZONE, as on the screens and in the logs; the offset keeps the instant exact.
        return timezone.localtime(value).isoformat()
    return spreadsheet_safe(value)


def csv_lines(queryset: QuerySet[AuditEvent]) -> Iterator[str]:
    """The header, then one line per event, newest first."""
    writer = csv.writer(_Echo())
    yield writer.writerow(COLUMNS)
    zone = timezone.get_current_timezone_name()
    for chunk in event_chunks(queryset):
        for row in chunk:
            row["action_label"] = ACTIONS.label(row["action"])
            cents = amount_cents(row["after"])
            row["amount"] = money(cents) if cents is not None else ""
            row["summary"] = summary(row["after"], limit=1000)
            row["time_zone"] = zone
        yield "".join(writer.writerow([_cell(c, row[c]) for c in COLUMNS]) for row in chunk)


def export_name(params: Mapping[str, str], events: QuerySet[AuditEvent], stamp: str) -> str:
    """The file's name says what it holds: "triple-draw-1-round-9-events.csv" for a round's events,
    "five-card-draw-1-game-2-events.csv" for a home game's, "table-triple-draw-1-events-<time>.csv" for a table's;
    any other filter gives "audit-events-<time>.csv". A subject with no event to name it by keeps its id."""
    def named(column: str, fallback: str, **where: str) -> str:
        found = events.filter(**where).exclude(**{column: ""}).values_list(column, flat=True).first()
        return slugify(found or fallback) or "events"

    if params.get("round"):
        return f"{named('round_repr', 'round ' + params['round'])}-events.csv"
    if params.get("game"):
        return f"{named('object_repr', 'game ' + params['game'], object_type='tables.homegame')}-events.csv"
    if params.get("table"):
        return f"table-{named('table_repr', params['table'])}-events-{stamp}.csv"
    return f"audit-events-{stamp}.csv"
