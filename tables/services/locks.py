"""Row locks the services take before a write; each raises the row's version, the change token's source."""

from __future__ import annotations

from django.db import connection

from casino.errors import NotFound
from tables.models import Round, Table


class RoundNotFound(NotFound):
    """No round with that id."""


def version_bump(obj: Table | Round) -> None:
    """Raise the row's version; call it inside the writing transaction, on a row it has locked FOR UPDATE.

    Writers of one row are serialized by that lock, so a later commit always carries a higher version, unlike
    audit event ids, which are taken from a sequence before commit and can commit out of order.
    A write that then fails rolls the bump back with everything else.
    """
    # Written out: every write runs it, and the ORM's UPDATE costs several times the statement's own CPU.
    meta = type(obj)._meta
    qn = connection.ops.quote_name
    version = qn(meta.get_field("version").column)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {qn(meta.db_table)} SET {version} = {version} + 1 WHERE {qn(meta.pk.column)} = %s",  # noqa: S608 (names from model metadata)
            [obj.pk],
        )
    obj.version += 1


# Taking a row's write lock means a write follows (a failed one rolls back), so the lock helpers raise the version.
def lock_table(table: Table) -> Table:
    locked = Table.objects.select_for_update().get(pk=table.pk)
    version_bump(locked)
    return locked


def lock_round(rnd: Round) -> Round:
    found = (
        Round.objects.select_for_update(of=("self",))
        .select_related("table__paytable", "dealer", "approved_by")
        .filter(pk=rnd.pk)
        .first()
    )
    if found is None:
        raise RoundNotFound(f"round {rnd.pk} does not exist")
    version_bump(found)
    return found
