"""Floor calls: a dealer calls a floor supervisor to a table, and the call stays open until the floor answers it."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from audit.services import audit_record
from casino import sql
from casino.errors import BadInput, NotFound, WrongPhase
from tables import actions
from tables.access import require_floor
from tables.models import FloorCall, HomeGame, Round, Table
from tables.services.locks import lock_table

NOTE_MAX = 200


def _hhmm(at: object) -> str:
    return timezone.localtime(at).strftime("%H:%M")  # type: ignore[arg-type]


def _still_open(call: FloorCall, table: Table) -> WrongPhase:
    return WrongPhase(
        f"the floor was already called to {table.name} at {_hhmm(call.called_at)} by "
        f"{call.called_by.get_username()} and has not answered yet: wait for the floor",
        code="floor_call_open",
    )


def floor_call_open(
    *,
    table: Table,
    actor: User,
    reason: str,
    round: Round | None = None,
    game: HomeGame | None = None,
    hand_number: int | None = None,
) -> FloorCall:
    """The call's row, in the caller's transaction (round_floor_call, game_floor_call: they hold the round's or game's
    lock and record the audit event). Refused while a call at the table is still open: one open call per table."""
    standing = FloorCall.objects.filter(table=table, answered_at__isnull=True).select_related("called_by").first()
    if standing is not None:
        raise _still_open(standing, table)
    try:
        return FloorCall.objects.create(table=table, round=round, game=game, hand_number=hand_number,
                                        called_at=timezone.now(), called_by=actor, reason=reason)
    except IntegrityError:
        # A call at the same table committed first (the one-open-call index): the caller's whole transaction rolls
        # back with this refusal, so no savepoint (and no second read in the failed transaction) is needed.
        raise WrongPhase(f"the floor was already called to {table.name} and has not answered yet: wait for the "
                         "floor", code="floor_call_open") from None


@transaction.atomic
def floor_call_answer(*, call: FloorCall | int, actor: User, note: str = "") -> FloorCall:
    """A floor supervisor answers a dealer's call ("on my way"), with an optional short note: the call closes on the
    floor's live view and the tablet shows who answered and when. Audited with the call's id."""
    require_floor(actor, "answer a floor call")
    note = str(note or "").strip()
    if len(note) > NOTE_MAX:
        raise BadInput(f"the note is {len(note)} characters long; at most {NOTE_MAX}", code="note_too_long",
                       field="note")
    pk = call if isinstance(call, int) else call.pk
    calls = FloorCall.objects.filter(pk=pk)
    table_id = None if sql.beyond_keys(pk) else calls.values_list("table_id", flat=True).first()
    if table_id is None:
        raise NotFound(f"floor call {pk} does not exist", code="floor_call_not_found")
    # The table first (the order every table write takes), which also raises its version: the tablet's poll sees it.
    table = lock_table(Table(pk=table_id))
    # Only the call's row: PostgreSQL locks no nullable side of a join (answered_by), and the users need no lock.
    found = FloorCall.objects.select_for_update(of=("self",)).select_related("called_by", "answered_by").get(pk=pk)
    if found.answered_at is not None and found.answered_by is not None:
        raise WrongPhase(
            f"floor call {pk} at {table.name} was already answered by {found.answered_by.get_username()} at "
            f"{_hhmm(found.answered_at)}",
            code="floor_call_answered",
        )
    found.answered_at = timezone.now()
    found.answered_by = actor
    found.note = note
    found.save(update_fields=["answered_at", "answered_by", "note"])
    rnd = Round.objects.get(pk=found.round_id) if found.round_id is not None else None
    game = HomeGame.objects.get(pk=found.game_id) if found.game_id is not None else None
    # On the round or game the call was recorded on: compliance reads the answer beside the call in its timeline.
    audit_record(
        action=actions.FLOOR_CALL_ANSWER,
        obj=rnd or game or table,
        table=table,
        round=rnd,
        before={"answered": False},
        after={"answered": True, "call": found.pk, "called_at": found.called_at.isoformat(),
               "called_by": found.called_by.get_username(), "hand": found.hand_number},
        reason=note,
        actor=actor,
    )
    found.table = table
    return found
