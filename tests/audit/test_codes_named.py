"""Audit text names a table's stored codes (its type, its card source) as the screens do, read at display time; the
stored event keeps the code."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from audit.exception_scan import declared_summary
from audit.models import AuditEvent
from audit.presentation import show_value, summary
from tables.models import Table


def test_a_tables_codes_read_as_the_names_screens_give_them(manual_table: Table, compliance_user: User) -> None:
    event = AuditEvent.objects.get(action="table_create", object_id=str(manual_table.pk))
    assert (event.after["table_type"], event.after["card_source"]) == ("triple-draw", "manual")
    said = summary(event.after, limit=1000)
    assert "Table type: Triple Draw Poker" in said
    assert "Card source: Dealer-entered cards" in said
    assert "triple-draw" not in said
    assert "Card source: manual" not in said
    assert "Card source: Dealer-entered cards" in declared_summary(event)  # the exception queue and daily report
    client = Client()
    client.force_login(compliance_user)
    html = client.get(f"/compliance/events/{event.pk}/").content.decode()
    assert "Dealer-entered cards" in html
    assert "Triple Draw Poker" in html
    assert AuditEvent.objects.get(pk=event.pk).after["card_source"] == "manual"  # the stored code never changes


def test_every_source_and_home_variant_is_named_and_an_unknown_code_stays_as_stored() -> None:
    assert show_value("rng", name="card_source") == "System shuffle"
    assert show_value("shoe", name="card_source") == "Card-reading shoe"
    assert show_value("pregnant-threes", name="variant") == "Pregnant Threes"
    assert show_value("three-legged-race", name="table_type") == "Three Legged Race"
    assert show_value("tarot", name="card_source") == "tarot"  # a code no app names is shown as recorded
    assert show_value("manual", name="reason") == "manual"  # only the fields that hold these codes are renamed
