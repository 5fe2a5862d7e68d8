"""The staff roles (Django groups) and how to tell which one a user acts in."""

from __future__ import annotations

from typing import Any

FLOOR = "floor"
DEALER = "dealer"
COMPLIANCE = "compliance"
# The count team enters each table's drop (counted cash and markers); the floor app creates its group.
COUNT = "count"
ROLES = (FLOOR, DEALER, COMPLIANCE, COUNT)


def user_roles(user: Any) -> set[str]:
    if user is None or not getattr(user, "is_authenticated", False):
        return set()
    cached = getattr(user, "_casino_roles", None)
    if cached is None:
        cached = set(user.groups.filter(name__in=ROLES).values_list("name", flat=True))
        user._casino_roles = cached
    return set(cached)


def has_role(user: Any, *roles: str) -> bool:
    """Superusers administer everything; others need one of the named groups."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if getattr(user, "is_superuser", False):
        return True
    return bool(user_roles(user) & set(roles))


def role_label(user: Any) -> str:
    if user is None:
        return ""
    if getattr(user, "is_superuser", False):
        return "superuser"
    roles = user_roles(user)
    for role in ROLES:
        if role in roles:
            return role
    return "none"
