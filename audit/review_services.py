"""Exception review: a compliance user takes an exception, adds notes and signs it off; each step is audited.

A reviewer may not sign off an exception they caused (its event's actor or approver): someone else must.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from audit import actions
from audit.models import ExceptionCase, ExceptionNote, ReviewStatus
from audit.roles import COMPLIANCE, has_role
from audit.services import audit_record
from casino.errors import BadInput, NotAllowed, WrongPhase

MAX_NOTE_CHARS = 4000


def _require_reviewer(actor: Any) -> None:
    if not has_role(actor, COMPLIANCE):
        raise NotAllowed("Only compliance reviews exceptions.", code="not_compliance")


def _locked(case: ExceptionCase) -> ExceptionCase:
    return ExceptionCase.objects.select_for_update().get(pk=case.pk)


def _note_text(text: str) -> str:
    cleaned = (text or "").strip()
    if not cleaned:
        raise BadInput("Write a note.", code="note_required", field="text")
    if len(cleaned) > MAX_NOTE_CHARS:
        raise BadInput(f"A note holds at most {MAX_NOTE_CHARS} characters.", code="note_too_long", field="text")
    return cleaned


def _fields(case: ExceptionCase, actor: Any, before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """What every review event records besides its action: the case, where it happened, before/after."""
    return dict(
        obj=case,
        object_repr=f"{case.get_kind_display()}: {case.summary}"[:200],
        table=case.table_id,
        round=case.round_id,
        seat_number=case.seat_number,
        before=before,
        after=after,
        actor=actor,
        exception_kind="",
    )


def _start(case: ExceptionCase, actor: Any) -> None:
    if case.status != ReviewStatus.NEW:
        return
    case.status = ReviewStatus.UNDER_REVIEW
    case.reviewer = actor
    case.reviewer_username = actor.get_username()
    case.save(update_fields=["status", "reviewer", "reviewer_username"])
    audit_record(
        action=actions.EXCEPTION_REVIEW_START,
        **_fields(case, actor, {"status": ReviewStatus.NEW}, {"status": case.status}),
    )


@transaction.atomic
def exception_review_start(*, case: ExceptionCase, actor: Any) -> ExceptionCase:
    """New → under review, with the actor as its reviewer (already under review or closed: nothing changes)."""
    _require_reviewer(actor)
    case = _locked(case)
    _start(case, actor)
    return case


@transaction.atomic
def exception_note_add(*, case: ExceptionCase, actor: Any, text: str) -> ExceptionNote:
    """Add a note (a new exception is then under review); a closed exception takes no more notes."""
    _require_reviewer(actor)
    cleaned = _note_text(text)
    case = _locked(case)
    if case.status == ReviewStatus.CLOSED:
        raise WrongPhase("This exception is signed off and closed.", code="exception_closed")
    _start(case, actor)
    note = ExceptionNote.objects.create(
        case=case, author=actor, author_username=actor.get_username(), text=cleaned, created_at=timezone.now()
    )
    audit_record(action=actions.EXCEPTION_NOTE_ADD, **_fields(case, actor, {}, {"note": cleaned}))
    return note


def caused_by(case: ExceptionCase, actor: Any) -> bool:
    return actor.pk in (case.caused_by_ids or []) or (bool(case.caused_by) and case.caused_by == actor.get_username())


@transaction.atomic
def exception_sign_off(*, case: ExceptionCase, actor: Any, text: str) -> ExceptionCase:
    """Close the exception with a closing note, signed by the actor, who must not be the one who caused it."""
    _require_reviewer(actor)
    cleaned = _note_text(text)
    case = _locked(case)
    if case.status == ReviewStatus.CLOSED:
        raise WrongPhase("This exception is already signed off.", code="exception_closed")
    if caused_by(case, actor):
        raise NotAllowed(
            "You caused this exception, so another compliance user must sign it off.", code="own_exception"
        )
    before = case.status
    ExceptionNote.objects.create(
        case=case, author=actor, author_username=actor.get_username(), text=cleaned, created_at=timezone.now()
    )
    case.status = ReviewStatus.CLOSED
    case.signed_off_by = actor
    case.signed_off_username = actor.get_username()
    case.signed_off_at = timezone.now()
    if not case.reviewer_username:
        case.reviewer = actor
        case.reviewer_username = actor.get_username()
    case.save(
        update_fields=[
            "status",
            "signed_off_by",
            "signed_off_username",
            "signed_off_at",
            "reviewer",
            "reviewer_username",
        ]
    )
    audit_record(
        action=actions.EXCEPTION_SIGN_OFF,
        **_fields(case, actor, {"status": before}, {"status": case.status, "note": cleaned}),
    )
    return case
