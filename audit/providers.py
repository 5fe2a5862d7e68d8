"""What audit asks of the apps above it (rounds, payouts, home-game timelines, the gaming day), by dotted paths in
settings.

audit sits below tables and floor and never imports them; each setting names a function those apps own. An
empty setting falls back to what audit can say alone (no summary, the calendar day in TIME_ZONE).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.module_loading import import_string


def _provider(name: str) -> Callable[..., Any] | None:
    path = getattr(settings, name, "")
    if not path:
        return None
    try:
        return import_string(path)  # type: ignore[no-any-return]
    except ImportError:
        return None


def has_provider(name: str) -> bool:
    """Does the setting `name` name a function that imports?"""
    return _provider(name) is not None


def round_summary(round_id: int) -> dict[str, Any] | None:
    provider = _provider("AUDIT_ROUND_SUMMARY")
    return provider(round_id) if provider is not None else None


def paytable_name(paytable_id: int) -> str | None:
    """A paytable's name and version ("Double Bonus 10/7 v1"), None when no app provides it or there is none."""
    provider = _provider("AUDIT_PAYTABLE_NAME")
    return provider(paytable_id) if provider is not None else None


def code_name(field: str, code: str) -> str | None:
    """The name people see for a stored code ("Dealer-entered cards" for card_source "manual"), None when no app
    names it: audit text shows it at read time and the stored code never changes."""
    provider = _provider("AUDIT_CODE_NAME")
    return provider(field, code) if provider is not None else None


def round_record(round_id: int) -> dict[str, Any] | None:
    """The round's DESIGN 9 record (what replay_round reads), None when no app provides it or there is no round."""
    provider = _provider("AUDIT_ROUND_RECORD")
    return provider(round_id) if provider is not None else None


def has_round_record() -> bool:
    return has_provider("AUDIT_ROUND_RECORD")


def home_game_timeline(game_id: int) -> dict[str, Any] | None:
    """A home game's timeline for the API: {"game_id", "table_id", "number", "events": [AuditEvent, ...] in the order
    they happened, "verdict": {"ok", "differences", "note"?}}; None when no app provides it or there is no game."""
    provider = _provider("AUDIT_HOME_GAME_TIMELINE")
    return provider(game_id) if provider is not None else None


def home_game_events(text: str) -> Any | None:
    """The filter (a Q over AuditEvent) choosing a home game's events, the game named by its id or as the screens
    name it ("Five Card Draw 1 game 2"); None when no app provides it or there is no such game."""
    provider = _provider("AUDIT_HOME_GAME_EVENTS")
    return provider(text) if provider is not None else None


def home_hand_timeline(hand_id: int) -> dict[str, Any] | None:
    """A home hand's timeline for the API: {"hand_id", "game_id", "table_id", "number", "events", "verdict"} as
    home_game_timeline; None when no app provides it or there is no hand."""
    provider = _provider("AUDIT_HOME_HAND_TIMELINE")
    return provider(hand_id) if provider is not None else None


def round_payouts(round_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    """{round id: {"paid_cents": total, "seats": {seat: cents}}} for the rounds that have outcomes."""
    ids = sorted({int(i) for i in round_ids})
    provider = _provider("AUDIT_ROUND_PAYOUTS")
    if provider is None or not ids:
        return {}
    return dict(provider(ids))


def gaming_day(moment: dt.datetime) -> dt.date:
    provider = _provider("AUDIT_GAMING_DAY")
    if provider is not None:
        return provider(moment)  # type: ignore[no-any-return]
    return timezone.localtime(moment).date()


def day_window(day: dt.date) -> tuple[dt.datetime, dt.datetime]:
    """[start, end) of a gaming day as aware datetimes."""
    provider = _provider("AUDIT_GAMING_DAY_WINDOW")
    if provider is not None:
        start, end = provider(day)
        return start, end
    start = timezone.make_aware(dt.datetime.combine(day, dt.time.min))
    return start, timezone.make_aware(dt.datetime.combine(day + dt.timedelta(days=1), dt.time.min))
