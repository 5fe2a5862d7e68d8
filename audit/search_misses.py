"""What a compliance search named that the trail never saw ("No round 99 at table Triple Draw 1", "No table named
Triple Draw 9"), said instead of "No events match", which stays for a search whose every name is real."""

from __future__ import annotations

from typing import Any

from audit import providers
from audit.choices import tables_named
from audit.models import AuditEvent

MAX_ID = 2**63 - 1
# How the screens name a round and a game; the hint a name that reads as neither gets.
EXAMPLES = {"round": "Triple Draw 1 round 9", "game": "Five Card Draw 1 game 2"}


def _as_id(text: str) -> int | None:
    return int(text) if text.isascii() and text.isdigit() and int(text) <= MAX_ID else None


def split_name(text: str, word: str) -> tuple[str, str]:
    """"Triple Draw 1 round 9" -> ("Triple Draw 1", "9"); ("", "") when `word` is not in it. The last `word` counts:
    a table's own name may hold it."""
    text = " ".join(text.split())
    at = text.lower().rfind(f" {word} ")
    return (text[:at], text[at + len(word) + 2:]) if at > 0 else ("", "")


def _table_named(name: str) -> str | None:
    """The table's present name as the trail spells it, for its present or an earlier name in any case; None if no
    table is or was called that."""
    found = tables_named(name)
    return found[0][1][0] if found else None


def round_ids_named(text: str) -> list[int]:
    """The rounds a name ("Triple Draw 1 round 9", any case) names: as typed, and under each name its table has or
    had (a round keeps the name its table had when it was played, so the present name finds an older round and an
    earlier name a newer one); two when an old name now belongs to another table."""
    table, number = split_name(text, "round")
    spellings = {" ".join(text.split())}
    if table and number.isascii() and number.isdigit():
        for _, names in tables_named(table):
            spellings.update(f"{name} round {int(number)}" for name in names)
    named = AuditEvent.objects.filter(round_repr__in=spellings, round_id__isnull=False)
    ids = named.order_by().values_list("round_id", flat=True).distinct()
    return sorted(round_id for round_id in ids if round_id is not None)


def _named_miss(text: str, word: str) -> str:
    """Which part of a name names nothing: the table, or the round or game at that table."""
    table, number = split_name(text, word)
    if not (table and number.isascii() and number.isdigit()):
        return f"No {word} named “{text}”: give its id or its name as the screens show it (“{EXAMPLES[word]}”)"
    known = _table_named(table)
    return f"No table named {table}" if known is None else f"No {word} {int(number)} at table {known}"


def _table_miss(text: str) -> str | None:
    table_id = _as_id(text)
    if table_id is not None and AuditEvent.objects.filter(table_id=table_id).exists():
        return None
    return f"No table with id {text}"


def _round_miss(text: str) -> str | None:
    round_id = _as_id(text)
    if round_id is not None:
        return None if AuditEvent.objects.filter(round_id=round_id).exists() else f"No round with id {text}"
    if text.isascii() and text.isdigit():
        return f"No round with id {text}"
    return None if round_ids_named(text) else _named_miss(text, "round")


def _game_miss(text: str) -> str | None:
    if providers.home_game_events(text) is not None:
        return None
    if text.isascii() and text.isdigit():
        return f"No home game with id {text}"
    return _named_miss(text, "game")


CHECKS = (("table", _table_miss), ("round", _round_miss), ("game", _game_miss))


def search_misses(params: Any) -> list[str]:
    """For each table, round or game the search (a QueryDict of the event filters) names that does not exist, which
    part named nothing; [] when everything it names exists (then no events match the search as a whole)."""
    misses = []
    for name, check in CHECKS:
        text = " ".join(str(params.get(name, "") or "").split())
        miss = check(text) if text else None
        if miss is not None:
            misses.append(miss)
    return misses
