"""Which pit a table stands in (the floor reports group tables by pit)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from audit.services import audit_record
from casino.errors import DomainError
from floor import actions
from floor.access import require_floor_writer
from tables.models import Table
from tables.services.locks import lock_table

PIT_MAX_LENGTH = 40


@transaction.atomic
def table_set_pit(*, table: Table, pit: str, actor: User) -> Table:
    """Put a table in a pit ("" takes it out of every pit)."""
    require_floor_writer(actor, "assign a table to a pit")
    pit = " ".join((pit or "").split())
    if len(pit) > PIT_MAX_LENGTH:
        raise DomainError(f"a pit name has at most {PIT_MAX_LENGTH} characters", code="bad_pit", field="pit")
    table = lock_table(table)
    before = table.pit
    table.pit = pit
    table.save(update_fields=["pit"])
    audit_record(
        action=actions.TABLE_SET_PIT, obj=table, table=table, before={"pit": before}, after={"pit": pit}, actor=actor
    )
    return table
