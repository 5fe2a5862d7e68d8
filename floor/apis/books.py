"""Shift books API: read a shift's books; record inventories, fills and credits (two signatures), drops; void a
slip; close the shift; correct a closed one with a reason. Each write is one service call."""

from __future__ import annotations

from datetime import UTC, date
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.errors import DomainError, WrongPhase
from casino.users import request_user
from floor.access import require_books_reader, require_drop_writer, require_floor_writer
from floor.apis.schemas import ShiftBooksSerializer
from floor.gaming_day import shift_codes
from floor.models import ChipCount, ChipSlip, Shift
from floor.params import parse_day
from floor.selectors.books import TableBooks, shift_books
from floor.services.books import drop_record, inventory_record, slip_record, slip_void
from floor.services.corrections import shift_correct
from floor.services.shifts import shift_close, shift_span_or_error
from floor.signatures import dealer_signature
from tables.apis.inputs import WholeCentsField, WholeNumberField
from tables.models import Table


def table_or_error(table_id: Any, field: str = "table_id") -> Table:
    """The table named in a request body, or a clear 400."""
    table = Table.objects.filter(pk=table_id).first() if isinstance(table_id, int) and 0 < table_id < 2**63 else None
    if table is None:
        raise DomainError(f"there is no table {table_id!r}", code="unknown_table", field=field)
    return table


def _count(count: ChipCount | None) -> dict[str, Any] | None:
    if count is None:
        return None
    return {"chips": count.chips, "total_cents": count.total_cents, "recorded_by": count.recorded_by.get_username()}


def _slip(slip: ChipSlip) -> dict[str, Any]:
    return {
        "id": slip.pk,
        "kind": slip.kind,
        "chips": slip.chips,
        "total_cents": slip.total_cents,
        "dealer": slip.dealer_signer.get_username(),
        "floor": slip.floor_signer.get_username(),
        "signed_at": slip.signed_at.astimezone(UTC).isoformat(),
        "void": slip.voided_at is not None,
    }


def books_dict(books: TableBooks) -> dict[str, Any]:
    drop = books.drop
    return {
        "table_id": books.table.pk,
        "table": books.table.name,
        "opening": _count(books.opening),
        "closing": _count(books.closing),
        "slips": [_slip(slip) for slip in books.slips],
        "fills_cents": books.fills_cents,
        "credits_cents": books.credits_cents,
        "drop": None
        if drop is None
        else {
            "cash_cents": drop.cash_cents,
            "markers_cents": drop.markers_cents,
            "total_cents": drop.total_cents,
            "counted_by": drop.counted_by.get_username(),
        },
        "count_win_cents": books.count_win_cents,
        "system_win_cents": books.system.cents,
        "system_source": books.system.source,
        "difference_cents": books.difference_cents,
        "flagged": books.flagged,
        "missing": books.missing,
    }


def shift_answer(day: date, code: str) -> Response:
    span = shift_span_or_error(day, code)
    shift = Shift.objects.filter(gaming_day=span.gaming_day, code=span.code).first()
    books = [table for table in shift_books(span, shift) if table.has_activity]
    return Response(
        {
            "gaming_day": span.gaming_day.isoformat(),
            "shift": span.code,
            "starts_at": span.starts_at.astimezone(UTC).isoformat(),
            "ends_at": span.ends_at.astimezone(UTC).isoformat(),
            "status": shift.status if shift is not None else "not_started",
            "tables": [books_dict(table) for table in books],
        }
    )


# The path's gaming day and shift, typed so that clients (and the contract fuzzer) send real ones.
SHIFT_PATH = [
    OpenApiParameter("day", OpenApiTypes.DATE, OpenApiParameter.PATH, description="gaming day, YYYY-MM-DD"),
    OpenApiParameter("code", OpenApiTypes.STR, OpenApiParameter.PATH, enum=shift_codes(), description="shift"),
]


def _day(text: str) -> date:
    return parse_day(text, "gaming_day")


def _shift(day: date, code: str) -> Shift:
    span = shift_span_or_error(day, code)
    shift = Shift.objects.filter(gaming_day=span.gaming_day, code=span.code).first()
    if shift is None:
        raise WrongPhase(f"nothing was recorded for shift {day.isoformat()} {code}", code="shift_not_started")
    return shift


class ShiftBooksApi(APIView):
    @extend_schema(
        parameters=SHIFT_PATH,
        responses={200: ShiftBooksSerializer},
        summary="A shift's books per table (floor, compliance, count)",
    )
    def get(self, request: Request, day: str, code: str) -> Response:
        require_books_reader(request.user)
        return shift_answer(_day(day), code)


class InventoryApi(APIView):
    class InventoryInputSerializer(serializers.Serializer):  # type: ignore[type-arg]
        table_id = WholeNumberField()
        kind = serializers.ChoiceField(choices=ChipCount.Kind.values)
        chips = serializers.DictField(
            child=serializers.JSONField(), help_text="denomination in cents -> chips; at least one (0 for none)"
        )

    @extend_schema(
        parameters=SHIFT_PATH,
        request=InventoryInputSerializer,
        responses={200: ShiftBooksSerializer},
        summary="Record a table's opening or closing chip inventory (floor)",
    )
    def post(self, request: Request, day: str, code: str) -> Response:
        require_floor_writer(request.user, "record a chip inventory")
        data = self.InventoryInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        shift_day = _day(day)
        inventory_record(
            day=shift_day,
            shift_code=code,
            table=table_or_error(data.validated_data["table_id"]),
            kind=data.validated_data["kind"],
            chips=data.validated_data["chips"],
            actor=request_user(request),
        )
        return shift_answer(shift_day, code)


