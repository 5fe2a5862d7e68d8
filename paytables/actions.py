"""The audit actions the paytables app records (declared once: code, label, exception kind; see audit/actions.py)."""

from __future__ import annotations

from audit.actions import ExceptionKind, declare

PAYTABLE_CREATE_DRAFT = declare("paytable_create_draft", "Paytable draft created")
PAYTABLE_LINE_SET = declare("paytable_line_set", "Paytable lines changed")
PAYTABLE_APPROVE = declare("paytable_approve", "Paytable approved", exception_kind=ExceptionKind.APPROVAL)
PAYTABLE_RETURN_OVERRIDE = declare(
    "paytable_return_override",
    "Paytable approved with a return outside the band",
    exception_kind=ExceptionKind.OVERRIDE,
)
PAYTABLE_RETIRE = declare("paytable_retire", "Paytable retired")
PAYTABLE_CLONE = declare("paytable_clone", "Paytable cloned")
PAYTABLE_MARK_ACTIVE = declare("paytable_mark_active", "Paytable put in use on a table")
PAYTABLE_MARK_INACTIVE = declare("paytable_mark_inactive", "Paytable no longer in use on any table")
PAYTABLE_ANALYSIS_QUEUE = declare("paytable_analysis_queue", "Paytable analysis queued")
PAYTABLE_ANALYSIS_COPIED = declare("paytable_analysis_copied", "Paytable analysis copied from an identical schedule")
PAYTABLE_ANALYSIS_DONE = declare("paytable_analysis_done", "Paytable analysis finished")
PAYTABLE_ANALYSIS_FAILED = declare("paytable_analysis_failed", "Paytable analysis failed")
