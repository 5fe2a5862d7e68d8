"""Records of a shift's table accounting while the shift is open: chip inventories, fills and credits (two
signatures: a dealer and a floor supervisor), voiding a slip, and the drop entered by the count team."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.services import audit_record
from casino.errors import DomainError, WrongPhase
from floor import actions
from floor.access import is_dealer, require_drop_writer, require_floor_writer
from floor.chips import chips_clean, chips_total, count_clean
from floor.models import ChipCount, ChipSlip, Drop
from floor.services.shifts import shift_for_write
from tables.models import Table


def _kind(value: str, choices: Any, field: str) -> str:
    if value not in choices.values:
        allowed = " or ".join(choices.values)
        raise DomainError(f"{field} must be {allowed}, not {value!r}", code=f"bad_{field}", field=field)
    return value


def cents_clean(value: Any, field: str) -> int:
    """A whole, non-negative number of cents."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise DomainError(f"{field} must be a whole number of cents", code="bad_amount", field=field)
    if value < 0:
        raise DomainError(f"{field} cannot be negative ({value})", code="negative_amount", field=field)
    return value


@transaction.atomic
def inventory_record(*, day: date, shift_code: str, table: Table, kind: str, chips: Any, actor: User) -> ChipCount:
    """Record (or, while the shift is open, re-count) a table's opening or closing chip inventory."""
    require_floor_writer(actor, "record a chip inventory")
    kind = _kind(kind, ChipCount.Kind, "kind")
    cleaned = count_clean(chips)
    shift = shift_for_write(day=day, code=shift_code, actor=actor)
    count = ChipCount.objects.select_for_update().filter(shift=shift, table=table, kind=kind).first()
    before = None if count is None else {"chips": count.chips, "total_cents": count.total_cents}
    if count is None:
        count = ChipCount(shift=shift, table=table, kind=kind)
    count.chips = cleaned
    count.total_cents = chips_total(cleaned)
    count.recorded_by = actor
    count.recorded_at = timezone.now()
    count.save()
    audit_record(
        action=actions.CHIP_INVENTORY_RECORD,
        obj=count,
        table=table,
        before=before,
        after={"shift": str(shift), "kind": kind, "chips": cleaned, "total_cents": count.total_cents},
        actor=actor,
    )
    return count


@transaction.atomic
def slip_record(
    *, day: date, shift_code: str, table: Table, kind: str, chips: Any, actor: User, dealer_signer: User | None
) -> ChipSlip:
    """A fill or credit, signed by the floor supervisor recording it and by a dealer (authenticated by the caller)."""
    require_floor_writer(actor, "sign a fill or credit")
    kind = _kind(kind, ChipSlip.Kind, "kind")
    if dealer_signer is None:
        raise DomainError(
            f"a {kind} needs a second signature: the dealer's", code="second_signature_required", field="dealer"
        )
    if dealer_signer.pk == actor.pk:
        raise DomainError(f"a {kind} needs two different people", code="same_signer", field="dealer")
    if not is_dealer(dealer_signer):
        raise DomainError(
            f"{dealer_signer.get_username()} is not a dealer: a {kind} is signed by the table's dealer",
            code="signer_not_dealer",
            field="dealer",
        )
    cleaned = chips_clean(chips)
    total = chips_total(cleaned)
    if total <= 0:
        raise DomainError(f"a {kind} moves at least one chip", code="empty_slip", field="chips")
    shift = shift_for_write(day=day, code=shift_code, actor=actor)
    slip = ChipSlip.objects.create(
        shift=shift,
        table=table,
        kind=kind,
        chips=cleaned,
        total_cents=total,
        dealer_signer=dealer_signer,
        floor_signer=actor,
        signed_at=timezone.now(),
    )
    audit_record(
        action=actions.CHIP_FILL_RECORD if kind == "fill" else actions.CHIP_CREDIT_RECORD,
        obj=slip,
        table=table,
        after={"shift": str(shift), "chips": cleaned, "total_cents": total, "dealer": dealer_signer.get_username()},
        approver=dealer_signer,
        actor=actor,
    )
    return slip


@transaction.atomic
def slip_void(*, slip: ChipSlip, reason: str, actor: User) -> ChipSlip:
    """Void a fill or credit entered in error, while its shift is open (a closed shift is corrected instead)."""
    require_floor_writer(actor, "void a fill or credit")
    reason = (reason or "").strip()
    if not reason:
        raise DomainError("voiding a slip needs a reason", code="reason_required", field="reason")
    slip = ChipSlip.objects.select_for_update().select_related("shift", "table").get(pk=slip.pk)
    shift = shift_for_write(day=slip.shift.gaming_day, code=slip.shift.code, actor=actor)
    if slip.voided_at is not None:
        raise WrongPhase(f"this {slip.kind} is already void", code="already_void")
    slip.voided_at = timezone.now()
    slip.void_reason = reason
    slip.save(update_fields=["voided_at", "void_reason"])
    audit_record(
        action=actions.CHIP_SLIP_VOID,
        obj=slip,
        table=slip.table,
        before={"voided": False},
        after={"voided": True, "shift": str(shift), "kind": slip.kind, "total_cents": slip.total_cents},
        reason=reason,
        actor=actor,
    )
    return slip


@transaction.atomic
def drop_record(*, day: date, shift_code: str, table: Table, cash_cents: Any, markers_cents: Any, actor: User) -> Drop:
    """Record (or, while the shift is open, re-count) what a table's drop box held: counted cash and markers."""
    require_drop_writer(actor)
    cash = cents_clean(cash_cents, "cash_cents")
    markers = cents_clean(markers_cents, "markers_cents")
    shift = shift_for_write(day=day, code=shift_code, actor=actor)
    drop = Drop.objects.select_for_update().filter(shift=shift, table=table).first()
    before = None if drop is None else {"cash_cents": drop.cash_cents, "markers_cents": drop.markers_cents}
    if drop is None:
        drop = Drop(shift=shift, table=table)
    drop.cash_cents, drop.markers_cents = cash, markers
    drop.counted_by = actor
    drop.recorded_at = timezone.now()
    drop.save()
    audit_record(
        action=actions.DROP_RECORD,
        obj=drop,
        table=table,
        before=before,
        after={"shift": str(shift), "cash_cents": cash, "markers_cents": markers},
        actor=actor,
    )
    return drop
