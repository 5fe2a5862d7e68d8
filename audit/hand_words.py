"""A home hand's settlement event in words for the trail's one-line summary: the result's own lines ("Fives wild:
four nines beat three queens; Pot $6.00 to Ann: ..."), as the tablet said them, instead of its stored fields."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def settled_words(after: Mapping[str, Any]) -> str | None:
    """The settlement's result lines (its headline, each pot, the mucked, the dead and the legs scored), None for an
    event that records no such result. A wild rank is said only where the variant fixes one at the showdown (Freak
    of Nature's "Sixes wild: ..."): the stored record's empty `wild_rank` of every other variant is not shown."""
    result = after.get("result")
    lines = result.get("lines") if isinstance(result, Mapping) else None
    if not isinstance(lines, list) or not lines or not all(isinstance(line, str) and line for line in lines):
        return None
    return "; ".join(lines)
