"""The compliance exception rules: which events, amounts and delays make an exception, and their thresholds.

Two kinds of rule. An action declared with an exception kind (void, correction, floor ruling, approval, a change of
a table's limits, threshold or cap, a sign-in lockout) classifies its event when it is recorded (`classify`).
The others need more than one event: a seat paid at least the reporting threshold in a round, a seat's payouts in a
gaming day reaching the cash-reporting threshold, a paytable put in use with a theoretical return outside the band,
a round settled long after its rows; audit/exception_scan.py applies them to the sealed chain.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from django.conf import settings

from audit.actions import AuditAction, ExceptionKind

PAYOUT_KEY = re.compile(r"(^|_)(return|payout|paid|win)(_total)?_cents$")

# Stored action codes the multi-event rules read (codes never change; audit does not import the apps above it).
SETTLEMENT_ACTIONS = frozenset({"round_settlement"})
# A payout held for the floor is paid when approved: its reporting cases are filed then, not at the settlement.
PAYOUT_APPROVAL_ACTIONS = frozenset({"round_approve_payout"})
ROWS_ACTIONS = frozenset({"rows_record"})
PAYTABLE_IN_USE_ACTIONS = frozenset({"paytable_mark_active"})
PAYTABLE_OUT_OF_USE_ACTIONS = frozenset({"paytable_mark_inactive"})
PAYTABLE_RETURN_ACTIONS = ("paytable_analysis_done", "paytable_analysis_copied")


def reporting_threshold_cents() -> int:
    """AUDIT_REPORTING_THRESHOLD_CENTS: a payout at or above it is reported (default $1,200, the US W-2G level)."""
    return int(getattr(settings, "AUDIT_REPORTING_THRESHOLD_CENTS", 120_000))


def cash_reporting_threshold_cents() -> int:
    """AUDIT_CASH_REPORTING_THRESHOLD_CENTS: a seat paid this much in a gaming day is an exception (default $10,000)."""
    return int(getattr(settings, "AUDIT_CASH_REPORTING_THRESHOLD_CENTS", 1_000_000))


def paytable_return_band() -> tuple[Fraction, Fraction]:
    """AUDIT_PAYTABLE_RETURN_MIN and _MAX: a paytable put in use must return within [min, max] (default 85%-100%)."""
    low = Fraction(str(getattr(settings, "AUDIT_PAYTABLE_RETURN_MIN", "0.85")))
    high = Fraction(str(getattr(settings, "AUDIT_PAYTABLE_RETURN_MAX", "1.0")))
    return low, high


def late_settlement_seconds() -> int:
    """AUDIT_LATE_SETTLEMENT_SECONDS: a round settled longer than this after its rows were recorded (default 60)."""
    return int(getattr(settings, "AUDIT_LATE_SETTLEMENT_SECONDS", 60))


def large_payout_threshold_cents() -> int:
    """A payout recorded on one event at or above the reporting threshold is a large payout."""
    return reporting_threshold_cents()


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
        # A settlement records the whole round's returns; the queue judges each seat instead (exception_scan).
        return ExceptionKind.LARGE_PAYOUT
    return ExceptionKind.NONE


def parse_return(value: Any) -> Fraction | None:
    """A stored theoretical return ("411699083729/415275635775", "0.99", 0.99) as a fraction; None if unreadable."""
    try:
        return Fraction(str(value)) if value is not None and not isinstance(value, bool) else None
    except (ValueError, ZeroDivisionError):
        return None


def return_in_band(value: Fraction) -> bool:
    low, high = paytable_return_band()
    return low <= value <= high
