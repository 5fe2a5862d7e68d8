"""REST API of paytables (DESIGN 9): every staff role reads; floor staff create, edit, approve, retire, clone."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from audit.roles import COMPLIANCE, DEALER, FLOOR, has_role
from casino.users import request_user
from paytables import services
from paytables.models import Basis, Paytable, PaytableAnalysis, PaytableStatus
from paytables.selectors import paytable_analysis_or_none, paytable_get, paytable_line_as_dict, paytable_list


class StaffReadsFloorWrites(permissions.BasePermission):
    """Every staff role reads paytables; only floor staff (and superusers) change them."""

    message = "Only floor staff may change paytables; floor, dealer and compliance staff may read them."

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return has_role(request.user, FLOOR, DEALER, COMPLIANCE)
        return has_role(request.user, FLOOR)


class PaytableApiView(APIView):
    permission_classes = [permissions.IsAuthenticated, StaffReadsFloorWrites]


def _paytable(paytable_id: int) -> Paytable:
    try:
        return paytable_get(paytable_id)
    except Paytable.DoesNotExist:
        raise Http404(f"No paytable {paytable_id}") from None


# --- input ----------------------------------------------------------------------------------------------


@extend_schema_field({"oneOf": [{"type": "integer", "minimum": 0}, {"type": "string", "example": "3/2"}]})
class PaysField(serializers.Field):  # type: ignore[type-arg]
    """An exact pays value: a whole number or a fraction written "3/2" (the engine parses and judges it)."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, bool) or not isinstance(data, int | str):
            raise serializers.ValidationError("pays is a whole number or text like '3/2'.", code="invalid")
        return data

    def to_representation(self, value: Any) -> Any:
        return value


class LineInputSerializer(serializers.Serializer):  # type: ignore[type-arg]
    hand = serializers.CharField(max_length=32)
    min_rank = serializers.CharField(max_length=2, required=False, allow_blank=True)
    ranks = serializers.ListField(child=serializers.CharField(max_length=2), required=False)
    pays = PaysField()


