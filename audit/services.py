"""audit_record: the one way any service writes an audit event, inside that service's transaction."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils import timezone

from audit.context import current_actor
from audit.models import AuditEvent
from audit.roles import role_label


def _ref(value: Any) -> tuple[int | None, str]:
    if value is None:
        return None, ""
    return int(value.pk), str(value)[:100]


def audit_record(
    *,
    action: str,
    obj: models.Model | None = None,
    object_type: str = "",
    object_id: str | int = "",
    object_repr: str = "",
    table: Any = None,
    round: Any = None,
    seat_number: int | None = None,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    reason: str = "",
    approver: Any = None,
    actor: Any = None,
) -> AuditEvent:
    """Write one audit event; must run inside the caller's transaction so both commit or neither does."""
    context = current_actor()
    user = actor if actor is not None else context.user
    if obj is not None:
        object_type = object_type or obj._meta.label_lower
        object_id = object_id or str(obj.pk)
        object_repr = object_repr or str(obj)
    table_id, table_repr = _ref(table)
    round_id, round_repr = _ref(round)
    event = AuditEvent.objects.create(
        occurred_at=timezone.now(),
        actor=user if user is not None and getattr(user, "pk", None) else None,
        actor_username=(getattr(user, "username", "") if user is not None else "") or context.name,
        actor_role=role_label(user) if user is not None else "",
        actor_kind="user" if user is not None and getattr(user, "pk", None) else context.kind,
        action=action,
        object_type=object_type,
        object_id=str(object_id),
        object_repr=object_repr[:200],
        table_id=table_id,
        table_repr=table_repr,
        round_id=round_id,
        round_repr=round_repr,
        seat_number=seat_number,
        before=before,
        after=after,
        reason=reason,
        approver_username=getattr(approver, "username", "") if approver is not None else "",
        correlation_id=context.correlation_id,
        client_address=context.client_address,
    )
    return event

