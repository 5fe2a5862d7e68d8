"""Operators' acts on the floor's derived data: recording that the summary rows were rebuilt."""

from __future__ import annotations

from datetime import date

from django.db import transaction

from audit.services import audit_record
from floor import actions


@transaction.atomic
def summaries_rebuild_record(*, first_day: date, last_day: date, rows: int) -> None:
    """Audit a rebuild of the summary rows (the rows are derived from the ledger; the act is recorded)."""
    audit_record(
        action=actions.FLOOR_SUMMARIES_REBUILD,
        object_type="floor.tablehour",
        after={"first_day": first_day.isoformat(), "last_day": last_day.isoformat(), "rows": rows},
    )
