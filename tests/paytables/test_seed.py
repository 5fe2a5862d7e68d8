"""seed_demo seeds the standard paytables (paytables/standard/*.json) approved, once."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import override_settings

from audit.models import AuditEvent
from paytables.models import Paytable, PaytableLine
from paytables.seed import standard_paytable_files
from paytables.selectors import paytable_as_dict

pytestmark = pytest.mark.django_db


def seed() -> None:
    with override_settings(DEBUG=True):
        call_command("seed_demo", stdout=StringIO())


def test_seed_demo_approves_every_standard_paytable_once() -> None:
    seed()
    files = standard_paytable_files()
    names = {json.loads(path.read_text())["name"] for path in files}
    assert {"Jacks or Better 9/6", "Jacks or Better 8/5"} <= names
    assert set(Paytable.objects.values_list("name", flat=True)) >= names
    for path in files:
        data = json.loads(path.read_text())
        paytable = Paytable.objects.get(name=data["name"])
        assert (paytable.version, paytable.approval_reference) == (1, "DEMO-2026-0001")
        assert paytable.status in ("approved", "active")  # active once seed_demo puts it on a demo table
        assert paytable.approved_by is not None
        assert paytable.approved_by.username == "floor"
        assert paytable.created_by is not None
        assert paytable.created_by.username == "admin"  # two people: nobody approves their own draft
        assert paytable_as_dict(paytable)["lines"] == data["lines"]


def test_seed_demo_twice_changes_no_paytable() -> None:
    seed()
    before = (
        list(Paytable.objects.order_by("pk").values_list("pk", "name", "version", "status", "approved_at")),
        PaytableLine.objects.count(),
        AuditEvent.objects.filter(action__startswith="paytable_").count(),
    )
    seed()
    after = (
        list(Paytable.objects.order_by("pk").values_list("pk", "name", "version", "status", "approved_at")),
        PaytableLine.objects.count(),
        AuditEvent.objects.filter(action__startswith="paytable_").count(),
    )
    assert after == before
