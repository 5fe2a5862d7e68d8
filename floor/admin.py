"""Read-only admin pages for the floor's records: they are written through the floor's screens and services only."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from casino.admin_money import DollarsAdminMixin
from floor.models import ChipCount, ChipSlip, Correction, DealerSession, Drop, Shift, ShiftTableResult, TableHour


class ReadOnlyAdmin(DollarsAdminMixin, admin.ModelAdmin):  # type: ignore[type-arg]
    """Shows records (amounts in dollars); every write goes through floor.services (audited), so the admin offers
    none."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Shift)
class ShiftAdmin(ReadOnlyAdmin):
    list_display = ("gaming_day", "code", "status", "starts_at", "ends_at", "closed_by")
    list_filter = ("status", "code")


@admin.register(ShiftTableResult)
class ShiftTableResultAdmin(ReadOnlyAdmin):
    list_display = ("shift", "table", "count_win_cents", "system_win_cents", "difference_cents", "flagged")
    list_filter = ("flagged",)


@admin.register(ChipCount)
class ChipCountAdmin(ReadOnlyAdmin):
    list_display = ("shift", "table", "kind", "total_cents", "recorded_by")


@admin.register(ChipSlip)
class ChipSlipAdmin(ReadOnlyAdmin):
    list_display = ("shift", "table", "kind", "total_cents", "dealer_signer", "floor_signer", "voided_at")


@admin.register(Drop)
class DropAdmin(ReadOnlyAdmin):
    list_display = ("shift", "table", "cash_cents", "markers_cents", "counted_by")


@admin.register(Correction)
class CorrectionAdmin(ReadOnlyAdmin):
    list_display = ("shift", "table", "item", "corrected_by", "corrected_at", "reason")


@admin.register(DealerSession)
class DealerSessionAdmin(ReadOnlyAdmin):
    list_display = ("table", "dealer", "signed_in_at", "signed_out_at")


@admin.register(TableHour)
class TableHourAdmin(ReadOnlyAdmin):
    list_display = ("table", "hour_start", "gaming_day", "shift", "dealer", "rounds", "handle_cents", "win_cents")
    list_filter = ("shift",)
