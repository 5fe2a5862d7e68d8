"""Who may use the floor's screens and books: floor runs them, compliance reads them, the count team enters drops."""

from __future__ import annotations

from typing import Any

from audit.roles import COMPLIANCE, COUNT, DEALER, FLOOR, has_role, user_roles
from casino.errors import NotAllowed


def _refuse(actor: Any, what: str) -> None:
    if has_role(actor, COMPLIANCE):
        raise NotAllowed("compliance is read-only", code="read_only")
    raise NotAllowed(f"only a floor supervisor may {what}", code="floor_only")


def require_floor_view(actor: Any) -> None:
    """The live floor view: floor supervisors."""
    if not has_role(actor, FLOOR):
        raise NotAllowed("the floor view is for floor supervisors", code="floor_only")


def require_report_reader(actor: Any) -> None:
    """Reports: floor and compliance."""
    if not has_role(actor, FLOOR, COMPLIANCE):
        raise NotAllowed("reports are for floor supervisors and compliance", code="permission_denied")


def require_books_reader(actor: Any) -> None:
    """Shift accounting sheets: floor, compliance and the count team."""
    if not has_role(actor, FLOOR, COMPLIANCE, COUNT):
        raise NotAllowed("the shift books are for floor, compliance and the count team", code="permission_denied")


def require_floor_writer(actor: Any, what: str) -> None:
    if not has_role(actor, FLOOR):
        _refuse(actor, what)


def require_drop_writer(actor: Any) -> None:
    """The drop is entered by the count team or a floor supervisor."""
    if has_role(actor, FLOOR, COUNT):
        return
    if has_role(actor, COMPLIANCE):
        raise NotAllowed("compliance is read-only", code="read_only")
    raise NotAllowed("only the count team or a floor supervisor may enter the drop", code="count_only")


def is_dealer(user: Any) -> bool:
    """In the dealer group itself (a superuser administers but does not sign as a dealer)."""
    return DEALER in user_roles(user)
