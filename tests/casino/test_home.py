"""The landing page sends each role where it works."""

from __future__ import annotations

import re

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


def _cards(user: User) -> dict[str, str]:
    """Each destination's title and the rest of its card (its purpose, any read-only mark), as the page lists them."""
    page = signed_in(user).get("/").content.decode()
    found = re.findall(r'<li><a href="([^"]+)"><span class="title">([^<]+)</span>(.*?)</a></li>', page, re.S)
    return {title: f"{href} {' '.join(re.sub(r'<[^>]+>', ' ', rest).split())}" for href, title, rest in found}


def test_compliance_sees_what_it_can_do_and_the_floors_screens_marked_read_only(compliance_user: User) -> None:
    compliance_user.is_staff = True  # the admin lets compliance read tables and paytables
    compliance_user.save()
    cards = _cards(compliance_user)
    assert list(cards) == ["Audit trail", "Exception queue", "Daily compliance reports", "Win and hold reports",
                           "Shift books", "Dealer tablet", "Floor admin", "API documentation"]
    for title in ("Shift books", "Dealer tablet", "Floor admin"):
        assert cards[title].split()[1] == "read-only", title
    for title in ("Audit trail", "Exception queue", "Win and hold reports"):
        assert "read-only" not in cards[title], title
    assert cards["Audit trail"].startswith("/compliance/ Every recorded action")


def test_the_floor_sees_its_own_screens_none_read_only(floor_user: User) -> None:
    cards = _cards(floor_user)
    assert list(cards)[:5] == ["Floor view", "Pits", "Win and hold reports", "Shift books", "Dealer tablet"]
    assert "Audit trail" not in cards
    assert not [title for title, card in cards.items() if "read-only" in card]


def _lead(user: User) -> str:
    page = signed_in(user).get("/").content.decode()
    return re.findall(r'<p class="lead">([^<]*)</p>', page)[0]


def test_the_lead_names_the_roles_or_says_there_are_none(floor_user: User, compliance_user: User) -> None:
    assert _lead(floor_user) == "Where you can go with your roles (floor):"
    # A superuser holds no group: the line read "Where you can go with your roles:" and named none.
    admin = User.objects.create_superuser("ada", password="pw-ada")
    assert _lead(admin) == "Where you can go as a superuser (every role's screens):"
    compliance_user.groups.clear()
    assert _lead(compliance_user) == "You have no role yet: ask an administrator for one. What you can open now:"


def test_the_header_says_logged_in_and_log_out_as_the_tablet_does(floor_user: User) -> None:
    # "Sign in at this table" and "Leave this table" (to sign out) are a dealer's session: the app's own login reads
    # "Logged in" and "Log out" on every screen, not "Sign out".
    page = signed_in(floor_user).get("/").content.decode()
    assert f"Logged in as {floor_user.get_username()}</span>" in page
    assert ">Log out</button>" in page
    assert "Sign out" not in page
