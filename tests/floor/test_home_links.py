"""The signed-in home page lists the screens a role can use: the count team, who have no table on the dealer tablet
("No tables are assigned to you"), is not sent there; the floor and compliance are, and a dealer lands on it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

pytestmark = pytest.mark.django_db


def links(user: User) -> str:
    client = Client()
    client.force_login(user)
    return client.get("/").content.decode()


def test_the_dealer_tablet_is_offered_to_the_roles_that_work_on_it_only(
    count_user: User, dealer_user: User, floor_user: User, compliance_user: User
) -> None:
    tablet = 'href="/tablet/"'
    assert tablet not in links(count_user)
    assert 'href="/floor/shifts/"' in links(count_user)
    for user in (floor_user, compliance_user):
        assert tablet in links(user), user.username
    client = Client()
    client.force_login(dealer_user)
    assert client.get("/").url == "/tablet/"  # a dealer lands on the tablet itself
