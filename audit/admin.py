"""Admin screens of the audit app: read-only for everyone, superusers included (the database agrees)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from audit.models import AuditEvent, ChainVerification


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        return {}  # no "delete selected"


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    list_display = ("id", "sequence", "occurred_at", "actor_username", "actor_kind", "action", "object_repr")
    list_filter = ("actor_kind", "exception_kind")
    search_fields = ("=action", "=actor_username", "=correlation_id", "=object_id")
    show_full_result_count = False  # COUNT(*) over millions of rows on every page is not worth it
    ordering = ("-id",)


@admin.register(ChainVerification)
class ChainVerificationAdmin(ReadOnlyAdmin):
    list_display = ("checked_at", "ok", "checked_count", "pending_count", "first_broken_id", "message")
