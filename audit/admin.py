"""Admin screens of the audit app: read-only for everyone, superusers included (the database agrees)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User
from django.db import transaction
from django.http import HttpRequest, HttpResponse

from audit import actions
from audit.access import can_read_audit
from audit.admin_mixins import AuditedModelAdmin
from audit.models import AuditEvent, ChainVerification
from audit.services import audit_record
from casino.admin_readonly import ReadOnlyAdmin
from casino.admin_time import to_the_second
from casino.users import request_user


class TrailAdmin(ReadOnlyAdmin):
    """Viewing follows the compliance screens (compliance, superusers, or granted); writing is for nobody."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return can_read_audit(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return can_read_audit(request.user)

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        return {}  # no "delete selected"


@admin.register(AuditEvent)
class AuditEventAdmin(TrailAdmin):
    # Short headings and the time in one short shape, so every column fits an 800 px screen beside the menu.
    list_display = ("id", "sequence", "occurred", "actor", "kind", "action_words", "object_named")
    list_filter = ("actor_kind", "exception_kind")
    search_fields = ("=action", "=actor_username", "=correlation_id", "=object_id")
    show_full_result_count = False  # COUNT(*) over millions of rows on every page is not worth it
    ordering = ("-id",)

    @admin.display(description="occurred", ordering="occurred_at")
    def occurred(self, event: AuditEvent) -> str:
        return to_the_second(event.occurred_at)

    @admin.display(description="actor", ordering="actor_username")
    def actor(self, event: AuditEvent) -> str:
        return event.actor_username or "—"

    @admin.display(description="kind", ordering="actor_kind")
    def kind(self, event: AuditEvent) -> str:
        return event.get_actor_kind_display()

    @admin.display(description="action", ordering="action")
    def action_words(self, event: AuditEvent) -> str:
        return event.action_label

    @admin.display(description="object")
    def object_named(self, event: AuditEvent) -> str:
        return event.object_repr


@admin.register(ChainVerification)
class ChainVerificationAdmin(TrailAdmin):
    list_display = ("checked_at", "ok", "checked_count", "pending_count", "first_broken_id", "message")


# Admin screens that write models directly (no service of ours behind them): staff accounts and groups and beat
# schedules (API tokens are issued and revoked through accounts.services). Each is re-registered with
# AuditedModelAdmin mixed in, so their writes are audited.
DIRECT_WRITE_APPS = ("django.contrib.auth", "django_celery_beat")


class AuditedUserAdmin(AuditedModelAdmin, UserAdmin):  # type: ignore[type-arg]
    def user_change_password(self, request: HttpRequest, id: str, form_url: str = "") -> HttpResponse:
        with transaction.atomic():
            response = super().user_change_password(request, id, form_url)
            if request.method == "POST" and response.status_code == 302:
                user = User.objects.get(pk=id)
                audit_record(
                    action=actions.ADMIN_CHANGE, obj=user, after={"password": "changed"}, actor=request_user(request)
                )
        return response


def _audit_direct_write_admins(site: admin.AdminSite) -> None:
    for model, model_admin in list(site._registry.items()):
        if model._meta.app_config.name not in DIRECT_WRITE_APPS or isinstance(model_admin, AuditedModelAdmin):
            continue
        base = type(model_admin)
        if base is UserAdmin:
            audited: type[admin.ModelAdmin[Any]] = AuditedUserAdmin
        else:
            audited = type(f"Audited{base.__name__}", (AuditedModelAdmin, base), {})
        site.unregister(model)
        site.register(model, audited)


_audit_direct_write_admins(admin.site)
