"""Times as admin lists show them in one narrow column: "Dec 02 21:40–23:05" (or "–now"), "2026-12-02 21:40:07"."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone


def span(start: datetime, end: datetime | None) -> str:
    """ "Dec 02 21:40–23:05", "Dec 02 23:40–Dec 03 00:30" past midnight, "Dec 02 21:40–now" while not ended."""
    began = timezone.localtime(start)
    if end is None:
        return f"{began:%b %d %H:%M}–now"
    ended = timezone.localtime(end)
    shape = "%H:%M" if ended.date() == began.date() else "%b %d %H:%M"  # past midnight: the day it ended too
    return f"{began:%b %d %H:%M}–{ended.strftime(shape)}"


def to_the_second(moment: datetime) -> str:
    """ "2026-12-02 21:40:07" in the local zone: two short lines when the column wraps, not the admin's four."""
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M:%S")
