"""Corrections of a closed shift: a floor supervisor changes one record with a reason; the values before and after
are kept (Correction and the audit event) and the table's stored figures are recomputed."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.services import audit_record
from casino.errors import DomainError, WrongPhase
from floor import actions
from floor.access import require_floor_writer
from floor.chips import chips_clean, chips_total, count_clean
from floor.gaming_day import ShiftSpan
from floor.models import ChipCount, ChipSlip, Correction, Drop, Shift, ShiftTableResult
from floor.selectors.books import shift_books
from floor.services.books import cents_clean
from floor.services.shifts import result_fields
from tables.models import Table

Item = Correction.Item


def _apply_count(
    shift: Shift, table: Table, kind: str, chips: Any, actor: User
) -> tuple[dict[str, Any], dict[str, Any]]:
    count = ChipCount.objects.select_for_update().filter(shift=shift, table=table, kind=kind).first()
    if count is None:
        raise DomainError(f"{table.name} has no {kind} inventory in {shift}", code="no_record", field="item")
    before = {"chips": count.chips, "total_cents": count.total_cents}
    cleaned = count_clean(chips)
    count.chips, count.total_cents = cleaned, chips_total(cleaned)
    count.save(update_fields=["chips", "total_cents"])
    return before, {"chips": cleaned, "total_cents": count.total_cents}


def _apply_drop(shift: Shift, table: Table, cash: Any, markers: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    drop = Drop.objects.select_for_update().filter(shift=shift, table=table).first()
    if drop is None:
        raise DomainError(f"{table.name} has no drop in {shift}", code="no_record", field="item")
    before = {"cash_cents": drop.cash_cents, "markers_cents": drop.markers_cents}
    drop.cash_cents, drop.markers_cents = cents_clean(cash, "cash_cents"), cents_clean(markers, "markers_cents")
    drop.save(update_fields=["cash_cents", "markers_cents"])
    return before, {"cash_cents": drop.cash_cents, "markers_cents": drop.markers_cents}


def _apply_slip(
    shift: Shift, table: Table, slip_id: Any, chips: Any
) -> tuple[ChipSlip, dict[str, Any], dict[str, Any]]:
    slips = ChipSlip.objects.select_for_update()
    slip = slips.filter(pk=slip_id).first() if isinstance(slip_id, int) else None
    if slip is None or slip.shift_id != shift.pk or slip.table_id != table.pk:
        raise DomainError(f"no such fill or credit at {table.name} in {shift}", code="no_record", field="slip")
    before = {"kind": slip.kind, "chips": slip.chips, "total_cents": slip.total_cents}
    cleaned = chips_clean(chips)
    total = chips_total(cleaned)
    if total <= 0:
        raise DomainError(f"a {slip.kind} moves at least one chip", code="empty_slip", field="chips")
    slip.chips, slip.total_cents = cleaned, total
    slip.save(update_fields=["chips", "total_cents"])
    return slip, before, {"kind": slip.kind, "chips": cleaned, "total_cents": total}


@transaction.atomic
def shift_correct(
    *,
    shift: Shift,
    table: Table,
    item: str,
    reason: str,
    actor: User,
    chips: Any = None,
    cash_cents: Any = None,
    markers_cents: Any = None,
    slip_id: Any = None,
) -> Correction:
    """Correct one record of a closed shift: an inventory (chips), the drop (cash, markers) or a slip (chips)."""
    require_floor_writer(actor, "correct a closed shift")
    reason = (reason or "").strip()
    if not reason:
        raise DomainError("a correction needs a reason", code="reason_required", field="reason")
    if item not in Item.values:
        raise DomainError(f"item must be one of {', '.join(Item.values)}", code="bad_item", field="item")
    shift = Shift.objects.select_for_update().get(pk=shift.pk)
    if not shift.is_closed:
        raise WrongPhase(f"shift {shift} is open: change the record itself", code="shift_open")
    slip = None
    if item in (Item.OPENING, Item.CLOSING):
        before, after = _apply_count(shift, table, item, chips, actor)
    elif item == Item.DROP:
        before, after = _apply_drop(shift, table, cash_cents, markers_cents)
    else:
        slip, before, after = _apply_slip(shift, table, slip_id, chips)
    correction = Correction.objects.create(
        shift=shift,
        table=table,
        item=item,
        slip=slip,
        before=before,
        after=after,
        reason=reason,
        corrected_by=actor,
        corrected_at=timezone.now(),
    )
    span = ShiftSpan(shift.gaming_day, shift.code, shift.starts_at, shift.ends_at)
    books = shift_books(span, shift, [table])[0]
    result_before = ShiftTableResult.objects.filter(shift=shift, table=table).values("count_win_cents").first()
    fields = result_fields(books)
    ShiftTableResult.objects.update_or_create(shift=shift, table=table, defaults=fields)
    audit_record(
        action=actions.SHIFT_CORRECT,
        obj=correction,
        table=table,
        before={"item": item, **before, "count_win_cents": result_before["count_win_cents"] if result_before else None},
        after={"item": item, **after, "count_win_cents": fields["count_win_cents"], "flagged": fields["flagged"]},
        reason=reason,
        actor=actor,
    )
    return correction
