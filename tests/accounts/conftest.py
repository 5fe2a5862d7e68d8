"""Fixtures for sign-in tests: a quick password hasher (each attempt hashes) and users made with it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.auth.models import Group, User
from django.test import override_settings

from tests.conftest import _persona

FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def fast_hashing() -> Iterator[None]:
    with override_settings(PASSWORD_HASHERS=FAST_HASHERS):
        yield


@pytest.fixture
def lena(db: None, fast_hashing: None) -> User:
    """Lena is a floor supervisor whose password is 'lena-right-pw'."""
    user = _persona("lena", "floor", is_staff=True)
    user.set_password("lena-right-pw")
    user.save()
    return user


@pytest.fixture
def dan(db: None, fast_hashing: None) -> User:
    """Dan is a dealer whose password is 'dan-right-pw'."""
    user = _persona("dan", "dealer")
    user.set_password("dan-right-pw")
    user.save()
    assert Group.objects.filter(name="dealer").exists()
    return user
