"""Every URL route of the project, and a route filled with real ids: for tests that sweep every screen."""

from __future__ import annotations

import re
from collections.abc import Iterator

from django.urls import URLPattern, URLResolver, get_resolver

PARAMETER = re.compile(r"<(?:(\w+):)?(\w+)>")


def all_routes(patterns: list[URLPattern | URLResolver] | None = None, prefix: str = "") -> Iterator[str]:
    """Each route's pattern text, resolvers followed (e.g. "tablet/tables/<int:table_id>/")."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            yield from all_routes(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern)


def fill(route: str, ids: dict[str, int | str]) -> str:
    """The route as a path, each parameter taken from `ids` by name (1 when absent; a slug is "deal")."""

    def value(match: re.Match[str]) -> str:
        converter, name = match.group(1), match.group(2)
        if name in ids:
            return str(ids[name])
        return "deal" if converter == "slug" else "1"

    return "/" + PARAMETER.sub(value, route)
