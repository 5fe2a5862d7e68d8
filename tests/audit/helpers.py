"""Reusable assertions about audit events, for every app's tests (see the `assert_audited` fixture)."""

from __future__ import annotations

from typing import Any

from django.db import models

from audit.models import AuditEvent


def _matches(event: AuditEvent, name: str, expected: Any) -> bool:
    if name in {"obj"}:
        return event.object_type == expected._meta.label_lower and event.object_id == str(expected.pk)
    if name in {"table", "round"}:
        value = expected.pk if isinstance(expected, models.Model) else expected
        return getattr(event, f"{name}_id") == value
    if name in {"actor", "approver"}:
        return getattr(event, f"{name}_id") == (expected.pk if expected is not None else None)
    if name in {"before", "after"} and isinstance(expected, dict):
        stored = getattr(event, name) or {}
        return all(stored.get(k) == v for k, v in expected.items())
    return getattr(event, name) == expected


def describe(event: AuditEvent) -> str:
    return (
        f"#{event.id} {event.action} {event.object_type}:{event.object_id} actor={event.actor_username!r} "
        f"table={event.table_id} round={event.round_id} seat={event.seat_number} before={event.before} "
        f"after={event.after} reason={event.reason!r}"
    )


def assert_audited(action: str, *, since_id: int = 0, count: int | None = None, **fields: Any) -> AuditEvent:
    """Assert an event with `action` (and every given field) was written after `since_id`; return the newest.

    Fields: any AuditEvent field, plus obj=<instance>, table=/round= (instance or id), actor=/approver=<user>,
    and before=/after= dicts that must be contained in the stored JSON. `count` asserts how many matched.
    """
    candidates = list(AuditEvent.objects.filter(id__gt=since_id, action=action).order_by("id"))
    matching = [e for e in candidates if all(_matches(e, k, v) for k, v in fields.items())]
    if not matching:
        recent = AuditEvent.objects.filter(id__gt=since_id).order_by("id")
        listing = "\n  ".join(describe(e) for e in recent) or "(no events at all)"
        raise AssertionError(f"no audit event {action!r} with {fields}; events written:\n  {listing}")
    if count is not None and len(matching) != count:
        raise AssertionError(f"expected {count} audit events {action!r} with {fields}, found {len(matching)}")
    return matching[-1]


def last_event_id() -> int:
    return AuditEvent.objects.order_by("-id").values_list("id", flat=True).first() or 0
