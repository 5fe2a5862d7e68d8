"""The lists the compliance filters offer: every table and actor the trail names, read with loose index scans."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.db import connection

from audit.models import AuditEvent

CACHE_SECONDS = 60
MAX_CHOICES = 2000


def _distinct(column: str) -> list[Any]:
    """Distinct non-null values of an indexed column, one index probe per value (not a scan of every event).

    A recursive query asks the index for the smallest value above the last one: with a handful of tables and
    staff it costs a handful of probes whatever the number of events.
    """
    table = AuditEvent._meta.db_table
    blank = f" AND {column} <> ''" if column == "actor_username" else ""
    sql = (
        f"WITH RECURSIVE d(v) AS ("  # noqa: S608 (our own table and column names)
        f" SELECT MIN({column}) FROM {table} WHERE {column} IS NOT NULL{blank}"
        f" UNION ALL SELECT (SELECT MIN({column}) FROM {table} WHERE {column} > d.v) FROM d WHERE d.v IS NOT NULL"
        f") SELECT v FROM d WHERE v IS NOT NULL LIMIT {MAX_CHOICES}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return [row[0] for row in cursor.fetchall()]


def table_choices() -> list[tuple[str, str]]:
    """(table id, the table's latest name in the trail) for every table an event names, by name."""
    cached = cache.get("audit:choices:tables")
    if cached is not None:
        return list(cached)
    choices = []
    for table_id in _distinct("table_id"):
        name = (
            AuditEvent.objects.filter(table_id=table_id)
            .exclude(table_repr="")
            .order_by("-occurred_at", "-id")
            .values_list("table_repr", flat=True)
            .first()
        )
        choices.append((str(table_id), name or f"Table {table_id}"))
    choices.sort(key=lambda pair: pair[1].lower())
    cache.set("audit:choices:tables", choices, CACHE_SECONDS)
    return choices


# A table's rename is audited under this action (tables.actions.TABLE_UPDATE; audit never imports tables), its
# `before` holding the name the table had until then.
RENAME_ACTION = "table_update"


def table_earlier_names() -> dict[str, list[str]]:
    """table id -> every name the table had before its present one, oldest first, from its audited renames (read
    by the action's index, not a scan of every event)."""
    cached = cache.get("audit:choices:earlier-names")
    if cached is not None:
        return dict(cached)
    earlier: dict[str, list[str]] = {}
    renames = (AuditEvent.objects.filter(action=RENAME_ACTION, table_id__isnull=False).order_by("occurred_at", "id")
               .values_list("table_id", "before__name", "after__name"))
    for table_id, before, after in renames:
        names = earlier.setdefault(str(table_id), [])
        if isinstance(before, str) and before and before != after and before not in names:
            names.append(before)
    earlier = {table_id: names for table_id, names in earlier.items() if names}
    cache.set("audit:choices:earlier-names", earlier, CACHE_SECONDS)
    return earlier


def tables_named(name: str) -> list[tuple[str, list[str]]]:
    """(table id, its names: the present one first, then the earlier ones) for each table called `name` (any case)
    now or before a rename: compliance reads an old name on a slip or a report."""
    wanted = " ".join(name.split()).lower()
    earlier = table_earlier_names()
    found = []
    for table_id, present in table_choices():
        names = [present, *(old for old in earlier.get(table_id, []) if old != present)]
        if any(known.lower() == wanted for known in names):
            found.append((table_id, names))
    return found


def actor_choices() -> list[tuple[str, str]]:
    """(username, username) for every person, worker or device the trail names, alphabetically."""
    cached = cache.get("audit:choices:actors")
    if cached is not None:
        return list(cached)
    choices = [(str(name), str(name)) for name in _distinct("actor_username")]
    cache.set("audit:choices:actors", choices, CACHE_SECONDS)
    return choices


def table_name(table_id: int | None) -> str:
    return dict(table_choices()).get(str(table_id), "") if table_id is not None else ""
