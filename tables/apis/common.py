"""What the tables API views share: loading a table or round (404, or 403 for a table the caller may not see),
and conditional GETs whose ETag is the read model's change token."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.http import parse_etags
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from casino.errors import NotFound
from casino.sql import beyond_keys, get_with_related
from tables.access import require_table_reader
from tables.models import Round, Table
from tables.selectors.rounds import RoundView
from tables.services.locks import ROUND_RELATED, RoundNotFound


def table_for(request: Request, pk: int) -> Table:
    """The table (404 if there is none); a reader who may not see it (a dealer elsewhere) gets 403."""
    table = None if beyond_keys(pk) else Table.objects.select_related("paytable").filter(pk=pk).first()
    if table is None:
        # Named, as a write to a missing table or round is (Django's 404 said only "Not found.").
        raise NotFound(f"table {pk} does not exist")
    require_table_reader(request.user, table)
    return table


def round_for(request: Request, pk: int) -> Round:
    """The round with its table (404 if there is none); 403 for a reader who may not see its table."""
    rnd = round_loaded(pk)
    require_table_reader(request.user, rnd.table)
    return rnd


def round_loaded(pk: int) -> Round:
    """The round with its table, paytable, dealer and approver (what its answer shows); 404 if there is none."""
    rnd = get_with_related(Round, pk, ROUND_RELATED)
    if rnd is None:
        raise RoundNotFound(f"round {pk} does not exist")
    return rnd


def round_ref(pk: int) -> Round:
    """A reference for a service, which locks and loads the row itself (404 if it does not exist)."""
    return Round(pk=pk)


def round_answer(view: RoundView, code: int = status.HTTP_200_OK) -> Response:
    """The round's state, with its change token as the ETag: a client that acted can poll conditionally at once
    (GET rounds/{id}/ with If-None-Match) and is answered 304 until something else changes the round."""
    response = Response(view.to_dict(), status=code)
    response["ETag"] = f'"{view.token}"'
    response["Cache-Control"] = "private, no-cache"
    return response


def holds_token(request: Request, token: str) -> bool:
    """Does the caller's If-None-Match name this change token?"""
    held = parse_etags(request.headers.get("If-None-Match", ""))
    return f'"{token}"' in held or "*" in held


def not_modified_or(request: Request, token: str, build: Callable[[], Response]) -> Response:
    """304 without a body when the caller already holds the token, else the built answer; both carry the ETag."""
    response = Response(status=status.HTTP_304_NOT_MODIFIED) if holds_token(request, token) else build()
    response["ETag"] = f'"{token}"'
    response["Cache-Control"] = "private, no-cache"
    return response


def if_none_match(what: str) -> OpenApiParameter:
    return OpenApiParameter(
        "If-None-Match",
        OpenApiTypes.STR,
        OpenApiParameter.HEADER,
        description=f"the ETag of a state already held; 304 while the {what} has not changed since",
    )


NOT_MODIFIED = OpenApiResponse(description="not modified: the state held (If-None-Match) is still current")


def answer(schema: Any, description: str = "") -> OpenApiResponse:
    return OpenApiResponse(schema, description=description)
