"""The floor, dealer and compliance groups exist with explicit permissions; compliance only views."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group


@pytest.mark.django_db
def test_the_three_role_groups_exist() -> None:
    assert set(Group.objects.values_list("name", flat=True)) >= {"floor", "dealer", "compliance"}


@pytest.mark.django_db
def test_compliance_may_only_view() -> None:
    codenames = set(Group.objects.get(name="compliance").permissions.values_list("codename", flat=True))
    assert codenames, "compliance needs view permissions"
    assert all(code.startswith("view_") for code in codenames)
    assert "view_auditevent" in codenames
    assert "view_paytable" in codenames


@pytest.mark.django_db
def test_floor_may_change_paytables_but_never_audit_events() -> None:
    codenames = set(Group.objects.get(name="floor").permissions.values_list("codename", flat=True))
    assert {"add_paytable", "change_paytable", "view_paytable"} <= codenames
    assert not {"add_auditevent", "change_auditevent", "delete_auditevent"} & codenames


@pytest.mark.django_db
def test_dealers_hold_no_model_write_permission() -> None:
    codenames = set(Group.objects.get(name="dealer").permissions.values_list("codename", flat=True))
    assert all(code.startswith("view_") for code in codenames)
    assert not any(code.endswith("auditevent") for code in codenames)