class SlipApi(APIView):
    class SlipInputSerializer(serializers.Serializer):  # type: ignore[type-arg]
        table_id = WholeNumberField()
        kind = serializers.ChoiceField(choices=ChipSlip.Kind.values)
        chips = serializers.DictField(child=serializers.JSONField(), help_text="denomination in cents -> chips")
        dealer_username = serializers.CharField(required=False, allow_blank=True, default="", max_length=150)
        dealer_password = serializers.CharField(required=False, allow_blank=True, default="", max_length=128)

    @extend_schema(
        parameters=SHIFT_PATH,
        request=SlipInputSerializer,
        responses={201: ShiftBooksSerializer},
        summary="A fill or credit, signed by the floor supervisor calling and the dealer (their password)",
    )
    def post(self, request: Request, day: str, code: str) -> Response:
        require_floor_writer(request.user, "sign a fill or credit")
        data = self.SlipInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        shift_day = _day(day)
        slip_record(
            day=shift_day,
            shift_code=code,
            table=table_or_error(data.validated_data["table_id"]),
            kind=data.validated_data["kind"],
            chips=data.validated_data["chips"],
            actor=request_user(request),
            dealer_signer=dealer_signature(
                request, data.validated_data["dealer_username"], data.validated_data["dealer_password"]
            ),
        )
        answer = shift_answer(shift_day, code)
        answer.status_code = 201
        return answer


class SlipVoidApi(APIView):
    class SlipVoidInputSerializer(serializers.Serializer):  # type: ignore[type-arg]
        reason = serializers.CharField(max_length=500)

    @extend_schema(
        request=SlipVoidInputSerializer,
        responses={200: ShiftBooksSerializer},
        summary="Void a fill or credit of an open shift, with a reason (floor)",
    )
    def post(self, request: Request, slip_id: int) -> Response:
        require_floor_writer(request.user, "void a fill or credit")
        data = self.SlipVoidInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        slip = ChipSlip.objects.select_related("shift").filter(pk=slip_id).first()
        if slip is None:
            raise NotFound(f"there is no slip {slip_id}")
        slip_void(slip=slip, reason=data.validated_data["reason"], actor=request_user(request))
        return shift_answer(slip.shift.gaming_day, slip.shift.code)


class DropApi(APIView):
    class DropInputSerializer(serializers.Serializer):  # type: ignore[type-arg]
        table_id = WholeNumberField()
        cash_cents = WholeCentsField()
        markers_cents = WholeCentsField(default=0)

    @extend_schema(
        parameters=SHIFT_PATH,
        request=DropInputSerializer,
        responses={200: ShiftBooksSerializer},
        summary="Record a table's drop: counted cash and markers (count team or floor)",
    )
    def post(self, request: Request, day: str, code: str) -> Response:
        require_drop_writer(request.user)
        data = self.DropInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        shift_day = _day(day)
        drop_record(
            day=shift_day,
            shift_code=code,
            table=table_or_error(data.validated_data["table_id"]),
            cash_cents=data.validated_data["cash_cents"],
            markers_cents=data.validated_data["markers_cents"],
            actor=request_user(request),
        )
        return shift_answer(shift_day, code)


class ShiftCloseApi(APIView):
    @extend_schema(
        parameters=SHIFT_PATH,
        request=None,
        responses={200: ShiftBooksSerializer},
        summary="Close an ended shift: stores each table's count win beside its system win (floor)",
    )
    def post(self, request: Request, day: str, code: str) -> Response:
        require_floor_writer(request.user, "close a shift")
        shift_day = _day(day)
        shift_close(shift=_shift(shift_day, code), actor=request_user(request))
        return shift_answer(shift_day, code)


class CorrectionApi(APIView):
    class CorrectionInputSerializer(serializers.Serializer):  # type: ignore[type-arg]
        table_id = WholeNumberField()
        item = serializers.CharField(help_text="opening, closing, drop or slip")
        reason = serializers.CharField(max_length=500)
        chips = serializers.DictField(child=serializers.JSONField(), required=False)
        cash_cents = WholeCentsField(required=False)
        markers_cents = WholeCentsField(required=False)
        slip_id = WholeNumberField(required=False)

    @extend_schema(
        parameters=SHIFT_PATH,
        request=CorrectionInputSerializer,
        responses={200: ShiftBooksSerializer},
        summary="Correct one record of a closed shift, with a reason (floor)",
    )
    def post(self, request: Request, day: str, code: str) -> Response:
        require_floor_writer(request.user, "correct a closed shift")
        data = self.CorrectionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        shift_day = _day(day)
        values = data.validated_data
        shift_correct(
            shift=_shift(shift_day, code),
            table=table_or_error(values["table_id"]),
            item=values["item"],
            reason=values["reason"],
            actor=request_user(request),
            chips=values.get("chips"),
            cash_cents=values.get("cash_cents"),
            markers_cents=values.get("markers_cents"),
            slip_id=values.get("slip_id"),
        )
        return shift_answer(shift_day, code)
