"""A moment as every API answer writes it: as DRF's DateTimeField does, so hand-built answers match serialized ones."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone


def api_time(value: datetime | None) -> str | None:
    """ISO 8601 in the casino's time zone (settings.TIME_ZONE), UTC written "Z": what DRF gives for the same value."""
    if value is None:
        return None
    text = timezone.localtime(value).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text
