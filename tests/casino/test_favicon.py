"""The site's icon: every kind of page names it, it is a file the static files serve, and /favicon.ico (asked for by
browsers on pages that name no icon) leads to it instead of a 404."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.test import Client

ICON = "casino/favicon.svg"


def test_the_icon_is_a_static_file() -> None:
    found = finders.find(ICON)
    assert found is not None
    with open(str(found), encoding="utf-8") as icon:
        assert icon.read().startswith("<svg")


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/accounts/login/", "/tablet/login/", "/admin/login/", "/compliance/", "/floor/"])
def test_every_kind_of_page_names_the_icon(path: str, client: Client, admin_user: User) -> None:
    client.force_login(admin_user)
    response = client.get(path, follow=True)
    assert response.status_code == 200
    assert f'<link rel="icon" href="{static(ICON)}" type="image/svg+xml">' in response.content.decode()


def test_favicon_ico_leads_to_the_icon(client: Client) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"] == static(ICON)


def test_favicon_ico_only_answers_reads(client: Client) -> None:
    assert client.post("/favicon.ico").status_code == 405
