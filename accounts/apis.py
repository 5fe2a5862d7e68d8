"""API sign-in for scripts: trade a username and password for a token, and revoke tokens (thin: parse → service)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate, user_logged_in
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import TokenAuthentication
from accounts.services import api_token_issue, api_token_revoke, api_tokens_revoke_all
from casino.errors import DomainError
from casino.users import request_user

TOKEN = inline_serializer(
    "IssuedToken",
    {
        "token": serializers.CharField(help_text="send as 'Authorization: Token <token>'; shown only now"),
        "expiry": serializers.DateTimeField(allow_null=True),
    },
)


class TokenObtainApi(APIView):
    """POST username and password; throttled per username and per client address (django-axes)."""

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]

    class InputSerializer(serializers.Serializer):  # type: ignore[type-arg]
        username = serializers.CharField(max_length=150)
        password = serializers.CharField(max_length=1024, trim_whitespace=False)

    @extend_schema(request=InputSerializer, responses={200: TOKEN}, summary="Get an API token", auth=[])
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        django_request = request._request
        # The request goes along so axes can count the failure and refuse a locked-out username or address.
        user = authenticate(
            django_request, username=data.validated_data["username"], password=data.validated_data["password"]
        )
        if user is None:
            raise DomainError("Unknown username or wrong password.", code="invalid_credentials")
        issued = api_token_issue(user=user, actor=user)
        # A sign-in like any other: audited, last_login updated, and axes clears the failures counted so far.
        user_logged_in.send(sender=user.__class__, request=django_request, user=user)
        return Response({"token": issued.token, "expiry": issued.expiry}, status=status.HTTP_200_OK)


class TokenLogoutApi(APIView):
    """Revoke the token this request is authenticated with."""

    authentication_classes = [TokenAuthentication]
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: None}, summary="Revoke this API token")
    def post(self, request: Request) -> Response:
        api_token_revoke(api_token=request.auth, actor=request_user(request), reason="logout")  # type: ignore[arg-type]
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokenLogoutAllApi(APIView):
    """Revoke every token of the signed-in user (a lost laptop, a leaked script)."""

    authentication_classes = [TokenAuthentication]
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: None}, summary="Revoke all my API tokens")
    def post(self, request: Request) -> Response:
        api_tokens_revoke_all(user=request_user(request), actor=request_user(request), reason="logout from everywhere")
        return Response(status=status.HTTP_204_NO_CONTENT)
