"""seed_demo's own tables, found by the stable key it marks them with (Table.demo_key), never by name: a demo table
the floor has renamed is found again, and a table of the floor's own is never taken for a demo table."""

from __future__ import annotations

from collections.abc import Callable

from tables.models import Table


def demo_table(key: str) -> Table | None:
    """The demo table seed_demo created under `key`, whatever it is called now (None: not created yet)."""
    return Table.objects.filter(demo_key=key).first()


def demo_tables(keys: list[str]) -> dict[str, Table]:
    """The demo tables of these keys that exist, by key."""
    return {table.demo_key: table for table in Table.objects.filter(demo_key__in=keys) if table.demo_key}


def demo_table_get_or_create(key: str, name: str, create: Callable[[str], Table]) -> Table:
    """The demo table of `key`; else `create(name)` makes it, under `name` or, when a table of the floor's own has
    that name, under "<name> (demo)" ("(demo 2)", ...), so the floor's table is left as it is."""
    table = demo_table(key)
    if table is not None:
        return table
    taken = set(Table.objects.filter(name__startswith=name).values_list("name", flat=True))
    candidates = [name, f"{name} (demo)", *(f"{name} (demo {n})" for n in range(2, len(taken) + 2))]
    return create(next(candidate for candidate in candidates if candidate not in taken))
