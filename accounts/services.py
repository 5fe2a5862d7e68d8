"""Every write of accounts: issue and revoke API tokens, record a sign-in lockout; each with its audit event."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from knox.settings import knox_settings

from accounts import actions
from accounts.models import ApiToken, password_stamp
from audit.roles import DEALER, FLOOR, user_roles
from audit.services import audit_record
from casino.errors import NotAllowed

# What the trail keeps of an attempted username: enough to recognise it, never 150 characters per row.
AUDIT_USERNAME_MAX = 64


@dataclass(frozen=True)
class IssuedToken:
    """The token itself exists only here, once: the database keeps its digest."""

    token: str
    expiry: dt.datetime | None
    api_token: ApiToken


def may_issue_token_for(actor: Any, user: User) -> bool:
    """Superusers issue tokens for anyone; floor staff for themselves and for dealers (tablet or script logins),
    never for someone with more rights than a dealer, which would let them act as that person."""
    if getattr(actor, "is_superuser", False):
        return True
    if FLOOR not in user_roles(actor):
        return False
    return user.pk == actor.pk or (not user.is_superuser and user_roles(user) <= {DEALER})


def _token_ref(api_token: ApiToken) -> dict[str, Any]:
    # The digest's prefix names the token in the trail without revealing any part of the token itself.
    return {"object_type": "accounts.apitoken", "object_id": api_token.digest[:16]}


@transaction.atomic
def api_token_issue(*, user: User, actor: Any, ttl: dt.timedelta | None = None) -> IssuedToken:
    """A new token for `user`, valid for `ttl` (REST_KNOX TOKEN_TTL by default), shown once to the caller."""
    if actor is not None and actor != user and not may_issue_token_for(actor, user):
        raise NotAllowed(f"You may not issue API tokens for {user.get_username()}.", code="permission_denied")
    api_token, token = ApiToken.objects.create(
        user=user,
        expiry=ttl if ttl is not None else knox_settings.TOKEN_TTL,
        password_stamp=password_stamp(user.password),
    )
    expiry = api_token.expiry.isoformat() if api_token.expiry else None
    audit_record(
        action=actions.API_TOKEN_ISSUE,
        object_repr=f"API token of {user.get_username()}",
        after={"user": user.get_username(), "expiry": expiry},
        actor=actor,
        **_token_ref(api_token),
    )
    return IssuedToken(token=token, expiry=api_token.expiry, api_token=api_token)


@transaction.atomic
def api_token_revoke(*, api_token: ApiToken, actor: Any, reason: str = "") -> None:
    user = api_token.user
    if actor is not None and actor != user and not may_issue_token_for(actor, user):
        raise NotAllowed(f"You may not revoke API tokens of {user.get_username()}.", code="permission_denied")
    ref = _token_ref(api_token)
    api_token.delete()
    audit_record(
        action=actions.API_TOKEN_REVOKE,
        object_repr=f"API token of {user.get_username()}",
        before={"user": user.get_username()},
        reason=reason,
        actor=actor,
        **ref,
    )


@transaction.atomic
def api_tokens_revoke_all(*, user: User, actor: Any, reason: str = "") -> int:
    count, _ = ApiToken.objects.filter(user=user).delete()
    if count:
        audit_record(
            action=actions.API_TOKENS_REVOKE_ALL,
            obj=user,
            before={"tokens": count},
            after={"tokens": 0},
            reason=reason,
            actor=actor,
        )
    return int(count)


@transaction.atomic
def login_lockout_record(*, username: str, client_address: str | None, failures: int, cooloff_minutes: int) -> None:
    """One audit event per lockout, however many failures led to it (those are counted by django-axes)."""
    short = username[:AUDIT_USERNAME_MAX]
    audit_record(
        action=actions.USER_LOCKED_OUT,
        object_type="auth.user",
        object_repr=short,
        after={
            "username": short,
            "username_truncated": len(username) > AUDIT_USERNAME_MAX,
            "client_address": client_address,
            "failures": failures,
            "cooloff_minutes": cooloff_minutes,
        },
        actor_kind="user",
    )
