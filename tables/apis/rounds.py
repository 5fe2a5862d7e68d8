"""Triple Draw rounds API: start, bets, deal, holds, rows, settle, void, floor call, approve, state, record, replay
(DESIGN 9)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.users import request_user
from tables.access import require_table_reader
from tables.apis.common import (
    NOT_MODIFIED,
    answer,
    holds_token,
    if_none_match,
    not_modified_or,
    round_answer,
    round_for,
    round_loaded,
    round_ref,
    table_for,
)
from tables.apis.inputs import WholeCentsField, WholeNumberField
from tables.apis.schemas import RoundRecordSerializer, RoundReplaySerializer, RoundStateSerializer
from tables.models import Bet, SeatHand
from tables.selectors.records import round_export, round_replay
from tables.selectors.rounds import round_token_now, round_view_of, state_token
from tables.services.approvals import round_approve_payout, round_refuse_payout
from tables.services.bets import bet_clear, bet_place, bets_place_all
from tables.services.cards import cards_deal, holds_record, holds_record_all, rows_record
from tables.services.rounds import round_close_bets, round_floor_call, round_settle, round_start, round_void

STATE = RoundStateSerializer


def _state_after(round_id: int, rows: Sequence[Bet | SeatHand] = ()) -> Response:
    """The round's state after a write whose service returns the rows it wrote (bets, holds): the round those rows
    hold is the one the service locked, as it committed it (version included); with none, read it again."""
    if rows:
        return round_answer(round_view_of(rows[0].round))
    return round_answer(round_view_of(round_loaded(round_id)))


class RoundStartApi(APIView):
    @extend_schema(request=None, responses={201: STATE}, summary="Start a round (betting)")
    def post(self, request: Request, table_id: int) -> Response:
        rnd = round_start(table=table_for(request, table_id), actor=request_user(request))
        return round_answer(round_view_of(rnd), status.HTTP_201_CREATED)


class RoundDetailApi(APIView):
    @extend_schema(
        parameters=[if_none_match("round")],
        responses={200: answer(STATE, "the round's state and ETag"), 304: NOT_MODIFIED},
        summary="A round's full state",
    )
    def get(self, request: Request, round_id: int) -> Response:
        if request.headers.get("If-None-Match"):
            # A tablet polls this until the round changes: answering "unchanged" needs the token alone (one
            # statement), and the same access check as the full answer.
            found = round_token_now(round_id)
            if found is not None:
                table, token = found
                require_table_reader(request.user, table)
                if holds_token(request, token):
                    return not_modified_or(request, token, lambda: Response())
        rnd = round_for(request, round_id)
        # The token comes from the rows just read, before the state is built, so it is never newer than the body.
        return not_modified_or(request, state_token(rnd.table, rnd), lambda: round_answer(round_view_of(rnd)))


class RoundBetsApi(APIView):
    class RoundBetsInputSerializer(serializers.Serializer):  # type: ignore[type-arg]
        seat = WholeNumberField()
        # Whole cents as JSON integers: DRF's IntegerField read "5.00" (five dollars meant) as 5 cents.
        amount_cents = WholeCentsField(required=False, help_text="one equal amount for every circle")
        amounts_cents = serializers.ListField(
            child=WholeCentsField(), required=False, help_text="one amount per circle (must be equal)"
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
        bets = bet_place(
            round=round_ref(round_id),
            seat_number=values["seat"],
            actor=request_user(request),
            circles=values.get("circles"),
            amount_cents=values["amounts_cents"] if "amounts_cents" in values else values["amount_cents"],
        )
        return _state_after(round_id, bets)


class RoundBetsBatchApi(APIView):
    class RoundBetsBatchInputSerializer(serializers.Serializer):  # type: ignore[type-arg]
        bets = serializers.ListField(child=serializers.DictField(), allow_empty=False, max_length=20)

    @extend_schema(
        request=RoundBetsBatchInputSerializer, responses={200: STATE}, summary="Place several seats' bets (all or none)"
    )
    def post(self, request: Request, round_id: int) -> Response:
        data = self.RoundBetsBatchInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        bets = bets_place_all(
            round=round_ref(round_id), bets=data.validated_data["bets"], actor=request_user(request)
        )
        return _state_after(round_id, bets)


class RoundBetClearApi(APIView):
    @extend_schema(request=None, responses={200: STATE}, summary="Clear a seat's bets")
    def delete(self, request: Request, round_id: int, seat: int) -> Response:
        bet_clear(round=round_ref(round_id), seat_number=seat, actor=request_user(request))
        return _state_after(round_id)


class RoundCloseBetsApi(APIView):
    @extend_schema(request=None, responses={200: STATE}, summary="Close bets; locks the paytable version")
    def post(self, request: Request, round_id: int) -> Response:
        return round_answer(round_view_of(round_close_bets(round=round_ref(round_id), actor=request_user(request))))


class RoundDealApi(APIView):
    class RoundDealInputSerializer(serializers.Serializer):  # type: ignore[type-arg]
        cards = serializers.DictField(
            child=serializers.ListField(child=serializers.CharField(max_length=8), max_length=10),
            required=False,
            help_text='manual/shoe tables: {"1": ["Qs", "Td", "3h", "3c", "9d"], ...}; rng tables: omit',
        )

    @extend_schema(
        request=RoundDealInputSerializer, responses={200: STATE}, summary="Deal five cards to each betting seat"
    )
    def post(self, request: Request, round_id: int) -> Response:
        data = self.RoundDealInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = cards_deal(round=round_ref(round_id), cards=data.validated_data.get("cards"), actor=request_user(request))
        return round_answer(round_view_of(rnd))


class RoundHoldsApi(APIView):
    class RoundHoldsInputSerializer(serializers.Serializer):  # type: ignore[type-arg]
        seat = WholeNumberField()
        held = serializers.ListField(child=serializers.CharField(max_length=8), allow_empty=True, max_length=10)

    @extend_schema(request=RoundHoldsInputSerializer, responses={200: STATE}, summary="Record the cards a seat holds")
    def post(self, request: Request, round_id: int) -> Response:
        data = self.RoundHoldsInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        hand = holds_record(
            round=round_ref(round_id),
            seat_number=data.validated_data["seat"],
            held=data.validated_data["held"],
            actor=request_user(request),
        )
        return _state_after(round_id, [hand])


class RoundHoldsBatchApi(APIView):
    class RoundHoldsBatchInputSerializer(serializers.Serializer):  # type: ignore[type-arg]
        holds = serializers.ListField(child=serializers.DictField(), allow_empty=False, max_length=20)

    @extend_schema(
        request=RoundHoldsBatchInputSerializer,
        responses={200: STATE},
        summary="Record several seats' holds (all or none)",
    )
    def post(self, request: Request, round_id: int) -> Response:
        data = self.RoundHoldsBatchInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        hands = holds_record_all(
            round=round_ref(round_id), holds=data.validated_data["holds"], actor=request_user(request)
        )
        return _state_after(round_id, hands)


class RoundRowsApi(APIView):
    class RoundRowsInputSerializer(serializers.Serializer):  # type: ignore[type-arg]
        rows = serializers.ListField(
            child=serializers.ListField(child=serializers.CharField(max_length=8), max_length=10),
            required=False,
            max_length=10,
            help_text="manual/shoe tables: three rows of five cards; rng tables: omit",
        )

    @extend_schema(
        request=RoundRowsInputSerializer, responses={200: STATE}, summary="Lay the three draw rows; queues settlement"
    )
    def post(self, request: Request, round_id: int) -> Response:
        data = self.RoundRowsInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = rows_record(round=round_ref(round_id), rows=data.validated_data.get("rows"), actor=request_user(request))
        return round_answer(round_view_of(rnd))


class RoundSettleApi(APIView):
    @extend_schema(request=None, responses={202: STATE}, summary="Queue the settlement job again")
    def post(self, request: Request, round_id: int) -> Response:
        rnd = round_settle(round=round_ref(round_id), actor=request_user(request))
        return round_answer(round_view_of(rnd), status.HTTP_202_ACCEPTED)


class RoundVoidApi(APIView):
    class RoundVoidInputSerializer(serializers.Serializer):  # type: ignore[type-arg]
        reason = serializers.CharField(allow_blank=True, max_length=1000)

    @extend_schema(request=RoundVoidInputSerializer, responses={200: STATE}, summary="Void an unsettled round (floor)")
    def post(self, request: Request, round_id: int) -> Response:
        data = self.RoundVoidInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = round_void(round=round_ref(round_id), reason=data.validated_data["reason"], actor=request_user(request))
        return round_answer(round_view_of(rnd))


class RoundFloorCallApi(APIView):
    class RoundFloorCallInputSerializer(serializers.Serializer):  # type: ignore[type-arg]
        reason = serializers.CharField(allow_blank=True, max_length=200, required=False, default="")

    @extend_schema(
        request=RoundFloorCallInputSerializer,
        responses={200: STATE},
        summary="Call a floor supervisor to the table (an alert on the live floor view until the floor answers it); "
        "409 while a call at the table is open",
    )
    def post(self, request: Request, round_id: int) -> Response:
        data = self.RoundFloorCallInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reason = data.validated_data["reason"]
        rnd = round_floor_call(round=round_ref(round_id), reason=reason, actor=request_user(request))
        return round_answer(round_view_of(rnd))


class RoundApproveApi(APIView):
    @extend_schema(request=None, responses={200: STATE}, summary="Approve a payout at or above the threshold (floor)")
    def post(self, request: Request, round_id: int) -> Response:
        return round_answer(round_view_of(round_approve_payout(round=round_ref(round_id), actor=request_user(request))))


class RoundRefuseApi(APIView):
    class RoundRefuseInputSerializer(serializers.Serializer):  # type: ignore[type-arg]
        reason = serializers.CharField(allow_blank=True, max_length=1000)

    @extend_schema(
        request=RoundRefuseInputSerializer,
        responses={200: STATE},
        summary="Refuse a payout awaiting approval, with a reason: the round is voided, nothing is paid (floor)",
    )
    def post(self, request: Request, round_id: int) -> Response:
        data = self.RoundRefuseInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reason = data.validated_data["reason"]
        rnd = round_refuse_payout(round=round_ref(round_id), reason=reason, actor=request_user(request))
        return round_answer(round_view_of(rnd))


class RoundExportApi(APIView):
    @extend_schema(
        responses={200: RoundRecordSerializer}, summary="The round record (DESIGN 9) that replay_round reads"
    )
    def get(self, request: Request, round_id: int) -> Response:
        return Response(round_export(round_for(request, round_id)))


class RoundReplayApi(APIView):
    @extend_schema(
        responses={200: RoundReplaySerializer}, summary="Recompute the round independently; list differences"
    )
    def get(self, request: Request, round_id: int) -> Response:
        return Response(round_replay(round_for(request, round_id)))
