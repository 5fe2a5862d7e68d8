"""Writes to tables (create, settings, open, close, limits, paytable, dealers): lock, check, persist, audit."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from audit.roles import DEALER, has_role
from audit.services import audit_record
from casino.engine.money import money
from casino.errors import DomainError, WrongPhase
from paytables.models import Paytable, PaytableStatus
from paytables.services import paytable_mark_in_use
from tables import actions
from tables.access import require_floor
from tables.models import CardSource, HomeGame, Seat, Table, TableType, seat_limit
from tables.selectors.rounds import round_in_play
from tables.services.guards import game_ref, round_ref
from tables.services.locks import lock_table

USABLE_PAYTABLE = (PaytableStatus.APPROVED, PaytableStatus.ACTIVE)
NAME_MAX_LENGTH = Table._meta.get_field("name").max_length or 60
# PositiveIntegerField (bets) and PositiveBigIntegerField (caps) on PostgreSQL.
BET_MAX_CENTS = 2**31 - 1
CAP_MAX_CENTS = 2**63 - 1
LIMIT_FIELDS = ("min_bet_cents", "max_bet_cents", "max_payout_per_seat_cents", "supervisor_approval_threshold_cents")


def check_limits(
    *, min_bet_cents: int, max_bet_cents: int, max_payout_per_seat_cents: int, supervisor_approval_threshold_cents: int
) -> None:
    """The rules a table's limits keep (the forms call this too, to show the message beside the field)."""
    if min_bet_cents <= 0:
        raise DomainError("the minimum bet must be more than $0.00", code="bad_limits", field="min_bet_cents")
    if max_bet_cents < min_bet_cents:
        raise DomainError(
            f"the maximum bet ({money(max_bet_cents)}) is below the minimum bet ({money(min_bet_cents)})",
            code="bad_limits",
            field="max_bet_cents",
        )
    if max_bet_cents > BET_MAX_CENTS:
        raise DomainError(
            f"the maximum bet is at most {money(BET_MAX_CENTS)}", code="bad_limits", field="max_bet_cents"
        )
    for field, value in (
        ("max_payout_per_seat_cents", max_payout_per_seat_cents),
        ("supervisor_approval_threshold_cents", supervisor_approval_threshold_cents),
    ):
        if not 0 <= value <= CAP_MAX_CENTS:
            raise DomainError("caps and thresholds cannot be negative", code="bad_limits", field=field)


def check_name(name: str, *, table: Table | None = None) -> str:
    """A table's name: required, at most 60 characters, unique whatever its case ("pit 1" is "Pit 1" to the floor)."""
    cleaned = (name or "").strip()
    if not cleaned:
        raise DomainError("a table needs a name", code="name_required", field="name")
    if len(cleaned) > NAME_MAX_LENGTH:
        raise DomainError(f"a table name has at most {NAME_MAX_LENGTH} characters", code="name_too_long", field="name")
    others = Table.objects.filter(name__iexact=cleaned)
    if table is not None:
        others = others.exclude(pk=table.pk)
    if others.exists():
        existing = others.values_list("name", flat=True).first()
        raise DomainError(f"a table named {existing!r} exists", code="duplicate_name", field="name")
    return cleaned


def check_paytable(paytable: Paytable | None, table_type: str) -> None:
    """Only Triple Draw tables pay from a paytable, and only an approved (or active) version may be put on one."""
    if paytable is None:
        return
    if table_type != TableType.TRIPLE_DRAW:
        raise DomainError(
            f"a {TableType(table_type).label} table has no paytable (only Triple Draw tables pay from one)",
            code="paytable_not_used",
            field="paytable",
        )
    if paytable.status not in USABLE_PAYTABLE:
        raise DomainError(
            f"{paytable} is {paytable.status}: only an approved or active version may be put on a table",
            code="paytable_not_approved",
            field="paytable",
        )


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
    demo_key: str | None = None,
) -> Table:
    """A new table with its seats; `demo_key` is seed_demo's own mark on the demo tables (tables/demo_keys.py)."""
    require_floor(actor, "create a table")
    _check_card_source(card_source)
    if table_type not in TableType.values:
        raise DomainError(f"unknown table type {table_type!r}", code="bad_table_type", field="table_type")
    check_limits(
        min_bet_cents=min_bet_cents,
        max_bet_cents=max_bet_cents,
        max_payout_per_seat_cents=max_payout_per_seat_cents,
        supervisor_approval_threshold_cents=supervisor_approval_threshold_cents,
    )
    name = check_name(name)
    check_paytable(paytable, table_type)
    table = Table.objects.create(
        name=name,
        table_type=table_type,
        card_source=card_source,
        min_bet_cents=min_bet_cents,
        max_bet_cents=max_bet_cents,
        max_payout_per_seat_cents=max_payout_per_seat_cents,
        supervisor_approval_threshold_cents=supervisor_approval_threshold_cents,
        paytable=paytable,
        demo_key=demo_key,
    )
    Seat.objects.bulk_create([Seat(table=table, number=n) for n in range(1, seat_limit(table_type) + 1)])
    if paytable is not None:
        paytable_mark_in_use(paytable, in_use=True, table=table, actor=actor)
    after = _table_settings(table) | ({"demo_key": demo_key} if demo_key else {})
    audit_record(action=actions.TABLE_CREATE, obj=table, table=table, after=after, actor=actor)
    return table


def _check_card_source(card_source: str) -> None:
    if card_source not in CardSource.values:
        raise DomainError(f"unknown card source {card_source!r}", code="bad_card_source", field="card_source")


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


