"""Read-only audit API for compliance tooling: events with the screens' filters, keyset pages, chain state."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import django_filters
from django.shortcuts import get_object_or_404
from django.utils.decorators import method_decorator
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from audit import providers
from audit.access import can_read_audit
from audit.filters import AuditEventFilter, filter_events, filter_refusal
from audit.models import AuditEvent
from audit.selectors import chain_state, event_page, round_timeline, round_verdict
from casino.db_router import replica_reads
from casino.errors import NotFound

MAX_LIMIT = 500


class CanReadAudit(BasePermission):
    message = "The audit API needs the compliance role."

    def has_permission(self, request: Request, view: Any) -> bool:
        return can_read_audit(request.user)


class AuditEventOutputSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    action_label = serializers.CharField(read_only=True, help_text="what the action code reads as")

    class Meta:
        model = AuditEvent
        fields = [
            "id", "sequence", "occurred_at", "actor_id", "actor_username", "actor_role", "actor_kind", "action",
            "action_label", "exception_kind", "object_type", "object_id", "object_repr", "table_id", "table_repr",
            "round_id", "round_repr", "seat_number", "before", "after", "reason", "approver_id", "approver_username",
            "correlation_id", "client_address", "prev_hash", "hash",
        ]  # fmt: skip


class AuditEventPageSerializer(serializers.Serializer):  # type: ignore[type-arg]
    results = AuditEventOutputSerializer(many=True)
    next_before = serializers.IntegerField(
        allow_null=True, help_text="the last event's id: pass as ?before= for the next page; null on the last page")


def _filter_schema(f: django_filters.Filter) -> Any:
    """The OpenAPI type of one filter, so clients (and fuzzers) know what a valid value looks like."""
    if isinstance(f, django_filters.DateTimeFilter):
        return OpenApiTypes.DATETIME
    if isinstance(f, django_filters.DateFilter):
        return OpenApiTypes.DATE
    if isinstance(f, django_filters.NumberFilter):
        return OpenApiTypes.INT
    if isinstance(f, django_filters.ChoiceFilter):
        return {"type": "string", "enum": [value for value, _ in f.extra["choices"]]}
    # Django refuses NUL characters in text input; say so rather than answer 400 to "valid" text.
    return {"type": "string", "pattern": "^[^\\u0000]*$"}


def _filter_parameters() -> list[OpenApiParameter]:
    params = [
        OpenApiParameter(name, _filter_schema(f), description=str(f.label or name))
        for name, f in AuditEventFilter.base_filters.items()
    ]
    params.append(
        OpenApiParameter(
            "before",
            {"type": "integer", "minimum": 1, "maximum": 2**63 - 1},
            # The list is newest first by server time, then id; ids are not in time order (a job's event can be
            # sealed after a later request's), so "id < before" would skip or repeat events.
            description="keyset cursor: the previous page's next_before; the events listed after that event "
            "(newest first by time, then id; not the events with a smaller id)",
        )
    )
    params.append(
        OpenApiParameter(
            "limit",
            {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT},
            description=f"page size, 1..{MAX_LIMIT} (default 100)",
        )
    )
    return params


def _int_param(request: Request, name: str, default: int | None, low: int, high: int) -> int | None:
    raw = request.query_params.get(name)
    if raw in (None, ""):
        return default
    # ASCII digits only: "²".isdigit() is true but int("²") fails.
    if not (raw.isascii() and raw.isdigit()) or not low <= int(raw) <= high:
        raise ValidationError({name: f"must be a whole number from {low} to {high}"})
    return int(raw)


@method_decorator(replica_reads, name="get")  # compliance reads may be a little stale
class AuditEventListApi(APIView):
    permission_classes = [CanReadAudit]

    @extend_schema(
        parameters=_filter_parameters(),
        responses={200: AuditEventPageSerializer},
        summary="Audit events",
        operation_id="audit_events_list",
    )
    def get(self, request: Request) -> Response:
        limit = _int_param(request, "limit", 100, 1, MAX_LIMIT) or 100
        before = _int_param(request, "before", None, 1, 2**63 - 1)
        queryset, form = filter_events(request.query_params)
        refusal = filter_refusal(form)
        if refusal is not None:
            raise refusal
        page = event_page(queryset, before=before, size=limit)
        return Response(AuditEventPageSerializer({"results": page.events, "next_before": page.next_before}).data)


@method_decorator(replica_reads, name="get")  # compliance reads may be a little stale
class AuditEventDetailApi(APIView):
    permission_classes = [CanReadAudit]

    @extend_schema(
        responses={200: AuditEventOutputSerializer}, summary="One audit event", operation_id="audit_event_detail"
    )
    def get(self, request: Request, event_id: int) -> Response:
        return Response(AuditEventOutputSerializer(get_object_or_404(AuditEvent, id=event_id)).data)


@method_decorator(replica_reads, name="get")  # compliance reads may be a little stale
class RoundTimelineApi(APIView):
    permission_classes = [CanReadAudit]

    @extend_schema(
        responses={200: OpenApiTypes.OBJECT},
        summary="Every event of a round in order, with the replay verdict",
        operation_id="audit_round_timeline",
    )
    def get(self, request: Request, round_id: int) -> Response:
        events = round_timeline(round_id)
        return Response(
            {
                "round_id": round_id,
                "events": AuditEventOutputSerializer(events, many=True).data,
                "verdict": round_verdict(round_id),
            }
        )


class TimelineVerdictSerializer(serializers.Serializer):  # type: ignore[type-arg]
    ok = serializers.BooleanField(help_text="the stored outcome is what the replay of the record gives")
    differences = serializers.ListField(child=serializers.CharField(), help_text="each difference found, in words")
    note = serializers.CharField(required=False, help_text="what the replay checked or left out, when it says")


class HomeGameTimelineSerializer(serializers.Serializer):  # type: ignore[type-arg]
    game_id = serializers.IntegerField()
    table_id = serializers.IntegerField()
    number = serializers.IntegerField(help_text="the game's number at its table")
    events = AuditEventOutputSerializer(many=True, help_text="the game's, its hands' and its players' events in order")
    verdict = TimelineVerdictSerializer(help_text="the game record replayed hand by hand and compared with the stored")


class HomeHandTimelineSerializer(serializers.Serializer):  # type: ignore[type-arg]
    hand_id = serializers.IntegerField()
    game_id = serializers.IntegerField()
    table_id = serializers.IntegerField()
    number = serializers.IntegerField(help_text="the hand's number in its game")
    events = AuditEventOutputSerializer(
        many=True, help_text="the hand's events in order, its rulings and the floor calls made during it included")
    verdict = TimelineVerdictSerializer(help_text="the hand recomputed from its record and compared with the stored")


def _home_timeline_api(
    what: str, missing: str, setting: str, provide: Callable[[int], dict[str, Any] | None],
    serializer: type[serializers.BaseSerializer], summary: str,  # type: ignore[type-arg]
) -> type[APIView]:
    """The API of a home game's or hand's timeline, from the app that knows them (`provide`, named by `setting`: audit
    never imports tables): the round timeline's readers, and a 404 naming an unknown id (`missing` is its code)."""

    @method_decorator(replica_reads, name="get")  # compliance reads may be a little stale
    class HomeTimelineApi(APIView):
        permission_classes = [CanReadAudit]

        @extend_schema(responses={200: serializer}, summary=summary,
                       operation_id=f"audit_{what.replace(' ', '_')}_timeline")
        def get(self, request: Request, **path: int) -> Response:
            (pk,) = path.values()
            timeline = provide(pk)
            if timeline is not None:
                return Response(serializer(timeline).data)
            if not providers.has_provider(setting):
                raise NotFound(f"{what} timelines are not available ({setting} is not set)", code=missing)
            raise NotFound(f"{what} {pk} does not exist", code=missing)

    return HomeTimelineApi


