"""The landing page sends each role where it works."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_dealer_lands_on_the_tablet(dealer_user: User) -> None:
    response = signed_in(dealer_user).get("/")
    assert response.status_code == 302
    assert response["Location"] == "/tablet/"


def test_floor_staff_see_the_admin_link(floor_user: User) -> None:
    page = signed_in(floor_user).get("/").content.decode()
    assert 'href="/admin/"' in page


def test_compliance_sees_the_audit_trail_link(compliance_user: User) -> None:
    page = signed_in(compliance_user).get("/").content.decode()
    assert 'href="/compliance/' in page


def test_an_anonymous_visitor_is_sent_to_sign_in(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
