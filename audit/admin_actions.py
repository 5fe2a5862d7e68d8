"""ServiceActionsAdmin: an admin whose writes are service calls, a refusal shown as a message beside the object.

Its buttons on an object's page are declared as ObjectActions: a GET shows the action's confirmation page (or goes
back to the object), a POST calls the service, and a refusal (a DomainError) comes back as a message: nothing
changed. An action with a confirmation page shows it again, the refusal above it and what was typed (`typed`, the
POST) still in its boxes, so a reason or reference is corrected rather than typed again; any other goes back to
the object's page. A refusal while saving the add or change form (services called from save_model or
save_related) comes back the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db import models
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse

from casino.api_errors import screen_error
from casino.errors import DomainError


@dataclass(frozen=True)
class ObjectAction:
    """POST <id>/<name>/ runs `run(request, obj)`, which returns the object to show next; `done` is the success
    message, "{}" standing for that object. With a `confirm_template`, a GET shows it first (its form posts)."""

    name: str
    run: Callable[[HttpRequest, Any], Any]
    done: str
    confirm_template: str = ""
    title: str = ""


class ServiceActionsAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """A ModelAdmin with `object_actions`; each is reachable as admin:<app>_<model>_<name>."""

    object_actions: ClassVar[Sequence[ObjectAction]] = ()
    object_action_refusal: ClassVar[str] = "You may not do this."

    def object_action_context(self, request: HttpRequest, action: ObjectAction, obj: Any) -> dict[str, Any]:
        """What an action's confirmation page shows beside the object (nothing more by default)."""
        return {}

    def object_action_allowed(self, request: HttpRequest) -> bool:
        """Who may press the buttons (403 for anyone else); by default whoever may change these objects."""
        return self.has_change_permission(request)

    def get_urls(self) -> list[URLPattern]:
        opts = self.model._meta
        view = self.admin_site.admin_view(self.object_action_view)
        own = [
            path(
                f"<int:object_id>/{action.name}/",
                view,
                {"action_name": action.name},
                name=f"{opts.app_label}_{opts.model_name}_{action.name}",
            )
            for action in self.object_actions
        ]
        return own + super().get_urls()

    def changeform_view(
        self, request: HttpRequest, object_id: str | None = None, form_url: str = "", extra_context: Any = None
    ) -> HttpResponse:
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except DomainError as exc:
            # The admin's transaction rolled back: nothing changed.
            self._refused(request, exc)
            return HttpResponseRedirect(request.get_full_path())

    def object_action_view(self, request: HttpRequest, object_id: int, action_name: str) -> HttpResponse:
        action = next(a for a in self.object_actions if a.name == action_name)
        if not self.object_action_allowed(request):
            raise PermissionDenied(self.object_action_refusal)
        obj = get_object_or_404(self.model, pk=object_id)
        if request.method != "POST":
            if not action.confirm_template:
                return self._object_page(obj)
            return self._confirm_page(request, action, obj)
        try:
            result = action.run(request, obj)
        except DomainError as exc:
            self._refused(request, exc)
            if action.confirm_template:  # the object as stored (the service's transaction rolled back)
                return self._confirm_page(request, action, get_object_or_404(self.model, pk=object_id))
            return self._object_page(obj)
        self.message_user(request, action.done.format(result), messages.SUCCESS)
        return self._object_page(result)

    def _confirm_page(self, request: HttpRequest, action: ObjectAction, obj: Any) -> TemplateResponse:
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "object": obj,
            self.model._meta.model_name: obj,
            "title": action.title.format(obj),
            "typed": request.POST,
            **self.object_action_context(request, action, obj),
        }
        return TemplateResponse(request, action.confirm_template, context)

    def _refused(self, request: HttpRequest, exc: DomainError) -> None:
        self.message_user(request, screen_error(exc).message, messages.ERROR)

    def _object_page(self, obj: models.Model) -> HttpResponseRedirect:
        opts = obj._meta
        return HttpResponseRedirect(reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk]))
