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

INVALID = "Invalid token."


@cache
def _token_query() -> tuple[str, list[str], list[str]]:
    """SQL reading the tokens of one key prefix with their user and one flag per role; its token and user columns.

    Written out once (every API request runs it): through the ORM, building the query, the join and a second query
    for the roles cost about 3 ms of CPU a request; this costs a fraction of that and reads the same rows.
    """
    token_fields = [f.attname for f in ApiToken._meta.concrete_fields]
    user_fields = [f.attname for f in User._meta.concrete_fields]
    qn = connection.ops.quote_name
    memberships = User.groups.through._meta.db_table
    role_flags = [
        f"EXISTS (SELECT 1 FROM {qn(memberships)} m JOIN {qn(Group._meta.db_table)} g ON g.id = m.group_id "  # noqa: S608 (names from model metadata)
        f"WHERE m.user_id = u.id AND g.name = %s)"
        for _ in ROLES
    ]
    columns = [f"t.{qn(ApiToken._meta.get_field(name).column)}" for name in token_fields]
    columns += [f"u.{qn(User._meta.get_field(name).column)}" for name in user_fields]
    sql = (
        f"SELECT {', '.join(columns + role_flags)} FROM {qn(ApiToken._meta.db_table)} t "  # noqa: S608 (names from model metadata)
        f"JOIN {qn(User._meta.db_table)} u ON u.id = t.user_id WHERE t.token_key = %s"
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
        token = ApiToken.from_db(connection.alias, token_fields, _converted(ApiToken, token_fields, token_values))
        user = User.from_db(connection.alias, user_fields, _converted(User, user_fields, user_values))
        user._casino_roles = {role for role, flag in zip(ROLES, flags, strict=True) if flag}  # type: ignore[attr-defined]
        user_field.set_cached_value(token, user)
        tokens.append(token)
    return tokens


def _converted(model: Any, names: list[str], values: list[Any]) -> list[Any]:
    """Values as the ORM would give them (SQLite: booleans from integers, datetimes from text)."""
    out = []
    for (expression, converters), value in zip(_converters(model, tuple(names)), values, strict=True):
        for converter in converters:
            value = converter(value, expression, connection)
        out.append(value)
    return out


@cache
def _converters(model: Any, names: tuple[str, ...]) -> list[tuple[Any, list[Any]]]:
    expressions = [model._meta.get_field(name).get_col(model._meta.db_table) for name in names]
    return [
        (expression, connection.ops.get_db_converters(expression) + expression.get_db_converters(connection))
        for expression in expressions
    ]


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
