"""The hash chain: sha256 over the previous hash and a canonical JSON of an event's business fields."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Mapping
from typing import Any

GENESIS_HASH = "0" * 64

# Every business field of AuditEvent, in the form `values()` returns them. The hash fields themselves
# (prev_hash, hash) are not hashed; `sequence` is, so reordering sealed events breaks the chain.
HASHED_FIELDS = (
    "id",
    "sequence",
    "occurred_at",
    "actor_id",
    "actor_username",
    "actor_role",
    "actor_kind",
    "action",
    "exception_kind",
    "object_type",
    "object_id",
    "object_repr",
    "table_id",
    "table_repr",
    "round_id",
    "round_repr",
    "seat_number",
    "before",
    "after",
    "reason",
    "approver_id",
    "approver_username",
    "correlation_id",
    "client_address",
)


def _timestamp(value: dt.datetime) -> str:
    # One spelling whatever the database returns: UTC, microseconds, "Z".
    if value.tzinfo is None:
        value = value.replace(tzinfo=dt.UTC)
    return value.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def canonical_json(event: Mapping[str, Any]) -> str:
    """Sorted keys, no whitespace, UTF-8 text: the same bytes for the same event on any backend."""
    data: dict[str, Any] = {}
    for name in HASHED_FIELDS:
        value = event[name]
        if isinstance(value, dt.datetime):
            value = _timestamp(value)
        data[name] = value
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def event_hash(prev_hash: str, event: Mapping[str, Any]) -> str:
    digest = hashlib.sha256()
    digest.update(prev_hash.encode("ascii"))
    digest.update(b"\n")
    digest.update(canonical_json(event).encode("utf-8"))
    return digest.hexdigest()
