"""The events CSV keeps every hashed field so the chain can be re-verified from the file alone. The spreadsheet guard
(a cell starting = + - @ gets a leading ') made that lossy: a reason "'=x" and a reason "=x" both left as "'=x", so no
rule could give back what was hashed. Now a text cell starting with ' gets one too, and removing one leading ' from
a text cell that has one gives back the stored value."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from audit.chain import HASHED_FIELDS, event_hash
from audit.models import AuditEvent
from audit.services import audit_chain_seal, audit_record

INTEGERS = {"id", "sequence", "actor_id", "table_id", "round_id", "seat_number", "approver_id"}
NULLABLE = INTEGERS | {"client_address", "before", "after"}


def _stored(row: dict[str, str]) -> dict[str, Any]:
    """A CSV row's hashed fields as they were stored, by the README's rule."""
    event: dict[str, Any] = {}
    for name in HASHED_FIELDS:
        value: Any = row[name]
        if value == "" and name in NULLABLE:
            value = None
        elif name in INTEGERS:
            value = int(value)
        elif name in ("before", "after"):
            value = json.loads(value)
        elif name == "occurred_at":
            value = dt.datetime.fromisoformat(value)
        elif value.startswith("'"):
            value = value[1:]
        event[name] = value
    return event


@pytest.mark.django_db
def test_every_exported_row_re_verifies_from_the_file_alone(compliance_user: User) -> None:
    reasons = ["=HYPERLINK(\"http://evil\")", "'=HYPERLINK(\"http://evil\")", "'quoted", "-- misdeal", "+1 card",
               "@floor", "plain"]
    for reason in reasons:
        audit_record(action="seat_join", object_type="tables.seat", object_id="1", reason=reason,
                     after={"player_name": "=cmd"})
    audit_chain_seal()
    client = Client()
    client.force_login(compliance_user)
    response = client.get("/compliance/export.csv?action=seat_join")
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert len(rows) == len(reasons)
    for row in rows:
        assert row["hash"], row["id"]
        assert event_hash(row["prev_hash"], _stored(row)) == row["hash"], row["reason"]
    shown = {row["reason"] for row in rows}
    assert "'=HYPERLINK(\"http://evil\")" in shown  # still never a formula in a spreadsheet
    assert "''=HYPERLINK(\"http://evil\")" in shown
    assert {e.reason for e in AuditEvent.objects.filter(action="seat_join")} == set(reasons)


def test_the_daily_report_csv_never_hands_a_spreadsheet_a_formula() -> None:
    """A table may be named "=HYPERLINK(...)" (any text up to 60 characters): the daily report's CSV wrote its name,
    its rounds and the cases' summaries as they were, where the events CSV guarded them."""
    from audit.daily_report import report_csv

    row = {"time": "2026-12-02 13:51:05", "kind": "Void", "table": "=HYPERLINK(\"http://evil\")",
           "round": "=HYPERLINK(\"http://evil\") round 3", "seat": 2, "amount": "$5.00",
           "summary": "@SUM(A1)", "status": "New"}
    data = {"gaming_day": "2026-12-02", "time_zone": "UTC", "window": ["2026-12-02 06:00:00", "2026-12-03 06:00:00"],
            "events": 1, "chain": {"state": "Verified", "last_checked_at": "", "checked_by": "-job"},
            "exceptions_by_kind": [{"kind": "Void", "count": 1}], "voids": [row], "voids_total": 1,
            "payouts": [], "payouts_total": 0}
    cells = [cell for line in csv.reader(io.StringIO(report_csv(data))) for cell in line]
    assert "'=HYPERLINK(\"http://evil\")" in cells
    assert "'=HYPERLINK(\"http://evil\") round 3" in cells
    assert "'@SUM(A1)" in cells
    assert "'-job" in cells
    assert not [cell for cell in cells if cell.startswith(("=", "+", "-", "@"))]
