"""The admin changes tables only through services; seed_demo adds the demo Triple Draw tables idempotently."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from audit.models import AuditEvent
from tables.models import Round, Table

pytestmark = pytest.mark.django_db


def test_seed_demo_adds_an_rng_a_manual_and_a_shoe_table_for_the_demo_dealer_once() -> None:
    call_command("seed_demo", "--force", stdout=StringIO())
    call_command("seed_demo", "--force", stdout=StringIO())
    tables = Table.objects.filter(name__startswith="Triple Draw").order_by("name")
    assert [(t.name, t.card_source, t.is_open) for t in tables] == [
        ("Triple Draw 1", "rng", True),
        ("Triple Draw 2", "manual", True),
        ("Triple Draw Shoe 1", "shoe", True),
    ]
    assert [(t.paytable.name, t.paytable.basis) for t in tables] == [
        ("Triple Draw house", "to_1"),
        ("Jacks or Better 9/6", "for_1"),
        ("Triple Draw house", "to_1"),
    ]
    for table in tables:
        assert table.paytable is not None
        assert table.paytable.status == "active"  # a table putting a version in force makes it active
        assert list(table.dealers.values_list("username", flat=True)) == ["dealer"]


def test_closing_a_table_from_the_admin_is_audited() -> None:
    call_command("seed_demo", "--force", stdout=StringIO())
    table = Table.objects.get(name="Triple Draw 2")
    client = Client()
    client.force_login(User.objects.get(username="admin"))
    client.post("/admin/tables/table/", {"action": "close_tables", "index": 0, "_selected_action": [table.pk]})
    assert Table.objects.get(pk=table.pk).is_open is False
    assert AuditEvent.objects.filter(action="table_close", table_id=table.pk, actor_username="admin").exists()
    assert client.get(f"/admin/tables/table/{table.pk}/change/").status_code == 200


def test_rounds_are_read_only_in_the_admin(admin_user: User) -> None:
    client = Client()
    client.force_login(admin_user)
    assert client.get("/admin/tables/round/").status_code == 200
    assert client.get("/admin/tables/round/add/").status_code == 403
    assert Round.objects.count() == 0