def _lines(validated: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Drop empty optional qualifiers so the engine sees DESIGN 6 JSON."""
    return [{key: value for key, value in line.items() if value not in ("", [], None)} for line in validated]


class PaytableCreateInputSerializer(serializers.Serializer):  # type: ignore[type-arg]
    name = serializers.CharField(max_length=100)
    basis = serializers.ChoiceField(choices=Basis.choices)
    wild_ranks = serializers.ListField(child=serializers.CharField(max_length=2), required=False, default=list)
    lines = LineInputSerializer(many=True)


class PaytableLinesInputSerializer(serializers.Serializer):  # type: ignore[type-arg]
    lines = LineInputSerializer(many=True)
    basis = serializers.ChoiceField(choices=Basis.choices, required=False)
    wild_ranks = serializers.ListField(child=serializers.CharField(max_length=2), required=False)


class ApproveInputSerializer(serializers.Serializer):  # type: ignore[type-arg]
    approval_reference = serializers.CharField(max_length=100, allow_blank=True)
    override_reason = serializers.CharField(
        max_length=1000,
        required=False,
        allow_blank=True,
        default="",
        help_text="required when the analysed return is above 100 % or below PAYTABLE_RETURN_FLOOR",
    )


class RetireInputSerializer(serializers.Serializer):  # type: ignore[type-arg]
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=1000)


class CloneInputSerializer(serializers.Serializer):  # type: ignore[type-arg]
    name = serializers.CharField(required=False, allow_blank=True, max_length=100)


# --- output ---------------------------------------------------------------------------------------------


class PaytableApiErrorDetailSerializer(serializers.Serializer):  # type: ignore[type-arg]
    code = serializers.CharField(help_text="Stable lowercase code, e.g. bad_paytable, paytable_not_draft")
    message = serializers.CharField()
    field = serializers.CharField(required=False)


class PaytableApiErrorSerializer(serializers.Serializer):  # type: ignore[type-arg]
    error = PaytableApiErrorDetailSerializer()


READ_ERRORS = {403: PaytableApiErrorSerializer, 404: PaytableApiErrorSerializer}
WRITE_ERRORS = {code: PaytableApiErrorSerializer for code in (400, 403, 404, 409)}


class LineOutputSerializer(serializers.Serializer):  # type: ignore[type-arg]
    position = serializers.IntegerField()
    hand = serializers.CharField()
    min_rank = serializers.CharField(required=False)
    ranks = serializers.ListField(child=serializers.CharField(), required=False)
    pays = PaysField()


class AnalysisOutputSerializer(serializers.Serializer):  # type: ignore[type-arg]
    status = serializers.CharField()
    progress = serializers.IntegerField(help_text="0-100")
    attempts = serializers.IntegerField()
    queued_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    error = serializers.CharField()
    return_ratio = serializers.FloatField(allow_null=True, help_text="Return per unit staked, stake included")
    return_exact = serializers.CharField(help_text="The exact return as a fraction n/d")
    house_edge = serializers.FloatField(allow_null=True)
    hit_frequency = serializers.FloatField(allow_null=True)
    variance = serializers.FloatField(allow_null=True)
    std_dev = serializers.FloatField(allow_null=True)
    results = serializers.JSONField(allow_null=True, help_text="The engine's full analysis, with the per-line table")


class PaytableSummarySerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    name = serializers.CharField()
    version = serializers.IntegerField()
    basis = serializers.CharField()
    wild_ranks = serializers.ListField(child=serializers.CharField())
    status = serializers.CharField()
    approval_reference = serializers.CharField()
    approved_by = serializers.CharField(allow_null=True)
    approved_at = serializers.DateTimeField(allow_null=True)
    created_by = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    retired_at = serializers.DateTimeField(allow_null=True)
    cloned_from = serializers.IntegerField(allow_null=True)
    analysis_status = serializers.CharField(allow_null=True)
    analysis_progress = serializers.IntegerField(allow_null=True)
    return_ratio = serializers.FloatField(allow_null=True)


class PaytableDetailSerializer(PaytableSummarySerializer):
    lines = LineOutputSerializer(many=True)
    analysis = AnalysisOutputSerializer(allow_null=True)


def _username(user: Any) -> str | None:
    return user.username if user is not None else None


def _analysis(analysis: PaytableAnalysis | None) -> dict[str, Any] | None:
    if analysis is None:
        return None
    return {name: getattr(analysis, name) for name in list(AnalysisOutputSerializer().fields.keys())}


def _summary(paytable: Paytable) -> dict[str, Any]:
    analysis = paytable_analysis_or_none(paytable)
    return {
        "id": paytable.pk,
        "name": paytable.name,
        "version": paytable.version,
        "basis": paytable.basis,
        "wild_ranks": list(paytable.wild_ranks or []),
        "status": paytable.status,
        "approval_reference": paytable.approval_reference,
        "approved_by": _username(paytable.approved_by),
        "approved_at": paytable.approved_at,
        "created_by": _username(paytable.created_by),
        "created_at": paytable.created_at,
        "retired_at": paytable.retired_at,
        "cloned_from": paytable.cloned_from_id,
        "analysis_status": analysis.status if analysis else None,
        "analysis_progress": analysis.progress if analysis else None,
        "return_ratio": analysis.return_ratio if analysis else None,
    }


def _detail(paytable_id: int, code: int = status.HTTP_200_OK) -> Response:
    paytable = _paytable(paytable_id)
    lines = [
        {"position": line.position, **paytable_line_as_dict(line)}
        for line in sorted(paytable.lines.all(), key=lambda line: line.position)
    ]
    data = {**_summary(paytable), "lines": lines, "analysis": _analysis(paytable_analysis_or_none(paytable))}
    return Response(PaytableDetailSerializer(data).data, status=code)


class ListQuerySerializer(serializers.Serializer):  # type: ignore[type-arg]
    status = serializers.ChoiceField(choices=PaytableStatus.choices, required=False)
    name = serializers.CharField(required=False, max_length=100)


def _validated_query(request: Request) -> dict[str, Any]:
    serializer = ListQuerySerializer(data=request.query_params)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _validated(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:  # type: ignore[type-arg]
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


# --- views ----------------------------------------------------------------------------------------------


class PaytableListApi(PaytableApiView):
    @extend_schema(
        parameters=[
            OpenApiParameter("status", str, enum=[choice.value for choice in PaytableStatus], required=False),
            # What ListQuerySerializer takes: up to 100 characters, no NUL (refused 400, as PostgreSQL cannot hold it).
            OpenApiParameter("name", str, required=False, description="Exact paytable name (up to 100 characters)",
                             pattern=r"^[^\x00]{0,100}$"),
        ],
        responses={200: PaytableSummarySerializer(many=True), **READ_ERRORS},
        summary="List paytable versions",
    )
    def get(self, request: Request) -> Response:
        query = _validated_query(request)
        paytables = paytable_list(status=query.get("status"), name=query.get("name"))
        return Response(PaytableSummarySerializer([_summary(p) for p in paytables], many=True).data)

    @extend_schema(
        request=PaytableCreateInputSerializer,
        responses={201: PaytableDetailSerializer, **WRITE_ERRORS},
        summary="Create a draft paytable (floor); its analysis is queued",
    )
    def post(self, request: Request) -> Response:
        data = _validated(PaytableCreateInputSerializer, request)
        paytable = services.paytable_create_draft(
            name=data["name"],
            basis=data["basis"],
            wild_ranks=data["wild_ranks"],
            lines=_lines(data["lines"]),
            actor=request_user(request),
        )
        return _detail(paytable.pk, status.HTTP_201_CREATED)


class PaytableDetailApi(PaytableApiView):
    @extend_schema(
        responses={200: PaytableDetailSerializer, **READ_ERRORS},
        summary="A paytable version with its lines and analysis",
    )
    def get(self, request: Request, paytable_id: int) -> Response:
        return _detail(paytable_id)


class PaytableLinesApi(PaytableApiView):
    @extend_schema(
        request=PaytableLinesInputSerializer,
        responses={200: PaytableDetailSerializer, **WRITE_ERRORS},
        summary="Replace a draft's lines (floor); approved versions refuse",
    )
    def put(self, request: Request, paytable_id: int) -> Response:
        data = _validated(PaytableLinesInputSerializer, request)
        services.paytable_line_set(
            paytable=_paytable(paytable_id),
            lines=_lines(data["lines"]),
            basis=data.get("basis"),
            wild_ranks=data.get("wild_ranks"),
            actor=request_user(request),
        )
        return _detail(paytable_id)


class PaytableApproveApi(PaytableApiView):
    @extend_schema(
        request=ApproveInputSerializer,
        responses={200: PaytableDetailSerializer, **WRITE_ERRORS},
        summary="Approve a draft (floor)",
    )
    def post(self, request: Request, paytable_id: int) -> Response:
        data = _validated(ApproveInputSerializer, request)
        services.paytable_approve(
            paytable=_paytable(paytable_id),
            approval_reference=data["approval_reference"],
            override_reason=data["override_reason"],
            actor=request_user(request),
        )
        return _detail(paytable_id)


class PaytableRetireApi(PaytableApiView):
    @extend_schema(
        request=RetireInputSerializer,
        responses={200: PaytableDetailSerializer, **WRITE_ERRORS},
        summary="Retire an approved version",
    )
    def post(self, request: Request, paytable_id: int) -> Response:
        data = _validated(RetireInputSerializer, request)
        services.paytable_retire(paytable=_paytable(paytable_id), reason=data["reason"], actor=request_user(request))
        return _detail(paytable_id)


class PaytableCloneApi(PaytableApiView):
    @extend_schema(
        request=CloneInputSerializer,
        responses={201: PaytableDetailSerializer, **WRITE_ERRORS},
        summary="Clone a version as a new draft (the next version, or version 1 of a new name)",
    )
    def post(self, request: Request, paytable_id: int) -> Response:
        data = _validated(CloneInputSerializer, request)
        clone = services.paytable_clone(
            paytable=_paytable(paytable_id), name=data.get("name") or None, actor=request_user(request)
        )
        return _detail(clone.pk, status.HTTP_201_CREATED)


class PaytableAnalysisApi(PaytableApiView):
    @extend_schema(
        responses={200: AnalysisOutputSerializer, **READ_ERRORS},
        summary="The paytable's analysis job: status, progress and results",
    )
    def get(self, request: Request, paytable_id: int) -> Response:
        analysis = paytable_analysis_or_none(_paytable(paytable_id))
        if analysis is None:
            raise Http404("No analysis has been queued for this paytable")
        return Response(AnalysisOutputSerializer(_analysis(analysis)).data)

    @extend_schema(
        request=None,
        responses={202: AnalysisOutputSerializer, **WRITE_ERRORS},
        summary="Run the analysis again (floor)",
    )
    def post(self, request: Request, paytable_id: int) -> Response:
        paytable = _paytable(paytable_id)
        analysis = services.paytable_analysis_queue(paytable=paytable, actor=request_user(request), force=True)
        return Response(AnalysisOutputSerializer(_analysis(analysis)).data, status=status.HTTP_202_ACCEPTED)
