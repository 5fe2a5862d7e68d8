"""Read-only admin pages show every amount in dollars: the DollarsAdminMixin turns `*_cents` into "$1,250.50"."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.auth.models import User
from django.test import Client, RequestFactory

from floor.admin import DropAdmin
from floor.models import Drop

pytestmark = pytest.mark.django_db


def test_a_cents_column_is_shown_in_dollars(floor_user: User) -> None:
    model_admin = DropAdmin(Drop, admin.site)
    request = RequestFactory().get("/admin/floor/drop/")
    request.user = floor_user
    columns = model_admin.get_list_display(request)
    assert "cash_cents" not in columns
    assert "cash_cents_in_dollars" in columns
    show = model_admin.cash_cents_in_dollars
    assert show(Drop(cash_cents=125_050)) == "$1,250.50"
    assert show.short_description == "cash"
    client = Client()
    client.force_login(floor_user)
    assert client.get("/admin/floor/drop/").status_code == 200
