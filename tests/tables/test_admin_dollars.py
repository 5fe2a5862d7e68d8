"""Admin pages show amounts in dollars: DollarsAdminMixin and the `dollars` columns turn cents into "$1,250.50"."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.auth.models import User
from django.test import Client, RequestFactory

from floor.admin import DropAdmin
from floor.models import Drop
from tables.admin_home_games import HomeGameAdmin, HomeLedgerEntryAdmin
from tables.models import HomeGame, HomeLedgerEntry

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


def test_a_dollars_column_reads_its_cents_field_with_its_label_and_sorts_only_when_asked() -> None:
    model_admin = HomeLedgerEntryAdmin(HomeLedgerEntry, admin.site)
    assert model_admin.amount(HomeLedgerEntry(amount_cents=-350)) == "-$3.50"
    assert model_admin.amount.short_description == "amount"
    assert model_admin.amount.admin_order_field == "amount_cents"
    game_admin = HomeGameAdmin(HomeGame, admin.site)
    assert game_admin.pot(HomeGame(pot_cents=12_345_678)) == "$123,456.78"
    assert game_admin.pot.short_description == "in the middle"
    assert not hasattr(game_admin.pot, "admin_order_field")
