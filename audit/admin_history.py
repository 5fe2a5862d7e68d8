"""The admin's History page read from the audit trail: the services record every admin edit there, never in
Django's own admin log, so its History said "doesn't have a change history" of objects the trail has in full."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.contrib.admin.views.main import PAGE_VAR
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.text import capfirst

from audit.actions import ACTIONS
from audit.models import AuditEvent
from audit.presentation import changed, summary


@dataclass(frozen=True)
class Actor:
    username: str
    role: str

    def get_username(self) -> str:
        return self.username

    def get_full_name(self) -> str:
        return self.role


@dataclass(frozen=True)
class HistoryRow:
    """One audit event in the shape the admin's object_history.html reads (a LogEntry's)."""

    action_time: Any
    user: Actor
    message: str

    def get_change_message(self) -> str:
        return self.message


def history_row(event: AuditEvent) -> HistoryRow:
    said = summary(changed(event.before, event.after), limit=300)  # what moved, not every setting again
    message = f"{ACTIONS.label(event.action)}: {said}" if said else ACTIONS.label(event.action)
    if event.reason:
        message += f" (reason: {event.reason})"
    return HistoryRow(event.occurred_at, Actor(event.actor_username or event.actor_kind, event.actor_role), message)


class AuditHistoryAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """History lists the object's audit events, oldest first, as the compliance trail records them."""

    def history_view(self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
                     ) -> HttpResponse:
        obj = self.get_object(request, unquote(object_id))
        if obj is None:
            gone: HttpResponse = self._get_obj_does_not_exist_redirect(  # type: ignore[attr-defined]  # not in stubs
                request, self.opts, object_id)
            return gone
        if not self.has_view_or_change_permission(request, obj):
            raise PermissionDenied
        events = AuditEvent.objects.filter(object_type=self.opts.label_lower, object_id=str(obj.pk)).order_by("id")
        paginator = self.get_paginator(request, events, 100)
        page = paginator.get_page(request.GET.get(PAGE_VAR, 1))
        page.object_list = [history_row(event) for event in page.object_list]
        context = {
            **self.admin_site.each_context(request),
            "title": f"Change history: {obj}",
            "subtitle": None,
            "action_list": page,
            "page_range": paginator.get_elided_page_range(page.number),
            "page_var": PAGE_VAR,
            "pagination_required": paginator.count > 100,
            "module_name": str(capfirst(self.opts.verbose_name_plural)),
            "object": obj,
            "opts": self.opts,
            "preserved_filters": self.get_preserved_filters(request),
            **(extra_context or {}),
        }
        request.current_app = self.admin_site.name
        return TemplateResponse(request, "admin/object_history.html", context)
