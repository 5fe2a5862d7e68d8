"""Writes to tables (create, open, close, limits, paytable, dealers): lock, check, persist, audit."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from audit.roles import DEALER, has_role
from audit.services import audit_record
from casino.errors import DomainError, WrongPhase
from paytables.models import Paytable, PaytableStatus
from paytables.services import paytable_mark_in_use
from tables import actions
from tables.access import require_floor
from tables.models import CardSource, Seat, Table, TableType, seat_limit
from tables.selectors.rounds import round_in_play
from tables.services.locks import lock_table

USABLE_PAYTABLE = (PaytableStatus.APPROVED, PaytableStatus.ACTIVE)


@transaction.atomic
def table_create(
    *,
    name: str,
    actor: User,
    table_type: str = TableType.TRIPLE_DRAW,
    card_source: str = CardSource.MANUAL,
    min_bet_cents: int = 500,
    max_bet_cents: int = 50_000,
    max_payout_per_seat_cents: int = 10_000_000,
    supervisor_approval_threshold_cents: int = 1_000_000,
    paytable: Paytable | None = None,
) -> Table:
    require_floor(actor, "create a table")
    if card_source not in CardSource.values:
        raise DomainError(f"unknown card source {card_source!r}", code="bad_card_source", field="card_source")
    if table_type not in TableType.values:
        raise DomainError(f"unknown table type {table_type!r}", code="bad_table_type", field="table_type")
    if not 0 < min_bet_cents <= max_bet_cents:
        raise DomainError("limits must satisfy 0 < min <= max", code="bad_limits", field="min_bet_cents")
    if Table.objects.filter(name=name).exists():
        raise DomainError(f"a table named {name!r} exists", code="duplicate_name", field="name")
    if paytable is not None and paytable.status not in USABLE_PAYTABLE:
        raise DomainError(f"{paytable} is {paytable.status}, not approved", code="paytable_not_approved")
    table = Table.objects.create(
        name=name,
        table_type=table_type,
        card_source=card_source,
        min_bet_cents=min_bet_cents,
        max_bet_cents=max_bet_cents,
        max_payout_per_seat_cents=max_payout_per_seat_cents,
        supervisor_approval_threshold_cents=supervisor_approval_threshold_cents,
        paytable=paytable,
    )
    Seat.objects.bulk_create([Seat(table=table, number=n) for n in range(1, seat_limit(table_type) + 1)])
    if paytable is not None:
        paytable_mark_in_use(paytable, in_use=True, actor=actor)
    audit_record(action=actions.TABLE_CREATE, obj=table, table=table, after=_table_settings(table), actor=actor)
    return table


def _table_settings(table: Table) -> dict[str, Any]:
    return {
        "name": table.name,
        "table_type": table.table_type,
        "card_source": table.card_source,
        "is_open": table.is_open,
        "min_bet_cents": table.min_bet_cents,
        "max_bet_cents": table.max_bet_cents,
        "max_payout_per_seat_cents": table.max_payout_per_seat_cents,
        "supervisor_approval_threshold_cents": table.supervisor_approval_threshold_cents,
        "paytable_id": table.paytable_id,
    }


@transaction.atomic
def table_open(*, table: Table, actor: User) -> Table:
    require_floor(actor, "open a table")
    table = lock_table(table)
    if table.is_open:
        raise WrongPhase(f"table {table.name} is already open", code="already_open")
    table.is_open = True
    table.save(update_fields=["is_open"])
    audit_record(
        action=actions.TABLE_OPEN,
        obj=table,
        table=table,
        before={"is_open": False},
        after={"is_open": True},
        actor=actor,
    )
    return table


@transaction.atomic
def table_close(*, table: Table, actor: User) -> Table:
    require_floor(actor, "close a table")
    table = lock_table(table)
    if not table.is_open:
        raise WrongPhase(f"table {table.name} is already closed", code="already_closed")
    in_play = round_in_play(table)
    if in_play is not None:
        raise WrongPhase(
            f"round {in_play.number} is still {in_play.phase}: settle or void it first", code="round_in_play"
        )
    table.is_open = False
    table.save(update_fields=["is_open"])
    audit_record(
        action=actions.TABLE_CLOSE,
        obj=table,
        table=table,
        before={"is_open": True},
        after={"is_open": False},
        actor=actor,
    )
    return table


@transaction.atomic
def table_update_limits(
    *,
    table: Table,
    actor: User,
    min_bet_cents: int,
    max_bet_cents: int,
    max_payout_per_seat_cents: int,
    supervisor_approval_threshold_cents: int,
) -> Table:
    require_floor(actor, "change table limits")
    table = lock_table(table)
    if not 0 < min_bet_cents <= max_bet_cents:
        raise DomainError("limits must satisfy 0 < min <= max", code="bad_limits", field="min_bet_cents")
    if max_payout_per_seat_cents < 0 or supervisor_approval_threshold_cents < 0:
        raise DomainError("caps and thresholds cannot be negative", code="bad_limits")
    before = _table_settings(table)
    table.min_bet_cents = min_bet_cents
    table.max_bet_cents = max_bet_cents
    table.max_payout_per_seat_cents = max_payout_per_seat_cents
    table.supervisor_approval_threshold_cents = supervisor_approval_threshold_cents
    table.save()
    audit_record(
        action=actions.TABLE_UPDATE_LIMITS,
        obj=table,
        table=table,
        before=before,
        after=_table_settings(table),
        actor=actor,
    )
    return table


@transaction.atomic
def table_set_paytable(*, table: Table, paytable: Paytable, actor: User) -> Table:
    """Put an approved (or active) paytable version in force for the next rounds; a round keeps its locked one."""
    require_floor(actor, "set a table's paytable")
    table = lock_table(table)
    if paytable.status not in USABLE_PAYTABLE:
        raise DomainError(
            f"{paytable} is {paytable.status}: only an approved or active version may be put on a table",
            code="paytable_not_approved",
            field="paytable",
        )
    previous = table.paytable
    before = {"paytable_id": table.paytable_id, "paytable": str(previous) if previous else None}
    table.paytable = paytable
    table.save(update_fields=["paytable"])
    paytable_mark_in_use(paytable, in_use=True, actor=actor)
    if previous is not None and previous.pk != paytable.pk and not previous.tables.exists():
        paytable_mark_in_use(previous, in_use=False, actor=actor)
    audit_record(
        action=actions.TABLE_SET_PAYTABLE,
        obj=table,
        table=table,
        before=before,
        after={"paytable_id": paytable.pk, "paytable": str(paytable)},
        actor=actor,
    )
    return table


@transaction.atomic
def table_assign_dealer(*, table: Table, dealer: User, actor: User) -> Table:
    require_floor(actor, "assign dealers")
    table = lock_table(table)
    if not has_role(dealer, DEALER) or dealer.is_superuser:
        raise DomainError(f"{dealer.username} is not a dealer", code="not_a_dealer", field="dealer")
    if table.dealers.filter(pk=dealer.pk).exists():
        raise DomainError(f"{dealer.username} is already assigned to {table.name}", code="already_assigned")
    table.dealers.add(dealer)
    audit_record(
        action=actions.TABLE_ASSIGN_DEALER, obj=table, table=table, after={"dealer": dealer.username}, actor=actor
    )
    return table


@transaction.atomic
def table_unassign_dealer(*, table: Table, dealer: User, actor: User) -> Table:
    require_floor(actor, "unassign dealers")
    table = lock_table(table)
    if not table.dealers.filter(pk=dealer.pk).exists():
        raise DomainError(f"{dealer.username} is not assigned to {table.name}", code="not_assigned", field="dealer")
    table.dealers.remove(dealer)
    audit_record(
        action=actions.TABLE_UNASSIGN_DEALER, obj=table, table=table, before={"dealer": dealer.username}, actor=actor
    )
    return table