HomeGameTimelineApi = _home_timeline_api(
    "home game", "game_not_found", "AUDIT_HOME_GAME_TIMELINE", providers.home_game_timeline,
    HomeGameTimelineSerializer,
    "Every event of a home game (its hands and players included) in order, with the replay verdict",
)
HomeHandTimelineApi = _home_timeline_api(
    "home hand", "hand_not_found", "AUDIT_HOME_HAND_TIMELINE", providers.home_hand_timeline,
    HomeHandTimelineSerializer,
    "Every event of a home hand in order (rulings and floor calls included), with the replay verdict",
)


@method_decorator(replica_reads, name="get")  # compliance reads may be a little stale
class ChainStateApi(APIView):
    permission_classes = [CanReadAudit]

    @extend_schema(
        responses={200: OpenApiTypes.OBJECT},
        summary="Hash chain: sealed, pending, last verification",
        operation_id="audit_chain_state",
    )
    def get(self, request: Request) -> Response:
        state = chain_state()
        check = state.last_check
        return Response(
            {
                "sealed": state.sealed,
                "pending": state.pending,
                "oldest_pending_at": state.oldest_pending_at,
                "last_check": None
                if check is None
                else {
                    "checked_at": check.checked_at,
                    "ok": check.ok,
                    "checked_count": check.checked_count,
                    "last_sequence": check.last_sequence,
                    "first_broken_id": check.first_broken_id,
                    "first_broken_sequence": check.first_broken_sequence,
                    "message": check.message,
                },
            }
        )
