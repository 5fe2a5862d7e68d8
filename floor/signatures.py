"""A dealer's signature on a fill or credit: their own username and password, typed on the floor's form."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate
from django.contrib.auth.models import User

from casino.errors import DomainError


def dealer_signature(request: Any, username: str, password: str) -> User | None:
    """The dealer who signs by entering their password (None when no signature was given at all)."""
    username = (username or "").strip()
    if not username and not password:
        return None
    user = (
        authenticate(getattr(request, "_request", request), username=username, password=password)
        if (username and password)
        else None
    )
    if user is None:
        raise DomainError(
            "the dealer's signature did not verify: their username and password", code="bad_signature", field="dealer"
        )
    return user
