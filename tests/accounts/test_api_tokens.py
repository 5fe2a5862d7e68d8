"""API tokens: issued for a username and password, stored hashed, expiring, revoked by logout and password change."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from accounts.models import ApiToken
from accounts.services import api_token_issue
from audit.models import AuditEvent

pytestmark = pytest.mark.django_db

TOKEN_URL = "/api/v1/auth/token/"


def get_token(username: str, password: str) -> Any:
    return Client().post(TOKEN_URL, {"username": username, "password": password}, content_type="application/json")


def me(token: str, prefix: str = "Token") -> Any:
    return Client().get("/api/v1/me/", HTTP_AUTHORIZATION=f"{prefix} {token}")


def test_a_script_trades_username_and_password_for_an_expiring_token(lena: User) -> None:
    response = get_token("lena", "lena-right-pw")
    assert response.status_code == 200
    token, expiry = response.json()["token"], dt.datetime.fromisoformat(response.json()["expiry"])
    assert abs(expiry - (timezone.now() + dt.timedelta(hours=12))) < dt.timedelta(minutes=1)
    assert me(token).status_code == 200
    assert me(token).json()["username"] == "lena"


def test_only_a_digest_of_the_token_is_stored(lena: User) -> None:
    token = get_token("lena", "lena-right-pw").json()["token"]
    (stored,) = ApiToken.objects.values()
    assert all(token not in str(value) for value in stored.values())
    assert len(stored["digest"]) == 128  # SHA-512
    events = AuditEvent.objects.filter(action="api_token_issue")
    assert events.count() == 1
    assert token not in str(list(events.values()))


def test_wrong_credentials_are_a_400_in_the_error_shape(lena: User) -> None:
    response = get_token("lena", "wrong")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_credentials"
    assert get_token("nobody", "x").json()["error"]["code"] == "invalid_credentials"


def test_an_expired_token_is_refused(lena: User) -> None:
    issued = api_token_issue(user=lena, actor=lena, ttl=dt.timedelta(hours=1))
    assert me(issued.token).status_code == 200
    ApiToken.objects.filter(pk=issued.api_token.pk).update(expiry=timezone.now() - dt.timedelta(seconds=1))
    assert me(issued.token).status_code == 401


def test_a_password_change_revokes_every_token(lena: User) -> None:
    tokens = [get_token("lena", "lena-right-pw").json()["token"] for _ in range(2)]
    lena.set_password("a-new-password-9")
    lena.save()
    for token in tokens:
        response = me(token)
        assert response.status_code == 401
        assert "password changed" in response.json()["error"]["message"]
    assert me(get_token("lena", "a-new-password-9").json()["token"]).status_code == 200


def test_a_password_change_in_the_admin_revokes_tokens(lena: User, floor_user: User) -> None:
    token = api_token_issue(user=lena, actor=lena).token
    admin = Client()
    admin.force_login(User.objects.create_superuser("root", password="root-pw-123"))
    response = admin.post(
        f"/admin/auth/user/{lena.pk}/password/", {"password1": "Another-pw-77", "password2": "Another-pw-77"}
    )
    assert response.status_code == 302
    assert me(token).status_code == 401


def test_logout_revokes_the_token_used_and_logout_all_revokes_all(lena: User) -> None:
    first, second, third = (get_token("lena", "lena-right-pw").json()["token"] for _ in range(3))
    client = Client()
    assert client.post("/api/v1/auth/logout/", HTTP_AUTHORIZATION=f"Token {first}").status_code == 204
    assert me(first).status_code == 401
    assert me(second).status_code == 200
    assert client.post("/api/v1/auth/logout-all/", HTTP_AUTHORIZATION=f"Token {second}").status_code == 204
    assert (me(second).status_code, me(third).status_code) == (401, 401)
    assert AuditEvent.objects.filter(action="api_token_revoke").count() == 1
    assert AuditEvent.objects.get(action="api_tokens_revoke_all").before == {"tokens": 2}


def test_a_token_that_is_not_utf8_is_a_401_not_a_500(lena: User) -> None:
    response = Client().get("/api/v1/me/", HTTP_AUTHORIZATION="Token caf\xe9")
    assert response.status_code == 401
    assert me("0" * 64).status_code == 401


def _issued_in_admin(client: Client, user: User) -> tuple[Any, str]:
    response = client.post("/admin/accounts/apitoken/add/", {"user": user.pk, "hours": 8}, follow=True)
    found = re.search(r"Token for \S+: ([0-9a-f]{64})", response.content.decode())
    return response, found.group(1) if found else ""


def test_floor_issues_a_token_for_a_dealer_in_the_admin_shown_once(lena: User, dan: User) -> None:
    client = Client()
    client.force_login(lena)
    response, token = _issued_in_admin(client, dan)
    assert token, response.content.decode()[:2000]
    assert me(token).json()["username"] == "dan"
    assert token not in client.get("/admin/accounts/apitoken/").content.decode()
    listed = client.get(f"/admin/accounts/apitoken/{ApiToken.objects.get().pk}/change/")
    assert token not in listed.content.decode()
    expiry = ApiToken.objects.get().expiry
    assert abs(expiry - (timezone.now() + dt.timedelta(hours=8))) < dt.timedelta(minutes=1)


def test_floor_cannot_issue_a_token_for_someone_with_more_rights(lena: User, compliance_user: User) -> None:
    client = Client()
    client.force_login(lena)
    root = User.objects.create_superuser("root", password="root-pw-123")
    for user in (root, compliance_user):
        _, token = _issued_in_admin(client, user)
        assert token == ""
    assert not ApiToken.objects.exists()


def test_floor_revokes_a_token_in_the_admin(lena: User, dan: User) -> None:
    issued = api_token_issue(user=dan, actor=lena)
    client = Client()
    client.force_login(lena)
    client.post(
        "/admin/accounts/apitoken/",
        {"action": "revoke_tokens", "_selected_action": [issued.api_token.pk]},
    )
    assert me(issued.token).status_code == 401
    assert AuditEvent.objects.filter(action="api_token_revoke", actor_id=lena.pk).exists()


def test_dealers_and_compliance_do_not_manage_tokens(dan: User, compliance_user: User) -> None:
    for user in (dan, compliance_user):
        client = Client()
        client.force_login(user)
        assert client.get("/admin/accounts/apitoken/add/").status_code in (302, 403)
