"""Row locks the services take before a write; each raises the row's version, the change token's source."""

from __future__ import annotations

from django.db import connection

from casino.errors import NotFound
from casino.sql import column, get_with_related, table
from tables.models import Round, Table

# What every round service and answer reads with the round (the view shows the dealer and approver by name).
ROUND_RELATED = ("table", "table__paytable", "dealer", "approved_by")


class RoundNotFound(NotFound):
    """No round with that id."""


def version_bump(obj: Table | Round) -> None:
    """Raise the row's version; call it inside the writing transaction, on a row it has locked FOR UPDATE.

    Writers of one row are serialized by that lock, so a later commit always carries a higher version, unlike
    audit event ids, which are taken from a sequence before commit and can commit out of order.
    A write that then fails rolls the bump back with everything else.
    """
    # Written out: every write runs it, and the ORM's UPDATE costs several times the statement's own CPU.
    model = type(obj)
    version = column(model, "version")
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table(model)} SET {version} = {version} + 1 WHERE {column(model, 'pk')} = %s",  # noqa: S608
            [obj.pk],
        )
    obj.version += 1


# Taking a row's write lock means a write follows (a failed one rolls back), so the lock helpers raise the version.
def lock_table(table: Table) -> Table:
    locked = get_with_related(Table, table.pk, ("paytable",), lock=True)
    if locked is None:
        raise Table.DoesNotExist(f"table {table.pk} does not exist")
    version_bump(locked)
    return locked


def lock_round(rnd: Round) -> Round:
    found = get_with_related(Round, rnd.pk, ROUND_RELATED, lock=True)
    if found is None:
        raise RoundNotFound(f"round {rnd.pk} does not exist")
    version_bump(found)
    return found
