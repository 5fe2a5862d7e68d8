"""REST API of tables and Triple Draw rounds (DESIGN 9): parse, call one service or selector, answer JSON."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.shortcuts import get_object_or_404
from django.utils.http import parse_etags
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from audit.roles import role_label
from casino.api_errors import NotAllowed
from paytables.models import Paytable
from tables import selectors, services, shoe
from tables.access import require_reader
from tables.models import Round, Table

STATE = OpenApiTypes.OBJECT


def _table(pk: int) -> Table:
    return get_object_or_404(Table.objects.select_related("paytable"), pk=pk)


def _round(pk: int) -> Round:
    return get_object_or_404(Round.objects.select_related("table", "dealer", "approved_by"), pk=pk)


def _ref(pk: int) -> Round:
    """A reference for a service, which locks and loads the row itself (404 if it does not exist)."""
    return Round(pk=pk)


def _state(rnd: Round, code: int = status.HTTP_200_OK) -> Response:
    """The round's full state; `rnd` is the row a service returned (already loaded with its table)."""
    return Response(selectors.round_state(rnd), status=code)


class MeApi(APIView):
    @extend_schema(
        responses={
            200: inline_serializer("Me", {"username": serializers.CharField(), "role": serializers.CharField()})
        },
        summary="Who the caller is and the role they act in",
    )
    def get(self, request: Request) -> Response:
        return Response({"username": request.user.get_username(), "role": role_label(request.user)})


class TableListApi(APIView):
    @extend_schema(
        responses={200: {"type": "array", "items": {"type": "object"}}},
        summary="List tables",
        operation_id="tables_list",
    )
    def get(self, request: Request) -> Response:
        require_reader(request.user)
        return Response([selectors.table_state(table) for table in selectors.table_list()])


def _not_modified_or(request: Request, etag: str, build: Any) -> Response:
    """304 without a body when the caller already holds `etag`, else the built state; both carry the ETag."""
    held = parse_etags(request.headers.get("If-None-Match", ""))
    response = Response(status=status.HTTP_304_NOT_MODIFIED) if etag in held or "*" in held else build()
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response


def _if_none_match(what: str) -> OpenApiParameter:
    return OpenApiParameter(
        "If-None-Match",
        OpenApiTypes.STR,
        OpenApiParameter.HEADER,
        description=f"the ETag of a state already held; 304 while the {what} has not changed since",
    )


NOT_MODIFIED = OpenApiResponse(description="not modified: the state held (If-None-Match) is still current")


def _table_etag(table: Table, current: Round | None) -> str:
    """The table's versions and its round in play; the paytable's status, which its own services change, too."""
    shown = f"{current.pk}.{current.version}" if current is not None else "-"
    paytable = table.paytable.status if table.paytable is not None else "-"
    return f'"t{table.pk}.{table.version}.{shown}.{paytable}"'


class TableDetailApi(APIView):
    @extend_schema(
        parameters=[_if_none_match("table")],
        responses={200: OpenApiResponse(STATE, description="the table's state and ETag"), 304: NOT_MODIFIED},
        summary="A table: limits, paytable, dealers, seats, current round",
    )
    def get(self, request: Request, table_id: int) -> Response:
        require_reader(request.user)
        table = _table(table_id)
        # Read before the state itself, so the tag is never newer than the body it is sent with.
        etag = _table_etag(table, selectors.table_current_round(table))
        return _not_modified_or(request, etag, lambda: Response(selectors.table_state(table)))


class TableOpenApi(APIView):
    @extend_schema(request=None, responses={200: STATE}, summary="Open a table (floor)")
    def post(self, request: Request, table_id: int) -> Response:
        table = services.table_open(table=_table(table_id), actor=request.user)
        return Response(selectors.table_state(table))


class TableCloseApi(APIView):
    @extend_schema(request=None, responses={200: STATE}, summary="Close a table (floor)")
    def post(self, request: Request, table_id: int) -> Response:
        table = services.table_close(table=_table(table_id), actor=request.user)
        return Response(selectors.table_state(table))


class TablePaytableApi(APIView):
    class TablePaytableInputSerializer(serializers.Serializer):
        paytable_id = serializers.IntegerField()

    @extend_schema(
        request=TablePaytableInputSerializer, responses={200: STATE}, summary="Put an approved paytable on a table"
    )
    def post(self, request: Request, table_id: int) -> Response:
        data = self.TablePaytableInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        paytable = get_object_or_404(Paytable, pk=data.validated_data["paytable_id"])
        table = services.table_set_paytable(table=_table(table_id), paytable=paytable, actor=request.user)
        return Response(selectors.table_state(table))


class TableDealersApi(APIView):
    class TableDealersInputSerializer(serializers.Serializer):
        username = serializers.CharField()
        assigned = serializers.BooleanField(default=True)

    @extend_schema(
        request=TableDealersInputSerializer, responses={200: STATE}, summary="Assign or unassign a dealer (floor)"
    )
    def post(self, request: Request, table_id: int) -> Response:
        data = self.TableDealersInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        dealer = get_object_or_404(User, username=data.validated_data["username"])
        service = services.table_assign_dealer if data.validated_data["assigned"] else services.table_unassign_dealer
        table = service(table=_table(table_id), dealer=dealer, actor=request.user)
        return Response(selectors.table_state(table))


