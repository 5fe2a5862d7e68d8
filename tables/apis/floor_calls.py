"""Floor calls API: a home-game dealer's call, the open calls for the floor (floor, compliance reads) and a floor
supervisor's answer to one (a Triple Draw round's call is made on its round: apis/rounds.py)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from audit.roles import COMPLIANCE, FLOOR, has_role
from casino.api_time import api_time
from casino.errors import NotAllowed
from casino.users import request_user
from tables.apis.inputs import StrictInputSerializer
from tables.models import FloorCall
from tables.selectors.floor_calls import open_calls
from tables.services.floor_calls import NOTE_MAX, floor_call_answer
from tables.services.home_games import game_floor_call


class FloorCallSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    table_id = serializers.IntegerField()
    table = serializers.CharField(help_text="the table's name")
    where = serializers.CharField(help_text='where it was made: "Round 12", "Hand 3" or "Between hands"')
    round_id = serializers.IntegerField(allow_null=True)
    game_id = serializers.IntegerField(allow_null=True)
    reason = serializers.CharField(allow_blank=True)
    called_at = serializers.DateTimeField()
    called_by = serializers.CharField()
    open = serializers.BooleanField(help_text="true until a floor supervisor answers it")
    answered_at = serializers.DateTimeField(allow_null=True)
    answered_by = serializers.CharField(allow_null=True)
    note = serializers.CharField(allow_blank=True, help_text="the floor's note with its answer")


def call_answer(call: FloorCall) -> dict[str, Any]:
    return {"id": call.pk, "table_id": call.table_id, "table": call.table.name, "where": call.where,
            "round_id": call.round_id, "game_id": call.game_id, "reason": call.reason,
            "called_at": api_time(call.called_at), "called_by": call.called_by.get_username(), "open": call.is_open,
            "answered_at": api_time(call.answered_at),
            "answered_by": call.answered_by.get_username() if call.answered_by is not None else None,
            "note": call.note}


class FloorCallListApi(APIView):
    @extend_schema(responses={200: FloorCallSerializer(many=True)},
                   summary="The open calls for the floor, oldest first (floor and compliance)")
    def get(self, request: Request) -> Response:
        if not has_role(request.user, FLOOR, COMPLIANCE):
            raise NotAllowed("the floor's calls are for floor supervisors and compliance", code="permission_denied")
        calls = sorted(open_calls(with_tables=True).values(), key=lambda call: (call.called_at, call.pk))
        return Response([call_answer(call) for call in calls])


class FloorCallAnswerApi(APIView):
    # Strict: a key it does not read (`notes`, `message`) would be dropped and the call answered without it.
    class FloorCallAnswerInputSerializer(StrictInputSerializer):
        note = serializers.CharField(allow_blank=True, max_length=NOTE_MAX, required=False, default="",
                                     help_text='for the dealer, e.g. "two minutes"')

    @extend_schema(
        request=FloorCallAnswerInputSerializer,
        responses={200: FloorCallSerializer},
        summary="Answer a dealer's call (floor): it closes on the live view and the tablet shows who answered; "
        "409 if it was answered already",
    )
    def post(self, request: Request, call_id: int) -> Response:
        data = self.FloorCallAnswerInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        call = floor_call_answer(call=call_id, actor=request_user(request), note=data.validated_data["note"])
        return Response(call_answer(call))


class GameFloorCallApi(APIView):
    class GameFloorCallInputSerializer(StrictInputSerializer):  # a home-game request, as strict as the rest
        reason = serializers.CharField(allow_blank=True, max_length=200, required=False, default="",
                                       help_text='what the floor is called for, e.g. "misdeal at seat 3"')

    @extend_schema(
        request=GameFloorCallInputSerializer,
        responses={201: FloorCallSerializer},
        summary="Call a floor supervisor to a home-game table (its dealer or the floor): an alert on the live floor "
        "view until the floor answers it, made during a hand or between hands; 409 while a call at the table is "
        "open or once the game is over",
    )
    def post(self, request: Request, game_id: int) -> Response:
        data = self.GameFloorCallInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        call = game_floor_call(game=game_id, actor=request_user(request), reason=data.validated_data["reason"])
        return Response(call_answer(call), status=201)
