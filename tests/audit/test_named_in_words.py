"""Audit text names what an event recorded by id or left empty: a paytable by name and version, an analysis not yet
computed, the table a paytable went onto, and an export's file by what it holds."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from audit.context import acting_as
from audit.event_table import EventTable, event_table
from audit.models import AuditEvent
from audit.presentation import show_value, summary
from audit.services import audit_record
from audit.templatetags.compliance import break_points
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


def test_an_older_paytable_use_event_shows_the_table_its_request_named(
    manual_table: Table, jacks_for_1: Paytable, compliance_user: User
) -> None:
    """Events written before the paytable's use named its table: the table's own event in the same request names
    it, read at display time; the stored event is not changed."""
    event = AuditEvent.objects.get(action="paytable_mark_active")
    with acting_as(correlation_id="req-old-1"):  # one request, as the table admin wrote them before this fix
        old = audit_record(action="paytable_mark_active", object_type=event.object_type, object_id=event.object_id,
                           object_repr=event.object_repr, after={"status": "active"})
        audit_record(action="table_set_paytable", object_type="tables.table", object_id=str(manual_table.pk),
                     table=manual_table, after={"paytable_id": jacks_for_1.pk})
    assert event_table(old) == EventTable(manual_table.pk, "Manual 1", from_companion=True)
    html = _client(compliance_user).get(f"/compliance/events/{old.pk}/").content.decode()
    assert "Manual 1</a> (not recorded on this event" in html
    stored = AuditEvent.objects.get(pk=old.pk)
    assert (stored.table_id, stored.table_repr) == (None, "")
    with acting_as(correlation_id="req-old-2"):  # a request that named no table: nothing to show
        lone = audit_record(action="paytable_mark_active", object_type=event.object_type,
                            object_id=event.object_id, after={"status": "active"})
    assert event_table(lone) == EventTable(None, "")


def test_the_trail_list_fits_a_tablet_names_break_between_words_and_search_hints_show_whole(
    compliance_user: User,
) -> None:
    assert break_points("analyze_paytable_task") == "analyze_<wbr>paytable_<wbr>task"
    assert break_points("<b>_x") == "&lt;b&gt;_<wbr>x"  # a name is text, never markup
    html = _client(compliance_user).get("/compliance/").content.decode()
    assert 'placeholder="Triple Draw 1 round 9, or its id" class="named-search" id="id_round"' in html
    assert 'placeholder="Five Card Draw 1 game 2, or its id" class="named-search" id="id_game"' in html
    assert '<div class="events-scroll"><table class="events trail">' in html  # at 800 px each event stacks into lines
