"""Round services of Triple Draw (DESIGN 5): start a round, close bets, requeue settlement, void, request a void."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.utils import timezone

from audit.roles import DEALER, has_role
from audit.services import audit_record
from casino.errors import DomainError, WrongPhase
from casino.sql import column as col
from casino.sql import insert_rows, placeholders, update_rows
from casino.sql import table as tab
from outbox.jobs import outbox_add
from paytables.selectors import paytable_snapshot
from tables import actions
from tables.access import require_floor, require_operator
from tables.models import Round, Seat, SeatHand, Table, TableType
from tables.services import card_input
from tables.services.floor_calls import floor_call_open
from tables.services.guards import numbered, require_phase, round_ref
from tables.services.locks import lock_round, lock_table
from tables.services.round_rows import betting_seats
from tables.services.tables import USABLE_PAYTABLE

Phase = Round.Phase
SETTLE_ROUND_TASK = "tables.settle_round"  # tables/tasks.py


def queue_settlement(rnd: Round) -> None:
    """Record the settlement job in the caller's transaction (the outbox): it commits with the decision to settle,
    is sent once that commits, and is sent again by the sweeper until it has run (broker down, worker lost)."""
    # Priority 0 is consumed first on Redis (see CELERY_TASK_DEFAULT_PRIORITY): players wait for this job.
    # Not robust: eagerly (embedded mode, tests) a settlement error must surface, as it did before the outbox.
    outbox_add(SETTLE_ROUND_TASK, [rnd.pk], priority=0, robust=False)


@transaction.atomic
def round_start(*, table: Table, actor: User) -> Round:
    require_operator(actor, table)
    table = lock_table(table)
    if table.table_type != TableType.TRIPLE_DRAW:
        raise DomainError(f"table {table.name} is not a Triple Draw table", code="wrong_table_type")
    if not table.is_open:
        raise WrongPhase(f"table {table.name} is closed", code="table_closed")
    if table.paytable_id is None:
        # A table opened before opening required a paytable: refuse here, not at close-bets with bets taken.
        raise DomainError(f"table {table.name} has no paytable: a floor supervisor sets one before a round",
                          code="no_paytable", field="paytable")
    in_play, seated, last = _start_checks(table.pk)
    if in_play is not None:
        raise WrongPhase(f"{numbered('round', in_play[0], in_play[2])} is still {in_play[1]}", code="round_in_play")
    if not seated:
        raise WrongPhase(f"no player is seated at {table.name}: seat a player first", code="no_players")
    rnd = Round(
        table=table,
        number=last + 1,
        phase=Phase.BETTING,
        dealer=actor if has_role(actor, DEALER) and not actor.is_superuser else None,
        started_at=timezone.now(),
    )
    insert_rows([rnd], returning=True)
    audit_record(
        action=actions.ROUND_START,
        obj=rnd,
        table=table,
        round=rnd,
        after={"number": rnd.number, "phase": rnd.phase},
        actor=actor,
    )
    return rnd


def _start_checks(table_id: int) -> tuple[tuple[int, str, int] | None, bool, int]:
    """The table's unfinished round (number, phase, id) if any, whether a player is seated, its last round number: one
    statement (written out: every round starts with these three questions, and three ORM queries cost ~3 ms)."""
    finished_phases = [str(phase) for phase in Round.FINISHED]
    finished = placeholders(len(finished_phases))
    # The unfinished round is read once, as a derived table joined to one row, so no round gives one row of NULLs.
    unfinished_round = (f"SELECT {col(Round, 'number')} AS n, {col(Round, 'phase')} AS p, {col(Round, 'id')} AS i "  # noqa: S608
                        f"FROM {tab(Round)} WHERE {col(Round, 'table')} = %s "
                        f"AND {col(Round, 'phase')} NOT IN ({finished}) LIMIT 1")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT u.n, u.p, u.i, "  # noqa: S608 (names from metadata)
            f"EXISTS (SELECT 1 FROM {tab(Seat)} WHERE {col(Seat, 'table')} = %s AND {col(Seat, 'occupied')}), "
            f"(SELECT MAX({col(Round, 'number')}) FROM {tab(Round)} WHERE {col(Round, 'table')} = %s) "
            f"FROM (SELECT 1 AS one) AS one LEFT JOIN ({unfinished_round}) AS u ON 1 = 1",
            [table_id, table_id, table_id, *finished_phases],
        )
        number, phase, round_id, seated, last = cursor.fetchone()
    unfinished = (int(number), str(phase), int(round_id)) if number is not None else None
    return unfinished, bool(seated), int(last or 0)


@transaction.atomic
def round_close_bets(*, round: Round, actor: User) -> Round:
    """Close betting and lock the table's paytable version on the round."""
    rnd = lock_round(round)
    require_operator(actor, rnd.table)
    require_phase(rnd, Phase.BETTING, action="close bets")
    seats = betting_seats(rnd)
    if not seats:
        raise DomainError("no seat has bet: nothing to close", code="no_bets")
    paytable = rnd.table.paytable
    if paytable is None:
        raise DomainError(f"table {rnd.table.name} has no paytable", code="no_paytable")
    if paytable.status not in USABLE_PAYTABLE:
        raise DomainError(f"{paytable} is {paytable.status}, not approved", code="paytable_not_approved")
    with card_input.engine_errors("paytable"):
        snapshot = paytable_snapshot(paytable)
    rnd.paytable = paytable
    rnd.paytable_snapshot = snapshot
    rnd.phase = Phase.DEALING
    rnd.bets_closed_at = timezone.now()
    update_rows([rnd], ["paytable", "paytable_snapshot", "phase", "bets_closed_at"])
    insert_rows([SeatHand(round=rnd, seat_number=n) for n in seats])
    audit_record(
        action=actions.ROUND_CLOSE_BETS,
        obj=rnd,
        table=rnd.table,
        round=rnd,
        before={"phase": Phase.BETTING},
        after={"phase": rnd.phase, "paytable_id": paytable.pk, "seats": seats},
        actor=actor,
    )
    return rnd


