"""Dealer sign-in and sign-out at a table (from the tablet), so each round knows who dealt it."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from audit.roles import FLOOR, has_role
from audit.services import audit_record
from casino.errors import NotAllowed, WrongPhase
from floor import actions
from floor.access import is_dealer
from floor.models import DealerSession
from tables.access import is_assigned
from tables.models import Table
from tables.services.locks import lock_table


def _close(session: DealerSession, actor: User) -> None:
    session.signed_out_at = timezone.now()
    session.signed_out_by = actor
    session.save(update_fields=["signed_out_at", "signed_out_by"])


@transaction.atomic
def dealer_sign_in(*, table: Table, actor: User) -> DealerSession:
    """The signed-in dealer takes the table: whoever dealt there is signed out, as is the dealer's own session at
    another table (a dealer deals at one table at a time)."""
    if not is_dealer(actor):
        raise NotAllowed("only a dealer signs in to deal at a table", code="dealer_only")
    if not is_assigned(actor, table):
        raise NotAllowed(f"you are not assigned to table {table.name}", code="not_assigned")
    table = lock_table(table)
    current = DealerSession.objects.select_for_update().filter(table=table, signed_out_at__isnull=True).first()
    if current is not None and current.dealer_id == actor.pk:
        raise WrongPhase(f"you are already signed in at {table.name}", code="already_signed_in")
    replaced = []
    open_sessions = DealerSession.objects.select_for_update(of=("self",)).select_related("dealer")
    for session in open_sessions.filter(Q(dealer=actor) | Q(table=table), signed_out_at__isnull=True).order_by("pk"):
        replaced.append({"dealer": session.dealer.get_username(), "table_id": session.table_id})
        _close(session, actor)
    session = DealerSession.objects.create(table=table, dealer=actor, signed_in_at=timezone.now())
    audit_record(
        action=actions.DEALER_SIGN_IN,
        obj=session,
        table=table,
        after={"dealer": actor.get_username(), "signed_out": replaced},
        actor=actor,
    )
    return session


@transaction.atomic
def dealer_sign_out(*, table: Table, actor: User) -> DealerSession:
    """The dealer signs out (or a floor supervisor signs them out)."""
    table = lock_table(table)
    session = (
        DealerSession.objects.select_for_update(of=("self",))
        .select_related("dealer")
        .filter(table=table, signed_out_at__isnull=True)
        .first()
    )
    if session is None:
        raise WrongPhase(f"no dealer is signed in at {table.name}", code="not_signed_in")
    if session.dealer_id != actor.pk and not has_role(actor, FLOOR):
        raise NotAllowed(
            f"{session.dealer.get_username()} is dealing at {table.name}, not you", code="not_your_session"
        )
    _close(session, actor)
    audit_record(
        action=actions.DEALER_SIGN_OUT,
        obj=session,
        table=table,
        before={"dealer": session.dealer.get_username()},
        after={"signed_out_by": actor.get_username()},
        actor=actor,
    )
    return session
