"""Template helpers for the floor's pages: money, holds as percentages, chips, and errors beside their form."""

from __future__ import annotations

from typing import Any

from django import template

from floor.forms import chip_label
from floor.views.common import FormError, form_key
from tables.templatetags.tablet import dollars, money

register = template.Library()
register.filter("money", money)
register.filter("dollars", dollars)


@register.filter
def percent(value: float | None, places: int = 2) -> str:
    """0.03456 -> "3.46 %" (a no-break space: a narrow column never puts the % on a line of its own); None -> "—"."""
    if value is None:
        return "—"
    return f"{value * 100:.{int(places)}f}\u00a0%"


@register.filter
def chip(denomination: int | str) -> str:
    return chip_label(int(denomination))


@register.filter
def count_of(chips: dict[str, int] | None, denomination: int) -> int:
    """How many chips of a denomination a count or slip holds."""
    return int((chips or {}).get(str(denomination), 0))


@register.simple_tag
def form_error(error: FormError | None, action: str, table_id: Any = "", kind: Any = "") -> str:
    """The error of this form, if the last post was this form's and failed."""
    if error is None:
        return ""
    key = action if action in ("close", "shift") else form_key(action, table_id, kind)
    if action == "void":
        key = f"void-{table_id}"
    return error.message if error.form == key else ""


@register.simple_tag
def posted_value(posted: Any, error: FormError | None, action: str, table_id: Any, kind: Any, name: str) -> str:
    """What was typed in a field of the form that failed (so it can be corrected), else ""."""
    if error is None or error.form != form_key(action, table_id, kind):
        return ""
    return str(posted.get(name, ""))
