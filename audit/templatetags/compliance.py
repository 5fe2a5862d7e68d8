"""Template filters of the compliance screens: amounts in dollars, cards as symbols, an event's values in words."""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe

from audit import presentation
from casino.engine.money import money

register = template.Library()


@register.filter
def dollars(cents: Any) -> str:
    """Integer cents as "$1,234.50" ("" for none)."""
    return money(int(cents)) if isinstance(cents, int) and not isinstance(cents, bool) else ""


@register.filter
def event_summary(event: Any) -> str:
    return presentation.summary(event.after)


@register.filter
def event_amount(event: Any) -> str:
    cents = getattr(event, "amount_shown", None)
    if cents is None:
        cents = presentation.amount_cents(event.after)
    return money(cents) if cents is not None else ""


@register.filter
def timeline_url(event: Any) -> str:
    """The compliance timeline of the event's object (a home-game hand or game, AUDIT_OBJECT_TIMELINES), or ""."""
    name = getattr(settings, "AUDIT_OBJECT_TIMELINES", {}).get(getattr(event, "object_type", ""))
    object_id = str(getattr(event, "object_id", ""))
    if not name or not (object_id.isascii() and object_id.isdigit()):
        return ""
    try:
        return reverse(name, args=[int(object_id)])
    except NoReverseMatch:
        return ""


@register.filter
def cards(codes: Any) -> str:
    return presentation.show_value(list(codes or []), name="cards")


@register.filter
def field_label(name: str) -> str:
    return presentation.field_label(str(name))


@register.filter
def break_points(name: Any) -> str:
    """ "analyze_paytable_task" may break after each "_" (a <wbr>), never inside a word: a name column that broke
    anywhere read "compli/ance"; one that broke nowhere pushed the table past a tablet's width."""
    parts = str(name).split("_")
    return format_html_join(mark_safe("_<wbr>"), "{}", ((part,) for part in parts))
