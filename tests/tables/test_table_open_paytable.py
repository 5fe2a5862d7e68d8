"""The tester's report: a Triple Draw table opened with no paytable took bets that only a void could end (closing
the bets needs the paytable). It does not open without an approved paytable: the API, the admin's action and the
tablet refuse, naming the paytable, and the admin form of a table left open without one asks for one."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from audit.models import AuditEvent
from paytables.models import Paytable
from tables.models import Table
from tables.services.tables import table_close, table_create, table_open
from tests.tables.conftest import client_for
from tests.tables.test_table_admin import form as table_form

pytestmark = pytest.mark.django_db


@pytest.fixture
def bare_table(floor_user: User) -> Table:
    """A closed Triple Draw table with no paytable (created without one, as the API and admin allow)."""
    return table_create(name="Bare TD", actor=floor_user, card_source="manual")


def _opened() -> int:
    return AuditEvent.objects.filter(action="table_open").count()


def test_the_api_refuses_to_open_a_triple_draw_table_without_a_paytable(
    floor_user: User, bare_table: Table, jacks_for_1: Paytable
) -> None:
    api = client_for(floor_user)
    answer = api.post(f"/api/v1/tables/{bare_table.pk}/open/")
    assert answer.status_code == 400, answer.json()
    assert answer.json()["error"]["field"] == "paytable"
    assert answer.json()["error"]["code"] == "no_paytable"
    assert "paytable" in answer.json()["error"]["message"]
    bare_table.refresh_from_db()
    assert not bare_table.is_open
    assert _opened() == 0
    assert api.post(f"/api/v1/tables/{bare_table.pk}/paytable/", {"paytable_id": jacks_for_1.pk},
                    format="json").status_code == 200
    assert api.post(f"/api/v1/tables/{bare_table.pk}/open/").status_code == 200
    assert _opened() == 1


def test_a_home_game_table_opens_without_a_paytable(floor_user: User) -> None:
    table = table_create(name="Home", table_type="five-card-draw", card_source="rng", actor=floor_user)
    table = table_open(table=table, actor=floor_user)
    assert table.is_open


def test_the_admin_open_action_refuses_a_triple_draw_table_without_a_paytable(
    floor_user: User, bare_table: Table
) -> None:
    client = Client()
    client.force_login(floor_user)
    response = client.post("/admin/tables/table/", {"action": "open_tables", "_selected_action": [bare_table.pk]},
                           follow=True)
    assert "Bare TD has no paytable" in response.content.decode()
    bare_table.refresh_from_db()
    assert not bare_table.is_open
    assert _opened() == 0


def test_the_tablet_refuses_to_open_a_triple_draw_table_without_a_paytable(
    floor_user: User, bare_table: Table
) -> None:
    client = Client()
    client.force_login(floor_user)
    response = client.post(reverse("tablet:action", args=[bare_table.pk, "open"]), HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert "has no paytable" in response.content.decode()
    bare_table.refresh_from_db()
    assert not bare_table.is_open


def test_the_admin_form_of_an_open_triple_draw_table_without_a_paytable_asks_for_one(
    floor_user: User, bare_table: Table, jacks_for_1: Paytable
) -> None:
    Table.objects.filter(pk=bare_table.pk).update(is_open=True)  # opened before opening needed a paytable
    client = Client()
    client.force_login(floor_user)
    url = f"/admin/tables/table/{bare_table.pk}/change/"
    response = client.post(url, table_form(name="Bare TD renamed"))
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert "paytable" in " ".join(errors["paytable"]), errors
    bare_table.refresh_from_db()
    assert bare_table.name == "Bare TD"
    response = client.post(url, table_form(name="Bare TD renamed", paytable=str(jacks_for_1.pk)))
    assert response.status_code == 302
    bare_table.refresh_from_db()
    assert (bare_table.name, bare_table.paytable_id) == ("Bare TD renamed", jacks_for_1.pk)


def test_a_closed_triple_draw_table_is_saved_without_a_paytable_in_the_admin(
    floor_user: User, bare_table: Table, manual_table: Table
) -> None:
    client = Client()
    client.force_login(floor_user)
    response = client.post(f"/admin/tables/table/{bare_table.pk}/change/", table_form(name="Bare TD 2"))
    assert response.status_code == 302
    table_close(table=manual_table, actor=floor_user)
    assert table_open(table=manual_table, actor=floor_user).is_open  # one with a paytable opens as before


def test_a_table_left_open_without_a_paytable_refuses_to_start_a_round_before_any_bet(
    floor_user: User, dealer_user: User, bare_table: Table
) -> None:
    """A table opened before opening needed a paytable: the round is refused at its start, not after bets are taken."""
    from tables.models import Round
    from tables.services.seats import seat_join

    Table.objects.filter(pk=bare_table.pk).update(is_open=True)  # as such a table was left
    bare_table.dealers.add(dealer_user)
    seat_join(table=bare_table, seat_number=1, actor=dealer_user)
    answer = client_for(dealer_user).post(f"/api/v1/tables/{bare_table.pk}/rounds/")
    assert answer.status_code == 400, answer.json()
    assert (answer.json()["error"]["code"], answer.json()["error"]["field"]) == ("no_paytable", "paytable")
    assert not Round.objects.filter(table=bare_table).exists()
