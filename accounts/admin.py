"""API tokens in the admin: floor staff issue one for a user (shown once, only its digest is kept) or revoke it."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import HttpRequest
from knox.settings import knox_settings

from accounts.models import ApiToken
from accounts.services import api_token_issue, api_token_revoke, may_issue_token_for
from audit.context import acting_as
from audit.roles import FLOOR, has_role
from casino.errors import DomainError
from casino.users import request_user


class IssueTokenForm(forms.ModelForm):  # type: ignore[type-arg]
    hours = forms.IntegerField(
        min_value=1,
        max_value=24 * 366,
        initial=int(knox_settings.TOKEN_TTL.total_seconds() // 3600),
        help_text="how long the token works",
    )

    class Meta:
        model = ApiToken
        fields = ["user"]


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("user", "created", "expiry", "digest_prefix")
    list_filter = ("user",)
    search_fields = ("user__username",)
    ordering = ("-created",)
    actions = ["revoke_tokens"]

    @admin.display(description="digest")
    def digest_prefix(self, obj: ApiToken) -> str:
        return f"{obj.digest[:16]}…"

    def _floor(self, request: HttpRequest) -> bool:
        return has_role(request.user, FLOOR)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return self._floor(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._floor(request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return self._floor(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # revoking goes through the action, which audits it

    def get_queryset(self, request: HttpRequest) -> QuerySet[ApiToken]:
        return super().get_queryset(request).select_related("user")

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        if obj is None:
            kwargs["form"] = IssueTokenForm
        form = super().get_form(request, obj, change=change, **kwargs)
        if obj is None:
            allowed = [u.pk for u in User.objects.filter(is_active=True) if may_issue_token_for(request.user, u)]
            user_field = form.base_fields["user"]
            assert isinstance(user_field, forms.ModelChoiceField)
            user_field.queryset = User.objects.filter(pk__in=allowed).order_by("username")
        return form

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return ["user", "hours"] if obj is None else ["user", "created", "expiry"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return () if obj is None else ("user", "created", "expiry")

    def save_model(self, request: HttpRequest, obj: ApiToken, form: Any, change: bool) -> None:
        with acting_as(user=request_user(request), kind="user"):
            issued = api_token_issue(
                user=form.cleaned_data["user"],
                actor=request_user(request),
                ttl=dt.timedelta(hours=form.cleaned_data["hours"]),
            )
        obj.pk = issued.api_token.pk
        self.message_user(
            request,
            f"Token for {issued.api_token.user}: {issued.token} (shown once: copy it now; "
            f"send it as 'Authorization: Token <token>'; it expires {issued.expiry:%Y-%m-%d %H:%M %Z})",
            messages.WARNING,
        )

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        return None  # the service wrote everything

    @admin.action(description="Revoke the selected API tokens")
    def revoke_tokens(self, request: HttpRequest, queryset: QuerySet[ApiToken]) -> None:
        revoked = 0
        with acting_as(user=request_user(request), kind="user"):
            for api_token in queryset:
                try:
                    api_token_revoke(api_token=api_token, actor=request_user(request), reason="revoked in the admin")
                except DomainError as exc:
                    self.message_user(request, exc.message, messages.ERROR)
                    continue
                revoked += 1
        self.message_user(request, f"{revoked} API tokens revoked.", messages.SUCCESS)
