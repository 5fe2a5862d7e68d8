"""The signed-in user of a request, typed: views and APIs act for a `User`, never for an anonymous visitor."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from rest_framework.request import Request


def request_user(request: HttpRequest | Request) -> User:
    """The request's user; a request without one is refused (403) rather than passed to a service as an actor.

    Every caller sits behind a role check, so this refusal is a second line: a view that lost its check fails closed.
    """
    user = request.user
    if not isinstance(user, User) or not user.is_authenticated:
        raise PermissionDenied("sign in first")
    return user
