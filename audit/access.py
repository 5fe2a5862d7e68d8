"""Who may read the compliance screens and audit API: compliance, superusers, or anyone explicitly granted."""

from __future__ import annotations

from typing import Any

from audit.roles import COMPLIANCE, has_role

COMPLIANCE_PERMISSION = "audit.use_compliance_screens"


def can_read_audit(user: Any) -> bool:
    """Floor and dealers are refused unless given the `use_compliance_screens` permission (user or group)."""
    if user is None or not getattr(user, "is_authenticated", False) or not getattr(user, "is_active", False):
        return False
    return has_role(user, COMPLIANCE) or bool(user.has_perm(COMPLIANCE_PERMISSION))
