"""Reading a report's query parameters (gaming days, filters) into a ReportQuery: format and existence checks only,
the same for the JSON API, the CSV export and the reports page."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date, timedelta

from django.contrib.auth.models import User

from casino.errors import DomainError, NotFound
from floor.gaming_day import shift_codes
from tables.models import Table, TableType

GROUPINGS = ("table", "type", "pit", "dealer", "shift", "day")


@dataclass(frozen=True)
class ReportQuery:
    """Gaming days first..last (inclusive) and optional filters."""

    first: date
    last: date
    table: Table | None = None
    table_type: str = ""
    pit: str = ""
    dealer: User | None = None
    shift: str = ""

    @property
    def days(self) -> int:
        return (self.last - self.first).days + 1

    def as_params(self) -> dict[str, str]:
        """The query string that gives this query back (for links: CSV, charts' JSON)."""
        params = {"from": self.first.isoformat(), "to": self.last.isoformat()}
        if self.table is not None:
            params["table"] = str(self.table.pk)
        if self.table_type:
            params["type"] = self.table_type
        if self.pit:
            params["pit"] = self.pit
        if self.dealer is not None:
            params["dealer"] = self.dealer.get_username()
        if self.shift:
            params["shift"] = self.shift
        return params

    def with_days(self, first: date, last: date) -> ReportQuery:
        return replace(self, first=first, last=last)


def parse_day(text: str | None, field: str) -> date:
    raw = (text or "").strip()
    if not raw:
        raise DomainError(f"{field} is required (a gaming day, YYYY-MM-DD)", code="missing_date", field=field)
    try:
        return date.fromisoformat(raw)
    except ValueError:
        raise DomainError(f"{field}: {raw!r} is not a date (YYYY-MM-DD)", code="bad_date", field=field) from None


class UnknownReference(NotFound):
    """A filter names a table or dealer that does not exist."""


def _table(text: str) -> Table:
    table = Table.objects.filter(pk=int(text)).first() if text.isdigit() and len(text) < 19 else None
    if table is None:
        raise UnknownReference(f"there is no table {text!r}", code="unknown_table", field="table")
    return table


def _dealer(text: str) -> User:
    dealer = User.objects.filter(username=text).first()
    if dealer is None:
        raise UnknownReference(f"there is no user {text!r}", code="unknown_dealer", field="dealer")
    return dealer


def report_query(
    params: Mapping[str, str], *, default_days: int | None = None, today: date | None = None
) -> ReportQuery:
    """Parse from/to (required unless `default_days` is given: the last that many gaming days up to `today`) and
    the filters table (id), type, pit, dealer (username) and shift."""
    for name, value in params.items():
        if "\x00" in str(value):
            raise DomainError(f"{name} holds a NUL character", code="bad_parameter", field=name)
    if default_days is not None and today is not None and not params.get("from") and not params.get("to"):
        first, last = today - timedelta(days=default_days - 1), today
    else:
        first, last = parse_day(params.get("from"), "from"), parse_day(params.get("to"), "to")
    if first > last:
        raise DomainError(
            f"from ({first.isoformat()}) is after to ({last.isoformat()})", code="from_after_to", field="from"
        )
    table_type = (params.get("type") or "").strip()
    if table_type and table_type not in TableType.values:
        kinds = ", ".join(TableType.values)
        raise DomainError(f"no table type {table_type!r}: types are {kinds}", code="bad_table_type", field="type")
    shift = (params.get("shift") or "").strip()
    if shift and shift not in shift_codes():
        names = ", ".join(shift_codes())
        raise DomainError(f"there is no shift {shift!r}: the shifts are {names}", code="unknown_shift", field="shift")
    table_text = (params.get("table") or "").strip()
    dealer_text = (params.get("dealer") or "").strip()
    return ReportQuery(
        first=first,
        last=last,
        table=_table(table_text) if table_text else None,
        table_type=table_type,
        pit=(params.get("pit") or "").strip(),
        dealer=_dealer(dealer_text) if dealer_text else None,
        shift=shift,
    )


def grouping(text: str | None) -> str:
    by = (text or "table").strip()
    if by not in GROUPINGS:
        raise DomainError(f"group by one of {', '.join(GROUPINGS)}, not {by!r}", code="bad_grouping", field="by")
    return by
