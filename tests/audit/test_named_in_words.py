"""Audit text names what an event recorded by id or left empty: a paytable by name and version, an analysis not yet
computed, the table a paytable went onto, and an export's file by what it holds."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from audit.models import AuditEvent
from audit.presentation import show_value, summary
from paytables.models import Paytable
from tables.models import Table
from tests.tables.conftest import client_for
from tests.tables.helpers import play_manual

ROWS = ["2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d", "2h 3h 4h 5h 6h"]


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_paytable_id_reads_as_its_name_and_version(jacks_for_1: Paytable) -> None:
    assert show_value(jacks_for_1.pk, name="paytable_id") == f"{jacks_for_1} (#{jacks_for_1.pk})"
    assert str(jacks_for_1).endswith(" v1")
    assert show_value(999_999, name="paytable_id") == "#999999"  # none by that id: the id alone, never a blank


def test_an_analysis_figure_recorded_empty_reads_not_yet_computed() -> None:
    assert summary({"approval_reference": "R-1", "return": None}) == (
        "Approval reference: R-1; Theoretical return: not yet computed")
    assert show_value(None, name="reason") == "—"


def test_putting_a_paytable_on_a_table_names_the_table(manual_table: Table, compliance_user: User) -> None:
    event = AuditEvent.objects.get(action="paytable_mark_active")
    assert (event.table_id, event.table_repr) == (manual_table.pk, "Manual 1")
    html = _client(compliance_user).get(f"/compliance/events/{event.pk}/").content.decode()
    assert "Manual 1" in html


def test_a_rounds_and_a_tables_export_are_named_after_them(
    manual_table: Table, dealer_user: User, compliance_user: User
) -> None:
    state = play_manual(client_for(dealer_user), manual_table.pk,
                        {1: {"bet": 500, "circles": 1, "dealt": "Ah Ad 4s 7c 9d", "held": "Ah Ad"}}, ROWS)
    client = _client(compliance_user)
    response = client.get(f"/compliance/export.csv?round={state['id']}")
    assert response["Content-Disposition"] == 'attachment; filename="manual-1-round-1-events.csv"'
    b"".join(response.streaming_content)  # type: ignore[attr-defined]
    response = client.get(f"/compliance/export.csv?table={manual_table.pk}")
    assert response["Content-Disposition"].startswith('attachment; filename="table-manual-1-events-')
    response = client.get("/compliance/export.csv?action=seat_join")
    assert response["Content-Disposition"].startswith('attachment; filename="audit-events-')