class SeatJoinApi(APIView):
    class SeatJoinInputSerializer(serializers.Serializer):
        seat = serializers.IntegerField()
        player_name = serializers.CharField(required=False, allow_blank=True, default="", max_length=100)
        player_card = serializers.CharField(required=False, allow_blank=True, default="", max_length=40)

    @extend_schema(request=SeatJoinInputSerializer, responses={200: STATE}, summary="Seat a player")
    def post(self, request: Request, table_id: int) -> Response:
        data = self.SeatJoinInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        table = _table(table_id)
        services.seat_join(
            table=table,
            seat_number=data.validated_data["seat"],
            player_name=data.validated_data["player_name"],
            player_card=data.validated_data["player_card"],
            actor=request.user,
        )
        return Response(selectors.table_state(table))


class SeatLeaveApi(APIView):
    @extend_schema(request=None, responses={200: STATE}, summary="A player leaves a seat")
    def post(self, request: Request, table_id: int, seat: int) -> Response:
        table = _table(table_id)
        services.seat_leave(table=table, seat_number=seat, actor=request.user)
        return Response(selectors.table_state(table))


class RoundStartApi(APIView):
    @extend_schema(request=None, responses={201: STATE}, summary="Start a round (betting)")
    def post(self, request: Request, table_id: int) -> Response:
        return _state(services.round_start(table=_table(table_id), actor=request.user), status.HTTP_201_CREATED)


def _round_etag(rnd: Round) -> str:
    """The round's state tag: its version and its table's (the state shows the seats); see tables/versions.py."""
    return f'"{rnd.pk}.{rnd.version}.{rnd.table.version}"'


class RoundDetailApi(APIView):
    @extend_schema(
        parameters=[_if_none_match("round")],
        responses={200: OpenApiResponse(STATE, description="the round's state and ETag"), 304: NOT_MODIFIED},
        summary="A round's full state",
    )
    def get(self, request: Request, round_id: int) -> Response:
        require_reader(request.user)
        rnd = _round(round_id)
        # Read before the state itself, so the tag is never newer than the body it is sent with.
        return _not_modified_or(request, _round_etag(rnd), lambda: _state(rnd))


class RoundBetsApi(APIView):
    class RoundBetsInputSerializer(serializers.Serializer):
        seat = serializers.IntegerField()
        amount_cents = serializers.IntegerField(required=False, help_text="one equal amount for every circle")
        amounts_cents = serializers.ListField(
            child=serializers.IntegerField(), required=False, help_text="one amount per circle (must be equal)"
        )
        circles = serializers.JSONField(
            required=False, help_text="how many circles (1-3), or a list of circle numbers such as [1, 3]"
        )

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            if ("amount_cents" in attrs) == ("amounts_cents" in attrs):
                raise serializers.ValidationError({"amount_cents": "give amount_cents or amounts_cents"})
            return attrs

    @extend_schema(request=RoundBetsInputSerializer, responses={200: STATE}, summary="Place (replace) a seat's bets")
    def post(self, request: Request, round_id: int) -> Response:
        data = self.RoundBetsInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        services.bet_place(
            round=_ref(round_id),
            seat_number=values["seat"],
            actor=request.user,
            circles=values.get("circles"),
            amount_cents=values["amounts_cents"] if "amounts_cents" in values else values["amount_cents"],
        )
        return _state(_round(round_id))


class RoundBetsBatchApi(APIView):
    class RoundBetsBatchInputSerializer(serializers.Serializer):
        bets = serializers.ListField(child=serializers.DictField(), allow_empty=False)

    @extend_schema(
        request=RoundBetsBatchInputSerializer, responses={200: STATE}, summary="Place several seats' bets (all or none)"
    )
    def post(self, request: Request, round_id: int) -> Response:
        data = self.RoundBetsBatchInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.bets_place_all(round=_ref(round_id), bets=data.validated_data["bets"], actor=request.user)
        return _state(_round(round_id))


class RoundBetClearApi(APIView):
    @extend_schema(request=None, responses={200: STATE}, summary="Clear a seat's bets")
    def delete(self, request: Request, round_id: int, seat: int) -> Response:
        services.bet_clear(round=_ref(round_id), seat_number=seat, actor=request.user)
        return _state(_round(round_id))


class RoundCloseBetsApi(APIView):
    @extend_schema(request=None, responses={200: STATE}, summary="Close bets; locks the paytable version")
    def post(self, request: Request, round_id: int) -> Response:
        return _state(services.round_close_bets(round=_ref(round_id), actor=request.user))


