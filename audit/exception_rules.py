"""Which events the compliance exception report lists: voids, corrections, overrides, approvals, large payouts."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.conf import settings

# Action codes are `<entity>_<verb>` (round_void, round_approve_payout, ...); any of these words marks one.
_WORDS = {
    "void": "void",
    "voided": "void",
    "correct": "correction",
    "correction": "correction",
    "corrected": "correction",
    "amend": "correction",
    "override": "override",
    "overridden": "override",
    "approve": "approval",
    "approved": "approval",
    "approval": "approval",
}
PAYOUT_KEY = re.compile(r"(^|_)(return|payout|paid|win)(_total)?_cents$")


def large_payout_threshold_cents() -> int:
    """AUDIT_LARGE_PAYOUT_CENTS: a payout at or above it is a large payout (default $10,000)."""
    return int(getattr(settings, "AUDIT_LARGE_PAYOUT_CENTS", 1_000_000))


def _largest_payout(after: Mapping[str, Any] | None) -> int:
    if not isinstance(after, Mapping):
        return 0
    amounts = [v for k, v in after.items() if isinstance(v, int) and PAYOUT_KEY.search(str(k))]
    return max(amounts, default=0)


def classify(action: str, after: Mapping[str, Any] | None) -> str:
    """The exception kind of an event from its action code and after-values ("" for an ordinary event)."""
    for word in re.split(r"[._:\-]", action.lower()):
        if word in _WORDS:
            return _WORDS[word]
    if _largest_payout(after) >= large_payout_threshold_cents():
        return "large_payout"
    return ""
