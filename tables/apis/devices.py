"""Shoe device credentials API (floor only): issue a table's shoe token, shown once, and revoke one."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_time import api_time
from casino.users import request_user
from tables.access import require_floor
from tables.apis.common import table_for
from tables.models import TableDevice
from tables.services.devices import device_create, device_revoke


class DeviceSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    table_id = serializers.IntegerField()
    name = serializers.CharField()
    active = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(allow_null=True)
    last_refused_at = serializers.DateTimeField(allow_null=True)
    last_refusal = serializers.DictField(help_text="the last refused report: cards, code, message (empty if none)")


class DeviceIssuedSerializer(DeviceSerializer):
    token = serializers.CharField(help_text="send as 'Authorization: Device <token>'; shown this once only")


def device_answer(device: TableDevice) -> dict[str, Any]:
    return {"id": device.pk, "table_id": device.table_id, "name": device.name, "active": device.active,
            "created_at": api_time(device.created_at), "last_used_at": api_time(device.last_used_at),
            "last_refused_at": api_time(device.last_refused_at), "last_refusal": device.last_refusal or {}}


class TableDeviceCreateApi(APIView):
    class TableDeviceInputSerializer(serializers.Serializer):  # type: ignore[type-arg]
        name = serializers.CharField(max_length=60, help_text="unique at the table, e.g. 'shoe 1'")

    @extend_schema(
        request=TableDeviceInputSerializer,
        responses={201: DeviceIssuedSerializer},
        summary="Issue a card-reading shoe's token for a shoe table (floor); the token is shown once",
    )
    def post(self, request: Request, table_id: int) -> Response:
        actor = request_user(request)
        require_floor(actor, "issue a device credential")
        table = table_for(request, table_id)
        data = self.TableDeviceInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        device, token = device_create(table=table, name=data.validated_data["name"], actor=actor)
        return Response({**device_answer(device), "token": token}, status=status.HTTP_201_CREATED)


class DeviceRevokeApi(APIView):
    @extend_schema(request=None, responses={200: DeviceSerializer},
                   summary="Revoke a card-reading shoe's token (floor): its reports are refused from now on")
    def post(self, request: Request, device_id: int) -> Response:
        actor = request_user(request)
        require_floor(actor, "revoke a device credential")
        device = get_object_or_404(TableDevice.objects.select_related("table"), pk=device_id)
        return Response(device_answer(device_revoke(device=device, actor=actor)))
