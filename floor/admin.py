"""Read-only admin pages for the floor's records: they are written through the floor's screens and services only."""

from __future__ import annotations

from django.contrib import admin
from django.utils import timezone

from casino.admin_money import DollarsAdminMixin
from casino.admin_readonly import ReadOnlyAdmin
from floor.models import ChipCount, ChipSlip, Correction, DealerSession, Drop, Shift, ShiftTableResult, TableHour


class FloorRecordAdmin(DollarsAdminMixin, ReadOnlyAdmin):
    """Shows records (amounts in dollars); every write goes through floor.services (audited)."""


@admin.register(Shift)
class ShiftAdmin(FloorRecordAdmin):
    list_display = ("gaming_day", "code", "status", "starts_at", "ends_at", "closed_by")
    list_filter = ("status", "code")


@admin.register(ShiftTableResult)
class ShiftTableResultAdmin(FloorRecordAdmin):
    list_display = ("shift", "table", "count_win_cents", "system_win_cents", "difference_cents", "flagged")
    list_filter = ("flagged",)


@admin.register(ChipCount)
class ChipCountAdmin(FloorRecordAdmin):
    list_display = ("shift", "table", "kind", "total_cents", "recorded_by")


@admin.register(ChipSlip)
class ChipSlipAdmin(FloorRecordAdmin):
    list_display = ("shift", "table", "kind", "total_cents", "dealer_signer", "floor_signer", "voided_at")


@admin.register(Drop)
class DropAdmin(FloorRecordAdmin):
    list_display = ("shift", "table", "cash_cents", "markers_cents", "counted_by")


@admin.register(Correction)
class CorrectionAdmin(FloorRecordAdmin):
    list_display = ("shift", "table", "item", "corrected_by", "corrected_at", "reason")


@admin.register(DealerSession)
class DealerSessionAdmin(FloorRecordAdmin):
    list_display = ("table", "dealer", "signed_in_at", "signed_out_at")


@admin.register(TableHour)
class TableHourAdmin(FloorRecordAdmin):
    list_display = ("table", "hour", "gaming_day", "shift", "dealer", "rounds", "handle_cents", "win_cents")
    list_filter = ("shift",)

    @admin.display(description="hour", ordering="hour_start")
    def hour(self, row: TableHour) -> str:
        """ "Dec 02 16:00": the admin's "Dec. 2, 2026, 4 p.m." took four lines of a narrow column at 800px."""
        return f"{timezone.localtime(row.hour_start):%b %d %H:%M}"
