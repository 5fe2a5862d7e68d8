"""Tables API: who am I, list, create, read and edit tables, open and close, paytable, dealers, seats (DESIGN 9)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from audit.roles import role_label
from casino.errors import DomainError
from casino.users import request_user
from paytables.models import Paytable
from tables.access import require_floor, require_reader
from tables.apis.common import NOT_MODIFIED, answer, if_none_match, not_modified_or, table_for
from tables.apis.inputs import WholeNumberField
from tables.apis.schemas import MeSerializer, TableCreateSerializer, TableStateSerializer, TableUpdateSerializer
from tables.models import Table
from tables.selectors.rounds import table_token
from tables.selectors.tables import table_list, table_state
from tables.services.seats import seat_join, seat_leave
from tables.services.tables import (
    LIMIT_FIELDS,
    table_assign_dealer,
    table_change,
    table_close,
    table_create,
    table_open,
    table_set_dealers,
    table_set_paytable,
    table_unassign_dealer,
)


def _paytable(paytable_id: int | None) -> Paytable | None:
    """The paytable a request names (bad input, not 404, when there is none: the table is what is addressed)."""
    if paytable_id is None:
        return None
    paytable = Paytable.objects.filter(pk=paytable_id).first()
    if paytable is None:
        raise DomainError(f"there is no paytable {paytable_id}", code="unknown_paytable", field="paytable_id")
    return paytable


def _dealers(usernames: list[str] | None) -> list[User] | None:
    if usernames is None:
        return None
    users = {user.username: user for user in User.objects.filter(username__in=usernames)}
    unknown = [name for name in usernames if name not in users]
    if unknown:
        raise DomainError(f"there is no user {unknown[0]!r}", code="unknown_user", field="dealers")
    return [users[name] for name in dict.fromkeys(usernames)]


class MeApi(APIView):
    @extend_schema(responses={200: MeSerializer}, summary="Who the caller is and the role they act in")
    def get(self, request: Request) -> Response:
        return Response({"username": request.user.get_username(), "role": role_label(request.user)})


class TableListApi(APIView):
    @extend_schema(
        responses={200: TableStateSerializer(many=True)},
        summary="List the tables the caller may see (a dealer: the tables assigned to them)",
        operation_id="tables_list",
    )
    def get(self, request: Request) -> Response:
        require_reader(request.user)
        return Response([table_state(table) for table in table_list(request.user)])

    @extend_schema(
        request=TableCreateSerializer,
        responses={201: TableStateSerializer},
        summary="Create a table of any type (floor): limits in cents, a paytable for Triple Draw, dealers",
        operation_id="tables_create",
    )
    def post(self, request: Request) -> Response:
        require_floor(request.user, "create a table")
        data = TableCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        given: dict[str, Any] = data.validated_data
        paytable = _paytable(given.get("paytable_id"))
        dealers = _dealers(given.get("dealers"))
        table = _create(request, given, paytable, dealers or [])
        return Response(table_state(table), status=status.HTTP_201_CREATED)


class TableDetailApi(APIView):
    @extend_schema(
        parameters=[if_none_match("table")],
        responses={200: answer(TableStateSerializer, "the table's state and ETag"), 304: NOT_MODIFIED},
        summary="A table: limits, paytable, dealers, seats, current round",
    )
    def get(self, request: Request, table_id: int) -> Response:
        table = table_for(request, table_id)
        # The token is read before the state itself, so it is never newer than the body it is sent with.
        return not_modified_or(request, table_token(table), lambda: Response(table_state(table)))

    @extend_schema(
        request=TableUpdateSerializer,
        responses={200: TableStateSerializer},
        summary="Change a table (floor): name, card source, limits in cents, paytable, dealers; all or nothing",
    )
    def patch(self, request: Request, table_id: int) -> Response:
        table = table_for(request, table_id)
        require_floor(request.user, "change a table")
        data = TableUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        given: dict[str, Any] = data.validated_data
        if "table_type" in given and given["table_type"] != table.table_type:
            raise DomainError(
                "a table's type is fixed once it exists: create a new table instead",
                code="table_type_fixed",
                field="table_type",
            )
        table = table_change(
            table=table,
            actor=request_user(request),
            name=given.get("name"),
            card_source=given.get("card_source"),
            limits={field: given[field] for field in LIMIT_FIELDS if field in given},
            paytable=_paytable(given.get("paytable_id")),
            dealers=_dealers(given.get("dealers")),
        )
        return Response(table_state(table))


class TableOpenApi(APIView):
    @extend_schema(request=None, responses={200: TableStateSerializer}, summary="Open a table (floor)")
    def post(self, request: Request, table_id: int) -> Response:
        return Response(table_state(table_open(table=table_for(request, table_id), actor=request_user(request))))


class TableCloseApi(APIView):
    @extend_schema(request=None, responses={200: TableStateSerializer}, summary="Close a table (floor)")
    def post(self, request: Request, table_id: int) -> Response:
        return Response(table_state(table_close(table=table_for(request, table_id), actor=request_user(request))))


class TablePaytableApi(APIView):
    class TablePaytableInputSerializer(serializers.Serializer):  # type: ignore[type-arg]
        paytable_id = WholeNumberField()

    @extend_schema(
        request=TablePaytableInputSerializer,
        responses={200: TableStateSerializer},
        summary="Put an approved paytable on a table",
    )
    def post(self, request: Request, table_id: int) -> Response:
        data = self.TablePaytableInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        paytable = get_object_or_404(Paytable, pk=data.validated_data["paytable_id"])
        table = table_set_paytable(table=table_for(request, table_id), paytable=paytable, actor=request_user(request))
        return Response(table_state(table))


class TableDealersApi(APIView):
    class TableDealersInputSerializer(serializers.Serializer):  # type: ignore[type-arg]
        username = serializers.CharField(max_length=150)
        assigned = serializers.BooleanField(default=True)

    @extend_schema(
        request=TableDealersInputSerializer,
        responses={200: TableStateSerializer},
        summary="Assign or unassign a dealer (floor)",
    )
    def post(self, request: Request, table_id: int) -> Response:
        data = self.TableDealersInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        dealer = get_object_or_404(User, username=data.validated_data["username"])
        service = table_assign_dealer if data.validated_data["assigned"] else table_unassign_dealer
        table = service(table=table_for(request, table_id), dealer=dealer, actor=request_user(request))
        return Response(table_state(table))


class SeatJoinApi(APIView):
    class SeatJoinInputSerializer(serializers.Serializer):  # type: ignore[type-arg]
        seat = WholeNumberField()
        player_name = serializers.CharField(required=False, allow_blank=True, default="", max_length=100)
        player_card = serializers.CharField(required=False, allow_blank=True, default="", max_length=40)

    @extend_schema(request=SeatJoinInputSerializer, responses={200: TableStateSerializer}, summary="Seat a player")
    def post(self, request: Request, table_id: int) -> Response:
        data = self.SeatJoinInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        table = table_for(request, table_id)
        seat_join(
            table=table,
            seat_number=data.validated_data["seat"],
            player_name=data.validated_data["player_name"],
            player_card=data.validated_data["player_card"],
            actor=request_user(request),
        )
        return Response(table_state(table))


class SeatLeaveApi(APIView):
    @extend_schema(request=None, responses={200: TableStateSerializer}, summary="A player leaves a seat")
    def post(self, request: Request, table_id: int, seat: int) -> Response:
        table = table_for(request, table_id)
        seat_leave(table=table, seat_number=seat, actor=request_user(request))
        return Response(table_state(table))


@transaction.atomic
def _create(request: Request, given: dict[str, Any], paytable: Paytable | None, dealers: list[User]) -> Table:
    """The table and its dealers in one transaction: a refused dealer leaves no table behind."""
    table = table_create(
        name=given["name"],
        table_type=given["table_type"],
        card_source=given["card_source"],
        paytable=paytable,
        actor=request_user(request),
        **{field: given[field] for field in LIMIT_FIELDS if field in given},
    )
    table_set_dealers(table=table, dealers=dealers, actor=request_user(request))
    return Table.objects.select_related("paytable").get(pk=table.pk)
