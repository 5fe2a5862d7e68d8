"""Cents shown in dollars ("$1,250.00") in the admin: one column builder, and a mixin that applies it to `*_cents`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from casino.engine.money import money

SUFFIX = "_in_dollars"


def dollars_of(obj: Any, field: str) -> str:
    value = getattr(obj, field)
    return "—" if value is None else money(int(value))


def dollars(field: str, description: str, *, sortable: bool = False) -> Callable[[Any, Any], str]:
    """An admin column (a method) showing the integer cents in `field` as dollars: `stack = dollars("stack_cents",
    "stack")`; `sortable` lets the list sort by that field."""

    @admin.display(description=description, ordering=field if sortable else None)
    def column(model_admin: Any, obj: Any) -> str:
        return dollars_of(obj, field)

    return column


def _shown(names: Sequence[Any]) -> list[Any]:
    return [f"{name}{SUFFIX}" if isinstance(name, str) and name.endswith("_cents") else name for name in names]


class DollarsAdminMixin:
    """For read-only admins: `amount_cents` in list_display, fields or readonly_fields is shown as `$12.50`."""

    def get_list_display(self, request: HttpRequest) -> Any:  # django-stubs: field groups
        return _shown(super().get_list_display(request))  # type: ignore[misc]

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:  # django-stubs: field groups
        return _shown(super().get_fields(request, obj))  # type: ignore[misc]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:  # django-stubs: field groups
        return _shown(super().get_readonly_fields(request, obj))  # type: ignore[misc]

    def __getattr__(self, name: str) -> Callable[[Any], str]:
        if not name.endswith(SUFFIX):
            raise AttributeError(name)
        field = name.removesuffix(SUFFIX)

        @admin.display(description=field.removesuffix("_cents").replace("_", " "), ordering=field)
        def show(obj: Any) -> str:
            return dollars_of(obj, field)

        return show
