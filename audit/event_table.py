"""The table an event concerns, also for a paytable put on or taken off a table before those events named it."""

from __future__ import annotations

from dataclasses import dataclass

from audit import exception_rules as rules
from audit.models import AuditEvent

# The table's own event written in the same request right after the paytable's (tables.services.tables): its
# creation with a paytable, or its paytable changed. Codes, as audit never imports tables.
COMPANION_ACTIONS = ("table_create", "table_set_paytable")


@dataclass(frozen=True)
class EventTable:
    table_id: int | None
    name: str
    from_companion: bool = False  # read from the table's own event, not recorded on this one


def event_table(event: AuditEvent) -> EventTable:
    """The event's table as recorded; for an older paytable use event that recorded none, the table named by its
    companion event (same request, naming this paytable before or after); else none. Read-time only: stored events
    are never rewritten."""
    if event.table_id is not None:
        return EventTable(event.table_id, event.table_repr)
    uses = rules.PAYTABLE_IN_USE_ACTIONS | rules.PAYTABLE_OUT_OF_USE_ACTIONS
    if event.action not in uses or not event.correlation_id:
        return EventTable(None, "")
    companions = AuditEvent.objects.filter(
        correlation_id=event.correlation_id, action__in=COMPANION_ACTIONS, table_id__isnull=False, id__gt=event.id
    ).order_by("id")
    for companion in companions[:5]:
        named = [side.get("paytable_id") for side in (companion.before, companion.after) if isinstance(side, dict)]
        if event.object_id in {str(paytable) for paytable in named}:
            return EventTable(companion.table_id, companion.table_repr, from_companion=True)
    return EventTable(None, "")
