"""Sign-ins are throttled per username and per client address on every login form and the API token endpoint."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings

from audit.models import AuditEvent

pytestmark = pytest.mark.django_db

LOGINS = ["/tablet/login/", "/accounts/login/", "/admin/login/", "/api/v1/auth/token/"]


def attempt(path: str, username: str, password: str, address: str = "10.0.0.1") -> Any:
    client = Client(REMOTE_ADDR=address)
    if path.startswith("/api/"):
        return client.post(path, {"username": username, "password": password}, content_type="application/json")
    return client.post(path, {"username": username, "password": password})


def signed_in(path: str, response: Any) -> bool:
    return response.status_code == (200 if path.startswith("/api/") else 302)


@pytest.mark.parametrize("path", LOGINS)
def test_five_wrong_passwords_lock_the_username_even_for_the_right_one(path: str, lena: User) -> None:
    for _ in range(5):
        assert not signed_in(path, attempt(path, "lena", "wrong"))
    refused = attempt(path, "lena", "lena-right-pw")
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    if path.startswith("/api/"):
        assert refused.json()["error"]["code"] == "too_many_attempts"
    else:
        assert "Too many failed sign-ins" in refused.content.decode()
    # From another address the username is still locked: the lock is on the account too.
    assert attempt(path, "lena", "lena-right-pw", address="10.9.9.9").status_code == 429


@pytest.mark.parametrize("path", LOGINS)
def test_one_address_guessing_many_usernames_is_locked(path: str, lena: User) -> None:
    for n in range(5):
        attempt(path, f"guess-{n}", "wrong", address="10.6.6.6")
    assert attempt(path, "lena", "lena-right-pw", address="10.6.6.6").status_code == 429
    assert signed_in(path, attempt(path, "lena", "lena-right-pw", address="10.7.7.7"))


def test_a_success_clears_the_failures_counted_so_far(lena: User) -> None:
    for _ in range(4):
        attempt("/accounts/login/", "lena", "wrong")
    assert signed_in("/accounts/login/", attempt("/accounts/login/", "lena", "lena-right-pw"))
    for _ in range(4):
        attempt("/accounts/login/", "lena", "wrong")
    assert signed_in("/accounts/login/", attempt("/accounts/login/", "lena", "lena-right-pw"))


def test_failures_write_one_audit_event_per_lockout_not_one_row_each(lena: User) -> None:
    before = AuditEvent.objects.count()
    for _ in range(4):
        attempt("/accounts/login/", "lena", "wrong")
    assert AuditEvent.objects.count() == before, "a failure below the limit is counted by axes, not the trail"
    for _ in range(20):  # the fifth locks; the rest are refused during the lockout
        attempt("/accounts/login/", "lena", "wrong")
    (event,) = AuditEvent.objects.filter(action="user_locked_out")
    assert event.after["username"] == "lena"
    assert event.after["failures"] == 5
    assert event.after["client_address"] == "10.0.0.1"
    assert event.actor_id is None
    assert "wrong" not in str(event.after)
    assert AuditEvent.objects.count() == before + 1
    assert not AuditEvent.objects.filter(action="user_login_failed").exists()


def test_a_long_username_is_truncated_in_the_trail(lena: User) -> None:
    long_name = "x" * 150
    for _ in range(5):
        attempt("/api/v1/auth/token/", long_name, "wrong")
    (event,) = AuditEvent.objects.filter(action="user_locked_out")
    assert len(event.object_repr) == 64
    assert (len(event.after["username"]), event.after["username_truncated"]) == (64, True)


def test_a_username_longer_than_any_account_is_refused_before_counting(lena: User) -> None:
    response = attempt("/api/v1/auth/token/", "y" * 100_000, "wrong")
    assert response.status_code == 400
    assert len(response.content) < 1000


@override_settings(AXES_FAILURE_LIMIT=2)
def test_the_limit_comes_from_the_settings(lena: User) -> None:
    attempt("/accounts/login/", "lena", "wrong")
    attempt("/accounts/login/", "lena", "wrong")
    assert attempt("/accounts/login/", "lena", "lena-right-pw").status_code == 429
