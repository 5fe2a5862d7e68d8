"""The count team has no tables on the dealer tablet: it is told so, and where its work is, not that nobody assigned
it a table (the tablet list said "No tables are assigned to you. A floor supervisor assigns dealers to tables")."""

from __future__ import annotations

from django.contrib.auth.models import Group, User
from django.test import Client

from tables.models import Table


def test_the_count_team_is_refused_the_tablet_with_the_reason(count_user: User, rng_tables: list[Table]) -> None:
    client = Client()
    client.force_login(count_user)
    for path in ("/tablet/", f"/tablet/tables/{rng_tables[0].pk}/"):
        response = client.get(path)
        assert response.status_code == 403, path
        page = response.content.decode()
        assert "The dealer tablet is for dealers, floor supervisors and compliance; your role (count)" in page
        assert "A floor supervisor assigns dealers" not in page


def test_a_dealer_without_tables_still_hears_who_assigns_them(db: None) -> None:
    dealer = User.objects.create_user(username="newdealer", password="pw")
    dealer.groups.add(Group.objects.get_or_create(name="dealer")[0])
    client = Client()
    client.force_login(dealer)
    response = client.get("/tablet/")
    assert response.status_code == 200
    assert "No tables are assigned to you. A floor supervisor assigns dealers to tables." in response.content.decode()
