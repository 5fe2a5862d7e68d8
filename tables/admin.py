"""Admin screens of the tables app; every write goes through a service (outcomes and the ledger are read-only)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from audit.admin_actions import ServiceActionsAdmin
from audit.context import acting_as
from casino.errors import DomainError
from casino.users import request_user
from tables.models import Bet, DrawRow, HandOutcome, LedgerEntry, Round, Seat, SeatHand, Table, TableDevice
from tables.services.approvals import round_approve_payout
from tables.services.rounds import round_settle
from tables.services.shoe import device_create, device_revoke
from tables.services.tables import (
    table_assign_dealer,
    table_close,
    table_create,
    table_open,
    table_set_paytable,
    table_unassign_dealer,
    table_update_limits,
)

LIMIT_FIELDS = (
    "min_bet_cents",
    "max_bet_cents",
    "max_payout_per_seat_cents",
    "supervisor_approval_threshold_cents",
)


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Shown for reference; changes happen only through the services (API, tablet, actions)."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _run(
    modeladmin: admin.ModelAdmin[Any], request: HttpRequest, queryset: QuerySet[Any], call: Any, done: str
) -> None:
    count = 0
    with acting_as(user=request_user(request), kind="user"):
        for obj in queryset:
            try:
                call(obj)
                count += 1
            except DomainError as exc:
                modeladmin.message_user(request, f"{obj}: {exc.message}", messages.ERROR)
    if count:
        modeladmin.message_user(request, f"{count} {done}", messages.SUCCESS)


class SeatInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Seat
    extra = 0
    fields = ("number", "occupied", "player_name", "player_card")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(ServiceActionsAdmin):
    list_display = ("name", "table_type", "card_source", "is_open", "min_bet_cents", "max_bet_cents", "paytable")
    list_filter = ("table_type", "card_source", "is_open")
    search_fields = ("name",)
    inlines = [SeatInline]
    actions = ["open_tables", "close_tables"]
    fields = ("name", "table_type", "card_source", *LIMIT_FIELDS, "paytable", "dealers", "is_open")
    filter_horizontal = ("dealers",)

    def get_readonly_fields(self, request: HttpRequest, obj: Table | None = None) -> tuple[str, ...]:
        # Name, type and source are fixed once a table exists; open/close are actions.
        return ("name", "table_type", "card_source", "is_open") if obj else ("is_open",)

    def save_model(self, request: HttpRequest, obj: Table, form: Any, change: bool) -> None:
        data = form.cleaned_data
        with acting_as(user=request_user(request), kind="user"):
            if not change:
                created = table_create(
                    name=data["name"],
                    table_type=data["table_type"],
                    card_source=data["card_source"],
                    paytable=data.get("paytable"),
                    actor=request_user(request),
                    **{field: data[field] for field in LIMIT_FIELDS},
                )
                obj.pk = created.pk
                return
            current = Table.objects.get(pk=obj.pk)
            if any(getattr(current, field) != data[field] for field in LIMIT_FIELDS):
                table_update_limits(table=current, actor=request_user(request), **{f: data[f] for f in LIMIT_FIELDS})
            if data.get("paytable") and data["paytable"].pk != current.paytable_id:
                table_set_paytable(table=current, paytable=data["paytable"], actor=request_user(request))

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        """Dealer assignment goes through the services so each change is audited."""
        table = Table.objects.get(pk=form.instance.pk)
        wanted = set(form.cleaned_data.get("dealers", []))
        current = set(table.dealers.all())
        with acting_as(user=request_user(request), kind="user"):
            for dealer in wanted - current:
                table_assign_dealer(table=table, dealer=dealer, actor=request_user(request))
            for dealer in current - wanted:
                table_unassign_dealer(table=table, dealer=dealer, actor=request_user(request))

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.action(description="Open the selected tables")
    def open_tables(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        _run(self, request, queryset, lambda t: table_open(table=t, actor=request_user(request)), "tables opened")

    @admin.action(description="Close the selected tables")
    def close_tables(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        _run(self, request, queryset, lambda t: table_close(table=t, actor=request_user(request)), "tables closed")


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ("table", "number", "occupied", "player_name", "player_card")
    list_filter = ("table", "occupied")


class _RecordInline(admin.TabularInline):  # type: ignore[type-arg]
    """A round's records, read-only: they change only through the round services."""

    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class BetInline(_RecordInline):
    model = Bet
    readonly_fields = ("seat_number", "circle", "amount_cents", "placed_at")


class SeatHandInline(_RecordInline):
    model = SeatHand
    readonly_fields = ("seat_number", "dealt", "held", "held_at")


class DrawRowInline(_RecordInline):
    model = DrawRow
    readonly_fields = ("row", "cards")


class OutcomeInline(_RecordInline):
    model = HandOutcome
    readonly_fields = ("seat_number", "circle", "cards", "category", "line_hand", "return_cents", "paid_cents")
    exclude = ("bet", "paytable_line", "description")


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ("table", "number", "phase", "paytable", "dealer", "started_at", "settled_at")
    list_filter = ("phase", "table")
    search_fields = ("table__name",)
    inlines = [BetInline, SeatHandInline, DrawRowInline, OutcomeInline]
    actions = ["approve_payouts", "queue_settlement"]

    @admin.action(description="Approve the payout of rounds awaiting approval")
    def approve_payouts(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        _run(self, request, queryset, lambda r: round_approve_payout(round=r, actor=request_user(request)), "approved")

    @admin.action(description="Queue settlement again (rounds in settling)")
    def queue_settlement(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        _run(self, request, queryset, lambda r: round_settle(round=r, actor=request_user(request)), "queued")


@admin.register(Bet)
class BetAdmin(ReadOnlyAdmin):
    list_display = ("round", "seat_number", "circle", "amount_cents", "placed_at")
    list_filter = ("round__table",)


@admin.register(HandOutcome)
class HandOutcomeAdmin(ReadOnlyAdmin):
    list_display = ("round", "seat_number", "circle", "category", "line_hand", "return_cents", "paid_cents")
    list_filter = ("category", "round__table")


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    list_display = ("round", "bet", "account", "seat_number", "amount_cents", "posted_at")
    list_filter = ("account", "table")


@admin.register(TableDevice)
class TableDeviceAdmin(ServiceActionsAdmin):
    """Issue a shoe credential (its token is shown once, only its hash is kept) or revoke one."""

    list_display = ("table", "name", "active", "created_at", "last_used_at")
    list_filter = ("active", "table")
    fields = ("table", "name")
    actions = ["revoke_devices"]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: TableDevice, form: Any, change: bool) -> None:
        with acting_as(user=request_user(request), kind="user"):
            device, token = device_create(
                table=form.cleaned_data["table"], name=form.cleaned_data["name"], actor=request_user(request)
            )
        obj.pk = device.pk
        self.message_user(
            request, f"Token for {device}: {token} (shown once: configure the shoe with it now)", messages.WARNING
        )

    @admin.action(description="Revoke the selected device credentials")
    def revoke_devices(self, request: HttpRequest, queryset: QuerySet[TableDevice]) -> None:
        _run(self, request, queryset, lambda d: device_revoke(device=d, actor=request_user(request)), "revoked")