class RoundDealApi(APIView):
    class RoundDealInputSerializer(serializers.Serializer):
        cards = serializers.DictField(
            child=serializers.ListField(child=serializers.CharField()),
            required=False,
            help_text='manual/shoe tables: {"1": ["Qs", "Td", "3h", "3c", "9d"], ...}; rng tables: omit',
        )

    @extend_schema(
        request=RoundDealInputSerializer, responses={200: STATE}, summary="Deal five cards to each betting seat"
    )
    def post(self, request: Request, round_id: int) -> Response:
        data = self.RoundDealInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = _ref(round_id)
        return _state(services.cards_deal(round=rnd, cards=data.validated_data.get("cards"), actor=request.user))


class RoundHoldsApi(APIView):
    class RoundHoldsInputSerializer(serializers.Serializer):
        seat = serializers.IntegerField()
        held = serializers.ListField(child=serializers.CharField(), allow_empty=True)

    @extend_schema(request=RoundHoldsInputSerializer, responses={200: STATE}, summary="Record the cards a seat holds")
    def post(self, request: Request, round_id: int) -> Response:
        data = self.RoundHoldsInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.holds_record(
            round=_ref(round_id),
            seat_number=data.validated_data["seat"],
            held=data.validated_data["held"],
            actor=request.user,
        )
        return _state(_round(round_id))


class RoundHoldsBatchApi(APIView):
    class RoundHoldsBatchInputSerializer(serializers.Serializer):
        holds = serializers.ListField(child=serializers.DictField(), allow_empty=False)

    @extend_schema(
        request=RoundHoldsBatchInputSerializer,
        responses={200: STATE},
        summary="Record several seats' holds (all or none)",
    )
    def post(self, request: Request, round_id: int) -> Response:
        data = self.RoundHoldsBatchInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.holds_record_all(round=_ref(round_id), holds=data.validated_data["holds"], actor=request.user)
        return _state(_round(round_id))


class RoundRowsApi(APIView):
    class RoundRowsInputSerializer(serializers.Serializer):
        rows = serializers.ListField(
            child=serializers.ListField(child=serializers.CharField()),
            required=False,
            help_text="manual/shoe tables: three rows of five cards; rng tables: omit",
        )

    @extend_schema(
        request=RoundRowsInputSerializer, responses={200: STATE}, summary="Lay the three draw rows; queues settlement"
    )
    def post(self, request: Request, round_id: int) -> Response:
        data = self.RoundRowsInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = _ref(round_id)
        return _state(services.rows_record(round=rnd, rows=data.validated_data.get("rows"), actor=request.user))


class RoundSettleApi(APIView):
    @extend_schema(request=None, responses={202: STATE}, summary="Queue the settlement job again")
    def post(self, request: Request, round_id: int) -> Response:
        return _state(services.round_settle(round=_ref(round_id), actor=request.user), status.HTTP_202_ACCEPTED)


class RoundVoidApi(APIView):
    class RoundVoidInputSerializer(serializers.Serializer):
        reason = serializers.CharField(allow_blank=True)

    @extend_schema(request=RoundVoidInputSerializer, responses={200: STATE}, summary="Void an unsettled round (floor)")
    def post(self, request: Request, round_id: int) -> Response:
        data = self.RoundVoidInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = _ref(round_id)
        return _state(services.round_void(round=rnd, reason=data.validated_data["reason"], actor=request.user))


class RoundApproveApi(APIView):
    @extend_schema(request=None, responses={200: STATE}, summary="Approve a payout at or above the threshold (floor)")
    def post(self, request: Request, round_id: int) -> Response:
        return _state(services.round_approve_payout(round=_ref(round_id), actor=request.user))


class RoundExportApi(APIView):
    @extend_schema(responses={200: STATE}, summary="The round record (DESIGN 9) that replay_round reads")
    def get(self, request: Request, round_id: int) -> Response:
        require_reader(request.user)
        return Response(selectors.round_export(_round(round_id)))


class RoundReplayApi(APIView):
    @extend_schema(responses={200: STATE}, summary="Recompute the round independently; list differences")
    def get(self, request: Request, round_id: int) -> Response:
        require_reader(request.user)
        return Response(selectors.round_replay(_round(round_id)))


class ShoeCardsApi(APIView):
    """Cards from a card-reading shoe, authenticated by the table's device token, not a user."""

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]

    class ShoeCardsInputSerializer(serializers.Serializer):
        cards = serializers.ListField(child=serializers.CharField(), allow_empty=False)

    @extend_schema(
        request=ShoeCardsInputSerializer,
        responses={
            200: inline_serializer(
                "ShoeAccepted", {"round": serializers.IntegerField(), "phase": serializers.CharField()}
            )
        },
        parameters=[OpenApiParameter("Authorization", str, OpenApiParameter.HEADER, description="Device <token>")],
        summary="Cards from the shoe in dealing order",
        auth=[],
    )
    def post(self, request: Request) -> Response:
        header = request.headers.get("Authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "device" or not token.strip():
            raise NotAllowed("send 'Authorization: Device <token>'", code="bad_device_token")
        device = shoe.device_authenticate(token.strip())
        data = self.ShoeCardsInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = shoe.shoe_cards_record(device=device, cards=data.validated_data["cards"])
        return Response({"round": rnd.pk, "phase": rnd.phase})