def check_paytable_to_open(table: Table) -> None:
    """A Triple Draw table opens only with an approved (or active) paytable on it: without one it would take bets
    that no round could settle (closing the bets needs the paytable to lock), so the round could only be voided."""
    if table.table_type != TableType.TRIPLE_DRAW:
        return
    paytable = Paytable.objects.filter(pk=table.paytable_id).first() if table.paytable_id else None
    if paytable is None:
        raise DomainError(
            f"table {table.name} has no paytable: put an approved paytable on it before opening it",
            code="no_paytable",
            field="paytable",
        )
    if paytable.status not in USABLE_PAYTABLE:
        raise DomainError(
            f"{paytable} on table {table.name} is {paytable.status}: put an approved paytable on it before opening it",
            code="paytable_not_approved",
            field="paytable",
        )


@transaction.atomic
def table_open(*, table: Table, actor: User) -> Table:
    require_floor(actor, "open a table")
    table = lock_table(table)
    if table.is_open:
        raise WrongPhase(f"table {table.name} is already open", code="already_open")
    check_paytable_to_open(table)
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
            f"{round_ref(in_play)} is still {in_play.phase}: settle or void it first", code="round_in_play"
        )
    game = HomeGame.objects.filter(table=table, status=HomeGame.Status.OPEN).first()
    if game is not None:
        # A closed table deals no hand (table_closed): the game's stacks and any hand in play would be stranded.
        seated = game.players.filter(left_at__isnull=True).count()
        raise WrongPhase(
            f"{game_ref(game)} is open with {seated} player{'' if seated == 1 else 's'} seated: close the game first "
            "(it cashes everyone out)",
            code="game_open",
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
    check_limits(
        min_bet_cents=min_bet_cents,
        max_bet_cents=max_bet_cents,
        max_payout_per_seat_cents=max_payout_per_seat_cents,
        supervisor_approval_threshold_cents=supervisor_approval_threshold_cents,
    )
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
    paytable = Paytable.objects.get(pk=paytable.pk)  # its status now, not when the caller loaded it
    check_paytable(paytable, table.table_type)
    previous = table.paytable
    before = {"paytable_id": table.paytable_id, "paytable": str(previous) if previous else None}
    table.paytable = paytable
    table.save(update_fields=["paytable"])
    paytable_mark_in_use(paytable, in_use=True, table=table, actor=actor)
    if previous is not None and previous.pk != paytable.pk and not previous.tables.exists():
        paytable_mark_in_use(previous, in_use=False, table=table, actor=actor)
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


@transaction.atomic
def table_update(*, table: Table, actor: User, name: str | None = None, card_source: str | None = None) -> Table:
    """Rename a table or change its card source (not while a round is in play: the round keeps its source)."""
    require_floor(actor, "change a table")
    table = lock_table(table)
    before = _table_settings(table)
    if name is not None:
        table.name = check_name(name, table=table)
    if card_source is not None and card_source != table.card_source:
        _check_card_source(card_source)
        in_play = round_in_play(table)
        if in_play is not None:
            raise WrongPhase(
                f"{round_ref(in_play)} is {in_play.phase}: change the card source between rounds",
                code="round_in_play",
                field="card_source",
            )
        table.card_source = card_source
    after = _table_settings(table)
    if after != before:
        table.save(update_fields=["name", "card_source"])
        audit_record(action=actions.TABLE_UPDATE, obj=table, table=table, before=before, after=after, actor=actor)
    return table


@transaction.atomic
def table_set_dealers(*, table: Table, dealers: Iterable[User], actor: User) -> Table:
    """Make the table's assigned dealers exactly these (each assignment and removal audited on its own)."""
    require_floor(actor, "assign dealers")
    wanted = {dealer.pk: dealer for dealer in dealers}
    current = {dealer.pk: dealer for dealer in table.dealers.all()}
    for pk in sorted(wanted.keys() - current.keys()):
        table_assign_dealer(table=table, dealer=wanted[pk], actor=actor)
    for pk in sorted(current.keys() - wanted.keys()):
        table_unassign_dealer(table=table, dealer=current[pk], actor=actor)
    return table


@transaction.atomic
def table_change(
    *,
    table: Table,
    actor: User,
    name: str | None = None,
    card_source: str | None = None,
    limits: dict[str, int] | None = None,
    paytable: Paytable | None = None,
    dealers: Iterable[User] | None = None,
) -> Table:
    """One edit of a table's settings, all or nothing: what is given and differs is changed through its service."""
    require_floor(actor, "change a table")
    current = Table.objects.get(pk=table.pk)
    if name is not None or card_source is not None:
        table_update(table=current, actor=actor, name=name, card_source=card_source)
    if limits:
        unknown = sorted(set(limits) - set(LIMIT_FIELDS))
        if unknown:
            raise DomainError(f"unknown limit {unknown[0]!r}", code="bad_limits", field=unknown[0])
        wanted = {field: limits.get(field, getattr(current, field)) for field in LIMIT_FIELDS}
        if any(getattr(current, field) != value for field, value in wanted.items()):
            table_update_limits(table=current, actor=actor, **wanted)
    if paytable is not None and paytable.pk != current.paytable_id:
        table_set_paytable(table=current, paytable=paytable, actor=actor)
    if dealers is not None:
        table_set_dealers(table=current, dealers=dealers, actor=actor)
    return Table.objects.select_related("paytable").get(pk=current.pk)
