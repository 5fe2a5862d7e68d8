"""AuditedModelAdmin: admin add/change/delete recorded as audit events with before/after values.

Use it for ModelAdmins whose save goes straight to the model (no service): the admin write and its event
commit together (Django's admin wraps each change view in a transaction). Admins that delegate to services
do not need it: the service already records the event.
"""

from __future__ import annotations

import datetime as dt
import decimal
import hashlib
import uuid
from typing import Any

from django.contrib import admin
from django.db import models, transaction
from django.http import HttpRequest

from audit import actions
from audit.services import audit_record
from casino.users import request_user


def _jsonable(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal | uuid.UUID):
        return str(value)
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return str(value)


# Secrets are never copied into the trail; a short digest still shows that they changed.
SECRET_FIELDS = frozenset({"password", "key", "token", "secret"})


def _redacted(value: Any) -> str:
    if not value:
        return ""
    return "redacted:" + hashlib.sha256(str(value).encode()).hexdigest()[:12]


def snapshot(obj: models.Model) -> dict[str, Any]:
    """Every concrete field (foreign keys as ids, secrets redacted) and many-to-many ids, as JSON values."""
    data: dict[str, Any] = {}
    for field in obj._meta.concrete_fields:
        value = getattr(obj, field.attname)
        data[field.attname] = _redacted(value) if field.name in SECRET_FIELDS else _jsonable(value)
    if obj.pk is not None:
        for field in obj._meta.many_to_many:
            data[field.name] = sorted(getattr(obj, field.name).values_list("pk", flat=True))
    return data


def changed_only(before: dict[str, Any], after: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    keys = [k for k in after if before.get(k) != after.get(k)]
    return {k: before.get(k) for k in keys}, {k: after[k] for k in keys}


class AuditedModelAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Records `admin_add`, `admin_change` (changed fields only) and `admin_delete` for every admin write."""

    def _before(self, obj: models.Model) -> dict[str, Any]:
        if obj.pk is None:
            return {}
        stored = type(obj)._default_manager.filter(pk=obj.pk).first()
        return snapshot(stored) if stored is not None else {}

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        obj._audit_before = self._before(obj) if change else {}
        with transaction.atomic():
            super().save_model(request, obj, form, change)
            if not change:
                audit_record(action=actions.ADMIN_ADD, obj=obj, after=snapshot(obj), actor=request_user(request))

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        # Many-to-many values are saved here, after save_model, so the change event is written last.
        with transaction.atomic():
            super().save_related(request, form, formsets, change)
            obj = form.instance
            if change:
                before, after = changed_only(getattr(obj, "_audit_before", {}), snapshot(obj))
                if after:
                    actor = request_user(request)
                    audit_record(action=actions.ADMIN_CHANGE, obj=obj, before=before, after=after, actor=actor)

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        with transaction.atomic():
            audit_record(action=actions.ADMIN_DELETE, obj=obj, before=snapshot(obj), actor=request_user(request))
            super().delete_model(request, obj)

    def delete_queryset(self, request: HttpRequest, queryset: Any) -> None:
        with transaction.atomic():
            for obj in queryset:
                audit_record(action=actions.ADMIN_DELETE, obj=obj, before=snapshot(obj), actor=request_user(request))
            super().delete_queryset(request, queryset)