@transaction.atomic
def round_settle(*, round: Round, actor: User) -> Round:
    """Queue (again) the settlement job of a round whose rows are recorded; the job itself is idempotent."""
    rnd = lock_round(round)
    require_operator(actor, rnd.table)
    require_phase(rnd, Phase.SETTLING, action="settle")
    rnd.settle_queued_at = timezone.now()
    update_rows([rnd], ["settle_queued_at"])
    queue_settlement(rnd)
    audit_record(action=actions.ROUND_SETTLE, obj=rnd, table=rnd.table, round=rnd, after={"queued": True}, actor=actor)
    return rnd


@transaction.atomic
def round_void(*, round: Round, reason: str, actor: User) -> Round:
    """A floor supervisor voids an unsettled round, with a reason; bets are returned (no ledger posting exists)."""
    rnd = lock_round(round)
    require_floor(actor, "void a round")
    reason = (reason or "").strip()
    if not reason:
        raise DomainError("a void needs a reason", code="reason_required", field="reason")
    if rnd.phase in Round.FINISHED:
        raise WrongPhase(f"{round_ref(rnd)} is already {rnd.phase}", code="wrong_phase")
    before = rnd.phase
    rnd.phase = Phase.VOIDED
    rnd.void_reason = reason
    rnd.voided_at = timezone.now()
    rnd.save(update_fields=["phase", "void_reason", "voided_at"])
    audit_record(
        action=actions.ROUND_VOID,
        obj=rnd,
        table=rnd.table,
        round=rnd,
        before={"phase": before},
        after={"phase": rnd.phase},
        reason=reason,
        approver=actor,
        actor=actor,
    )
    return rnd


@transaction.atomic
def round_void_request(*, round: Round, reason: str, actor: User) -> Round:
    """A dealer asks the floor to void an unsettled round (only floor may void): an audit event the floor sees."""
    rnd = lock_round(round)
    require_operator(actor, rnd.table)
    reason = (reason or "").strip()
    if not reason:
        raise DomainError("a void request needs a reason", code="reason_required", field="reason")
    if rnd.phase in Round.FINISHED:
        raise WrongPhase(f"{round_ref(rnd)} is already {rnd.phase}", code="wrong_phase")
    audit_record(
        action=actions.ROUND_VOID_REQUEST,
        obj=rnd,
        table=rnd.table,
        round=rnd,
        after={"phase": rnd.phase},
        reason=reason,
        actor=actor,
    )
    return rnd


@transaction.atomic
def round_floor_call(*, round: Round, actor: User, reason: str = "") -> Round:
    """A dealer calls a floor supervisor to the table (a payout to approve, a dispute): an open call the floor's live
    view and the tablet show until a floor supervisor answers it (services/floor_calls.py), and an audit event."""
    rnd = lock_round(round)
    require_operator(actor, rnd.table)
    if rnd.phase in Round.FINISHED:
        # A dispute over a payout comes once the round is settled: the call goes on the table's last round (the one
        # disputed), not on an older one from a screen left behind.
        latest = Round.objects.filter(table=rnd.table).order_by("-number").only("number").first()
        if latest is not None and latest.pk != rnd.pk:
            raise WrongPhase(f"{round_ref(rnd)} is already {rnd.phase} and round {latest.number} came after it: "
                             "call the floor from the table's screen", code="wrong_phase")
    reason = (reason or "").strip()[:200]
    if not reason and rnd.phase == Phase.AWAITING_APPROVAL:
        reason = "payout awaiting approval"
    call = floor_call_open(table=rnd.table, actor=actor, reason=reason, round=rnd)
    audit_record(
        action=actions.ROUND_FLOOR_CALL,
        obj=rnd,
        table=rnd.table,
        round=rnd,
        after={"phase": rnd.phase, "call": call.pk},
        reason=reason,
        actor=actor,
    )
    return rnd
