"""OpenAPI post-processing: every operation documents the JSON error shape for its 4xx answers (DESIGN 9)."""

from __future__ import annotations

from typing import Any

ERROR_SCHEMA = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {
                "code": {"type": "string", "description": "stable lowercase code, e.g. bet_outside_limits"},
                "message": {"type": "string", "description": "what was wrong, in plain words"},
                "field": {"type": "string", "description": "the input field at fault, when there is one"},
            },
        }
    },
}
ERROR_RESPONSES = {
    "400": "Bad input: nothing was changed",
    "401": "Not signed in or the token is wrong",
    "403": "The caller's role or table assignment does not allow this",
    "404": "No such object",
    "409": "Wrong phase or a concurrent change: nothing was changed",
}
# Answered before a body is parsed (casino/parsers.py), so only by operations that take one.
BODY_ERROR_RESPONSES = {
    "413": "The request body is larger than API_MAX_BODY_BYTES: nothing was read",
    "415": "The request body is not JSON (send Content-Type: application/json): nothing was read",
}


def add_error_responses(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: add the Error component and the 4xx answers to every operation."""
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    reference = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for path_item in result.get("paths", {}).values():
        for method, operation in path_item.items():
            if method not in {"get", "post", "put", "patch", "delete"}:
                continue
            responses = operation.setdefault("responses", {})
            answers = {**ERROR_RESPONSES, **(BODY_ERROR_RESPONSES if "requestBody" in operation else {})}
            for code, description in answers.items():
                if code == "409" and method == "get":
                    continue  # reads never conflict
                responses.setdefault(code, {"description": description, "content": reference})
    return result
