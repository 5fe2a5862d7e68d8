"""Which events the compliance exception report lists: what the action's declaration says, and large payouts."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.conf import settings

from audit.actions import AuditAction, ExceptionKind

PAYOUT_KEY = re.compile(r"(^|_)(return|payout|paid|win)(_total)?_cents$")


def large_payout_threshold_cents() -> int:
    """AUDIT_LARGE_PAYOUT_CENTS: a payout at or above it is a large payout (default $10,000)."""
    return int(getattr(settings, "AUDIT_LARGE_PAYOUT_CENTS", 1_000_000))


def _largest_payout(after: Mapping[str, Any] | None) -> int:
    if not isinstance(after, Mapping):
        return 0
    amounts = [v for k, v in after.items() if isinstance(v, int) and PAYOUT_KEY.search(str(k))]
    return max(amounts, default=0)


def classify(action: AuditAction, after: Mapping[str, Any] | None) -> str:
    """The exception kind of an event: its action's declared kind, else large_payout by amount, else ""."""
    if action.exception_kind:
        return action.exception_kind
    if _largest_payout(after) >= large_payout_threshold_cents():
        return ExceptionKind.LARGE_PAYOUT
    return ExceptionKind.NONE
