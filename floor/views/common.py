"""What the floor's pages share: sign-in and role checks (a plain 403 page), and messages after a write."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.shortcuts import render

from audit.roles import COMPLIANCE, COUNT, FLOOR, has_role
from casino.errors import NotAllowed

View = Callable[..., HttpResponseBase]


def floor_page(check: Callable[[Any], None]) -> Callable[[View], View]:
    """Signed in, and allowed by `check` (one of floor.access's require_* functions); a 403 page otherwise."""

    def decorate(view: View) -> View:
        @login_required
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            try:
                check(request.user)
            except NotAllowed as exc:
                return render(request, "floor/forbidden.html", {"message": exc.message}, status=403)
            return view(request, *args, **kwargs)

        return wrapper

    return decorate


def nav_context(user: Any) -> dict[str, bool]:
    """Which floor pages the user may open (for the navigation)."""
    return {
        "nav_floor": has_role(user, FLOOR),
        "nav_reports": has_role(user, FLOOR, COMPLIANCE),
        "nav_books": has_role(user, FLOOR, COMPLIANCE, COUNT),
        "is_floor": has_role(user, FLOOR),
        "is_count": has_role(user, COUNT) and not has_role(user, FLOOR),
    }


@dataclass(frozen=True)
class FormError:
    """An error to show beside the form that caused it (`form` from form_key) or, for "shift", atop the page."""

    form: str
    message: str


def form_key(action: str, table_id: object, kind: object = "") -> str:
    """The key of one form on a page: its action, its table and the kind or item it records."""
    return f"{action}-{table_id}-{kind}"
