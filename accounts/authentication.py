"""DRF authentication by `Authorization: Token <token>`: knox's hashed token, expiry and password checks, the
user's roles read with the token."""

from __future__ import annotations

import binascii
from functools import cache
from hmac import compare_digest
from typing import Any

from django.contrib.auth.models import Group, User
from django.db import connection
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.crypto import hash_token
from knox.settings import CONSTANTS, knox_settings
from rest_framework import exceptions

from accounts.models import ApiToken, password_stamp
from audit.roles import ROLES
from casino.sql import column, converted, table

INVALID = "Invalid token."


@cache
def _token_query() -> tuple[str, list[str], list[str]]:
    """SQL reading the tokens of one key prefix with their user and one flag per role; its token and user columns.

    Written out once (every API request runs it): through the ORM, building the query, the join and a second query
    for the roles cost about 3 ms of CPU a request; this costs a fraction of that and reads the same rows.
    """
    token_fields = [f.attname for f in ApiToken._meta.concrete_fields]
    user_fields = [f.attname for f in User._meta.concrete_fields]
    memberships = User.groups.through
    role_flags = [
        f"EXISTS (SELECT 1 FROM {table(memberships)} m JOIN {table(Group)} g "  # noqa: S608 (names from metadata)
        f"ON g.{column(Group, 'pk')} = m.{column(memberships, 'group')} "
        f"WHERE m.{column(memberships, 'user')} = u.{column(User, 'pk')} AND g.{column(Group, 'name')} = %s)"
        for _ in ROLES
    ]
    columns = [f"t.{column(ApiToken, name)}" for name in token_fields]
    columns += [f"u.{column(User, name)}" for name in user_fields]
    sql = (
        f"SELECT {', '.join(columns + role_flags)} FROM {table(ApiToken)} t "  # noqa: S608 (names from metadata)
        f"JOIN {table(User)} u ON u.{column(User, 'pk')} = t.{column(ApiToken, 'user')} "
        f"WHERE t.{column(ApiToken, 'token_key')} = %s"
    )
    return sql, token_fields, user_fields


def _tokens(key: str) -> list[ApiToken]:
    """The tokens with this key prefix, each with its user loaded and the user's roles known (audit.roles)."""
    sql, token_fields, user_fields = _token_query()
    with connection.cursor() as cursor:
        cursor.execute(sql, [*ROLES, key])
        rows = cursor.fetchall()
    user_field = ApiToken._meta.get_field("user")
    tokens = []
    for row in rows:
        token_values = list(row[: len(token_fields)])
        user_values = list(row[len(token_fields) : len(token_fields) + len(user_fields)])
        flags = row[len(token_fields) + len(user_fields) :]
        token = ApiToken.from_db(connection.alias, token_fields, converted(ApiToken, token_fields, token_values))
        user = User.from_db(connection.alias, user_fields, converted(User, user_fields, user_values))
        user._casino_roles = {role for role, flag in zip(ROLES, flags, strict=True) if flag}  # type: ignore[attr-defined]
        user_field.set_cached_value(token, user)
        tokens.append(token)
    return tokens


class TokenAuthentication(KnoxTokenAuthentication):  # type: ignore[misc]  # knox ships no types
    """Knox's token check with four changes: a token that is not UTF-8 is a 401 (knox raised UnicodeDecodeError, a
    500), an expired token is refused without deleting anything on a read, a token issued before the user's password
    last changed is refused (revoked by the change), and the token, its user and the user's roles are one query."""

    def authenticate_credentials(self, token: bytes) -> tuple[Any, ApiToken]:
        try:
            text = token.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise exceptions.AuthenticationFailed(INVALID) from exc
        for auth_token in _tokens(text[: CONSTANTS.TOKEN_KEY_LENGTH]):
            if self._cleanup_token(auth_token):
                continue
            try:
                digest = hash_token(text)
            except (TypeError, binascii.Error) as exc:
                raise exceptions.AuthenticationFailed(INVALID) from exc
            if compare_digest(digest, auth_token.digest):
                if knox_settings.AUTO_REFRESH and auth_token.expiry:
                    self.renew_token(auth_token)
                return self.validate_user(auth_token)
        raise exceptions.AuthenticationFailed(INVALID)

    def _cleanup_token(self, auth_token: ApiToken) -> bool:
        # True skips the token as expired; nothing is written on a read (expired rows are harmless, refused here).
        return auth_token.expiry is not None and auth_token.expiry < timezone.now()

    def validate_user(self, auth_token: ApiToken) -> tuple[Any, ApiToken]:
        user, token = super().validate_user(auth_token)
        if not constant_time_compare(token.password_stamp, password_stamp(user.password)):
            raise exceptions.AuthenticationFailed("Token revoked: the password changed since it was issued.")
        return user, token
