"""The registry of audit actions: every action the product records, declared once with its label and exception kind.

Each app declares its own in `<app>/actions.py` (audit's are at the end of this module) and records by the
declaration: `audit_record(action=actions.PAYTABLE_APPROVE, ...)`. The code is what is stored and hashed, so it
never changes; the label is what a compliance officer reads; the exception kind puts the action in the
compliance exception report. Recording a code nobody declared raises at once. The audit app imports every
installed app's `actions` module when Django starts, so labels are known in every process.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from django.db import models

CODE_PATTERN = re.compile(r"^[a-z][a-z0-9_]{0,63}$")  # AuditEvent.action holds 64 characters


class ExceptionKind(models.TextChoices):
    """Why an event belongs in the compliance exception report ("" when it does not)."""

    NONE = "", "None"
    VOID = "void", "Void"
    CORRECTION = "correction", "Correction"
    OVERRIDE = "override", "Floor ruling"
    APPROVAL = "approval", "Approval"
    LIMIT_CHANGE = "limit_change", "Limits, threshold or cap changed"
    FAILED_LOGINS = "failed_logins", "Repeated failed sign-ins"
    # Never declared: these follow from amounts and times, whatever the action (see audit/exception_rules.py).
    LARGE_PAYOUT = "large_payout", "Payout at the reporting threshold"
    CASH_REPORTING = "cash_reporting", "Daily win at the cash-reporting threshold"
    PAYTABLE_RETURN = "paytable_return", "Paytable return outside the band"
    LATE_SETTLEMENT = "late_settlement", "Late settlement"


# Kinds the rules derive from amounts, times and other events; no action can be declared with one.
DERIVED_KINDS = frozenset(
    {
        ExceptionKind.LARGE_PAYOUT,
        ExceptionKind.CASH_REPORTING,
        ExceptionKind.PAYTABLE_RETURN,
        ExceptionKind.LATE_SETTLEMENT,
    }
)


class UndeclaredAction(LookupError):
    """An action code that no app declared: a programming error, raised before anything is written."""


@dataclass(frozen=True)
class AuditAction:
    """One declared action: `code` is stored (stable, lowercase), `label` is shown, `exception_kind` classifies."""

    code: str
    label: str
    exception_kind: str = ExceptionKind.NONE

    def __str__(self) -> str:
        return self.code


class ActionRegistry:
    """Declared actions by code. A code and a label each mean one action, so neither may be declared twice."""

    def __init__(self) -> None:
        self._by_code: dict[str, AuditAction] = {}

    def declare(self, code: str, label: str, *, exception_kind: str = ExceptionKind.NONE) -> AuditAction:
        action = AuditAction(code=code, label=label.strip(), exception_kind=exception_kind)
        if self._by_code.get(code) == action:
            return action  # the same module imported again: the same declaration
        if not CODE_PATTERN.match(code):
            raise ValueError(f"audit action code {code!r} must be lowercase letters, digits and _ (64 at most)")
        if not action.label:
            raise ValueError(f"audit action {code!r} needs a label")
        if exception_kind not in ExceptionKind.values or exception_kind in DERIVED_KINDS:
            raise ValueError(f"audit action {code!r}: exception kind {exception_kind!r} cannot be declared")
        if code in self._by_code:
            raise ValueError(f"audit action {code!r} is declared twice")
        if any(other.label.lower() == action.label.lower() for other in self._by_code.values()):
            raise ValueError(f"two audit actions are labelled {action.label!r}")
        self._by_code[code] = action
        return action

    def get(self, action: AuditAction | str) -> AuditAction:
        """The declaration of an action or code; UndeclaredAction if no app declared it."""
        code = action.code if isinstance(action, AuditAction) else action
        declared = self._by_code.get(code)
        if declared is None or (isinstance(action, AuditAction) and action != declared):
            raise UndeclaredAction(
                f"audit action {code!r} is not declared: add it to its app's actions.py with a label"
            )
        return declared

    def label(self, code: str) -> str:
        """What compliance reads for a stored code; a code no longer declared is shown as it was stored."""
        declared = self._by_code.get(code)
        return declared.label if declared is not None else code

    def codes_labelled(self, text: str) -> list[str]:
        """Codes whose label contains `text` (any case): compliance searches by what it reads."""
        wanted = text.strip().lower()
        return [a.code for a in self._by_code.values() if wanted and wanted in a.label.lower()]

    def choices(self) -> list[tuple[str, str]]:
        """(code, label) of every declared action, by label."""
        return sorted(((a.code, a.label) for a in self._by_code.values()), key=lambda pair: pair[1].lower())

    def __contains__(self, code: object) -> bool:
        return code in self._by_code

    def __iter__(self) -> Iterator[AuditAction]:
        return iter(list(self._by_code.values()))

    def __len__(self) -> int:
        return len(self._by_code)


# The product's one registry.
ACTIONS = ActionRegistry()
declare = ACTIONS.declare

# --- the audit app's own actions ---------------------------------------------------------------------------

USER_LOGIN = declare("user_login", "Signed in")
USER_LOGOUT = declare("user_logout", "Signed out")
ADMIN_ADD = declare("admin_add", "Added in the admin")
ADMIN_CHANGE = declare("admin_change", "Changed in the admin")
ADMIN_DELETE = declare("admin_delete", "Deleted in the admin")
AUDIT_EXPORT = declare("audit_export", "Audit trail exported")
EXCEPTION_REVIEW_START = declare("exception_review_start", "Exception review started")
EXCEPTION_NOTE_ADD = declare("exception_note_add", "Exception note added")
EXCEPTION_SIGN_OFF = declare("exception_sign_off", "Exception signed off")
CHAIN_VERIFY_REQUEST = declare("chain_verify_request", "Chain verification requested")
DAILY_REPORT_CREATE = declare("daily_report_create", "Daily compliance report produced")
