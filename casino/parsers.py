"""The API's JSON parser: a body size and nesting limit checked before anything is parsed.

DRF reads a JSON body from the request stream, so Django's DATA_UPLOAD_MAX_MEMORY_SIZE never applies to it, and
json.loads recurses once per nesting level: ~1,000 nested brackets raised RecursionError (a 500) on any endpoint,
before its permission check. Here a body over API_MAX_BODY_BYTES is a 413 and one nested deeper than
API_MAX_JSON_DEPTH a 400, both in the error shape, and nothing is parsed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework import exceptions, status
from rest_framework.parsers import JSONParser
from rest_framework.utils import json

# A JSON string (skipped whole, so brackets inside it do not count) or a bracket. Linear: the alternatives in
# the string never overlap, and an unterminated string can only be the last one in the body.
_STRING_OR_BRACKET = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)
_OPEN = frozenset(b"[{")


class RequestTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "request_too_large"
    default_detail = "The request body is too large."


def nesting_exceeds(body: bytes, limit: int) -> bool:
    """Whether any array or object in the JSON text is nested more than `limit` levels deep."""
    depth = 0
    for match in _STRING_OR_BRACKET.finditer(body):
        token = match.group()
        if len(token) != 1:
            continue
        if token[0] in _OPEN:
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


class BoundedJSONParser(JSONParser):
    """DRF's JSONParser with the size and depth limits applied to the raw bytes first."""

    def parse(
        self, stream: IO[bytes] | None, media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
    ) -> Any:
        limit = settings.API_MAX_BODY_BYTES
        request = (parser_context or {}).get("request")
        declared = request.META.get("CONTENT_LENGTH", "") if request is not None else ""
        if declared.isascii() and declared.isdigit() and int(declared) > limit:
            raise RequestTooLarge(f"The request body is larger than {limit} bytes.")
        body = stream.read(limit + 1) if stream is not None else b""
        if len(body) > limit:
            raise RequestTooLarge(f"The request body is larger than {limit} bytes.")
        depth = settings.API_MAX_JSON_DEPTH
        if nesting_exceeds(body, depth):
            raise exceptions.ParseError(f"JSON nested more than {depth} levels deep.", code="too_deeply_nested")
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = body.decode(encoding)
            constant = json.strict_constant if self.strict else None
            return json.loads(text, parse_constant=constant)
        except (ValueError, RecursionError) as exc:
            raise exceptions.ParseError(f"JSON parse error - {str(exc)[:200]}") from exc
