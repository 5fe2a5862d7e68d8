"""A screen refused to a signed-in user says why, in the site's page, with the way back to the screens they may open
(it was Django's bare "403 Forbidden")."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/compliance/", "/compliance/exceptions/"])
def test_a_floor_supervisor_refused_the_compliance_screens_is_told_why_and_how_back(
    floor_user: User, path: str
) -> None:
    client = Client()
    client.force_login(floor_user)
    response = client.get(path)
    assert response.status_code == 403
    page = response.content.decode()
    assert "<title>Not allowed · Triple Draw Casino</title>" in page
    assert "The compliance screens need the compliance role." in page
    assert '<a href="/">Back to the screens you may open</a>' in page
    assert floor_user.get_username() in page  # signed in as whom, with the sign-out button

