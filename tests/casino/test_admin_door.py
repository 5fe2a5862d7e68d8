"""The admin is for floor staff: anyone else who reaches it is told so and sent where they work."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def sign_in_at_the_admin(client: Client, username: str, password: str) -> object:
    return client.post("/admin/login/?next=/admin/", {"username": username, "password": password}, follow=True)


def test_a_signed_in_dealer_opening_the_admin_is_told_it_is_for_floor_staff_and_linked_to_the_tablet(
    dealer_user: User,
) -> None:
    response = signed_in(dealer_user).get("/admin/", follow=True)
    assert response.status_code == 403
    page = response.content.decode()
    assert "The admin is for floor staff" in page
    assert 'href="/tablet/"' in page
    assert "correct username and password" not in page


def test_a_dealer_signing_in_at_the_admin_with_the_right_password_is_signed_in_and_linked_to_the_tablet(
    dealer_user: User,
) -> None:
    client = Client()
    response = sign_in_at_the_admin(client, "dave", "pw-dave")
    assert response.status_code == 403
    assert 'href="/tablet/"' in response.content.decode()
    assert "correct username and password" not in response.content.decode()
    assert client.get("/tablet/").status_code == 200  # one tap away, no second sign-in


def test_a_wrong_password_at_the_admin_is_still_a_wrong_password(dealer_user: User) -> None:
    client = Client()
    response = sign_in_at_the_admin(client, "dave", "not-his-password")
    assert response.status_code == 200
    assert "correct username and password" in response.content.decode()
    assert client.get("/tablet/").status_code == 302  # not signed in


def test_floor_staff_sign_in_to_the_admin_as_before(floor_user: User) -> None:
    client = Client()
    response = sign_in_at_the_admin(client, "fiona", "pw-fiona")
    assert response.status_code == 200
    assert response.redirect_chain[-1][0] == "/admin/"


def test_someone_without_a_role_is_told_to_ask_a_floor_supervisor_not_sent_to_the_tablet(stranger: User) -> None:
    response = signed_in(stranger).get("/admin/", follow=True)
    assert response.status_code == 403
    page = response.content.decode()
    assert "The admin is for floor staff" in page
    assert 'href="/tablet/"' not in page
    assert "Ask a floor supervisor" in page
