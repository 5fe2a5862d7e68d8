"""Error text that quotes at most a short prefix of a bad value (a 1 MB card string must not come back as 2 MB)."""

from __future__ import annotations

import re

TOKEN_MAX = 40  # a longer run of non-space characters is a value someone sent, not our wording
MESSAGE_MAX = 500
FIELD_MAX = 100
_LONG_TOKEN = re.compile(rf"\S{{{TOKEN_MAX + 1},}}")


def _prefix(match: re.Match[str]) -> str:
    return match.group()[: TOKEN_MAX - 8] + "…"


def shorten(text: str, limit: int = MESSAGE_MAX) -> str:
    """Cut each over-long token to a prefix with an ellipsis, then the whole text to `limit` characters."""
    short = _LONG_TOKEN.sub(_prefix, text)
    return short if len(short) <= limit else short[: limit - 1] + "…"


def shorten_field(field: str) -> str:
    return shorten(field, FIELD_MAX)
