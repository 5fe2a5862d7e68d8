"""Floor API on tables: put a table in a pit; a dealer signs in or out at a table."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_time import api_time
from casino.users import request_user
from floor.access import require_floor_writer
from floor.models import DealerSession
from floor.services.dealers import dealer_sign_in, dealer_sign_out
from floor.services.pits import table_set_pit
from tables.access import require_operator
from tables.models import Table


class TablePitOutputSerializer(serializers.Serializer):  # type: ignore[type-arg]
    table_id = serializers.IntegerField()
    table = serializers.CharField()
    pit = serializers.CharField(allow_blank=True)


class DealerSessionSerializer(serializers.Serializer):  # type: ignore[type-arg]
    table_id = serializers.IntegerField()
    dealer = serializers.CharField()
    signed_in_at = serializers.DateTimeField()
    signed_out_at = serializers.DateTimeField(allow_null=True)


def _session(session: DealerSession) -> dict[str, object]:
    return {
        "table_id": session.table_id,
        "dealer": session.dealer.get_username(),
        "signed_in_at": api_time(session.signed_in_at),
        "signed_out_at": api_time(session.signed_out_at),
    }


class TablePitApi(APIView):
    class TablePitInputSerializer(serializers.Serializer):  # type: ignore[type-arg]
        pit = serializers.CharField(allow_blank=True, max_length=100)

    @extend_schema(
        request=TablePitInputSerializer,
        responses={200: TablePitOutputSerializer},
        summary="Put a table in a pit (floor)",
    )
    def post(self, request: Request, table_id: int) -> Response:
        require_floor_writer(request.user, "assign a table to a pit")
        data = self.TablePitInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        table = table_set_pit(
            table=get_object_or_404(Table, pk=table_id), pit=data.validated_data["pit"], actor=request_user(request)
        )
        return Response({"table_id": table.pk, "table": table.name, "pit": table.pit})


class DealerSignInApi(APIView):
    @extend_schema(
        request=None, responses={201: DealerSessionSerializer}, summary="The calling dealer signs in to deal at a table"
    )
    def post(self, request: Request, table_id: int) -> Response:
        table = get_object_or_404(Table, pk=table_id)
        require_operator(request.user, table)
        return Response(_session(dealer_sign_in(table=table, actor=request_user(request))), status=201)


class DealerSignOutApi(APIView):
    @extend_schema(
        request=None,
        responses={200: DealerSessionSerializer},
        summary="The dealer at a table signs out (or a floor supervisor signs them out)",
    )
    def post(self, request: Request, table_id: int) -> Response:
        table = get_object_or_404(Table, pk=table_id)
        require_operator(request.user, table)
        return Response(_session(dealer_sign_out(table=table, actor=request_user(request))))
