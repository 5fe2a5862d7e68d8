"""Who may act on a table: floor anywhere, dealers on their assigned tables, compliance reads only."""

from __future__ import annotations

from typing import Any

from django.db import connection

from audit.roles import COMPLIANCE, DEALER, FLOOR, has_role
from casino import sql
from casino.errors import NotAllowed
from tables.models import Table


def can_read(actor: Any) -> bool:
    return has_role(actor, FLOOR, DEALER, COMPLIANCE)


def require_reader(actor: Any) -> None:
    if not can_read(actor):
        raise NotAllowed("you have no casino role", code="permission_denied")


def require_table_reader(actor: Any, table: Table) -> None:
    """Floor and compliance read every table; a dealer reads only the tables assigned to them (as on the tablet)."""
    if has_role(actor, FLOOR, COMPLIANCE):
        return
    if has_role(actor, DEALER):
        if is_assigned(actor, table):
            return
        raise NotAllowed(f"you are not assigned to table {table.name}", code="not_assigned")
    raise NotAllowed("you have no casino role", code="permission_denied")


def require_floor(actor: Any, what: str) -> None:
    """Floor supervisors (and superusers) only."""
    if has_role(actor, FLOOR):
        return
    if has_role(actor, COMPLIANCE):
        raise NotAllowed("compliance is read-only", code="read_only")
    raise NotAllowed(f"only a floor supervisor may {what}", code="floor_only")


def is_assigned(actor: Any, table: Table) -> bool:
    # One index lookup written out: every dealer request asks it, and the ORM's query building cost ~1 ms of CPU.
    assignments = Table.dealers.through
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT 1 FROM {sql.table(assignments)} WHERE {sql.column(assignments, 'table')} = %s "  # noqa: S608
            f"AND {sql.column(assignments, 'user')} = %s",
            [table.pk, actor.pk],
        )
        return cursor.fetchone() is not None


def require_operator(actor: Any, table: Table) -> None:
    """Floor on any table; a dealer only on a table assigned to them."""
    if has_role(actor, FLOOR):
        return
    if has_role(actor, DEALER):
        if is_assigned(actor, table):
            return
        raise NotAllowed(f"you are not assigned to table {table.name}", code="not_assigned")
    if has_role(actor, COMPLIANCE):
        raise NotAllowed("compliance is read-only", code="read_only")
    raise NotAllowed("you have no casino role", code="permission_denied")
