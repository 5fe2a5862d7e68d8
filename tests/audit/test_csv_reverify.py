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
