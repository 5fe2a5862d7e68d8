"""Payout approval: a floor supervisor approves (or refuses) a round whose payout reached the table's threshold."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.services import audit_record
from casino.errors import DomainError
from tables import actions
from tables.access import require_floor
from tables.models import Round
from tables.services.guards import require_phase
from tables.services.locks import lock_round
from tables.services.settlement import ledger_post

Phase = Round.Phase


@transaction.atomic
def round_approve_payout(*, round: Round, actor: User) -> Round:
    """A floor supervisor approves a payout at or above the table's threshold; the ledger is posted now."""
    rnd = lock_round(round)
    require_floor(actor, "approve a payout")
    require_phase(rnd, Phase.AWAITING_APPROVAL, action="approve the payout")
    ledger_post(rnd)
    rnd.phase = Phase.SETTLED
    rnd.approved_by = actor
    rnd.approved_at = timezone.now()
    rnd.settled_at = rnd.approved_at
    rnd.save(update_fields=["phase", "approved_by", "approved_at", "settled_at"])
    audit_record(
        action=actions.ROUND_APPROVE_PAYOUT,
        obj=rnd,
        table=rnd.table,
        round=rnd,
        before={"phase": Phase.AWAITING_APPROVAL},
        after={"phase": rnd.phase},
        approver=actor,
        actor=actor,
    )
    return rnd


@transaction.atomic
def round_refuse_payout(*, round: Round, reason: str, actor: User) -> Round:
    """A floor supervisor refuses a payout awaiting approval, with a reason: nothing is paid and the round is
    voided (its stakes go back, as for any void); the outcomes stay on record for review."""
    rnd = lock_round(round)
    require_floor(actor, "refuse a payout")
    reason = (reason or "").strip()
    if not reason:
        raise DomainError("refusing a payout needs a reason", code="reason_required", field="reason")
    require_phase(rnd, Phase.AWAITING_APPROVAL, action="refuse the payout")
    rnd.phase = Phase.VOIDED
    rnd.void_reason = f"Payout refused: {reason}"
    rnd.voided_at = timezone.now()
    rnd.save(update_fields=["phase", "void_reason", "voided_at"])
    audit_record(
        action=actions.ROUND_REFUSE_PAYOUT,
        obj=rnd,
        table=rnd.table,
        round=rnd,
        before={"phase": Phase.AWAITING_APPROVAL},
        after={"phase": rnd.phase},
        reason=reason,
        approver=actor,
        actor=actor,
    )
    return rnd
