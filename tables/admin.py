"""Admin screens of the tables app; every write goes through a service (outcomes and the ledger are read-only)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from audit.admin_actions import ServiceActionsAdmin
from audit.context import acting_as
from audit.roles import FLOOR, has_role
from casino.engine.money import money
from casino.errors import DomainError
from tables.admin_forms import TableAdminForm, paytable_choice_label
from tables.models import Bet, DrawRow, HandOutcome, LedgerEntry, Round, Seat, SeatHand, Table, TableDevice
from tables.services.approvals import round_approve_payout
from tables.services.rounds import round_settle
from tables.services.shoe import device_create, device_revoke
from tables.services.tables import (
    LIMIT_FIELDS,
    table_change,
    table_close,
    table_create,
    table_open,
    table_set_dealers,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    """Shown for reference; changes happen only through the services (API, tablet, actions)."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _run(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[Any], call: Any, done: str) -> None:
    count = 0
    with acting_as(user=request.user, kind="user"):
        for obj in queryset:
            try:
                call(obj)
                count += 1
            except DomainError as exc:
                modeladmin.message_user(request, f"{obj}: {exc.message}", messages.ERROR)
    if count:
        modeladmin.message_user(request, f"{count} {done}", messages.SUCCESS)


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("number", "occupied", "player_name", "player_card")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # seats are created with the table and changed from the tablet; here they are shown


def _is_floor(request: HttpRequest) -> bool:
    return has_role(request.user, FLOOR)


@admin.register(Table)
class TableAdmin(ServiceActionsAdmin):
    """Create and edit tables of every type; each change is one of the table services (audited)."""

    form = TableAdminForm
    list_display = (
        "name",
        "table_type",
        "card_source",
        "is_open",
        "min_bet",
        "max_bet",
        "paytable_with_status",
        "dealer_names",
    )
    list_filter = ("table_type", "card_source", "is_open")
    search_fields = ("name",)
    inlines = [SeatInline]
    actions = ["open_tables", "close_tables"]

    def get_fields(self, request: HttpRequest, obj: Table | None = None) -> list[str]:
        fields = ["name", "table_type", "card_source", *LIMIT_FIELDS, "paytable", "dealers"]
        return [*fields, "is_open", "paytable_status"] if obj else fields

    def get_readonly_fields(self, request: HttpRequest, obj: Table | None = None) -> tuple[str, ...]:
        # The type is fixed once a table exists (its seats follow from it); open and close are list actions.
        return ("table_type", "is_open", "paytable_status") if obj else ()

    def has_add_permission(self, request: HttpRequest) -> bool:
        return _is_floor(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _is_floor(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    # --- columns: money in dollars, the paytable with its status ----------------------------------------

    @admin.display(description="min bet", ordering="min_bet_cents")
    def min_bet(self, table: Table) -> str:
        return money(table.min_bet_cents)

    @admin.display(description="max bet", ordering="max_bet_cents")
    def max_bet(self, table: Table) -> str:
        return money(table.max_bet_cents)

    @admin.display(description="paytable")
    def paytable_with_status(self, table: Table) -> str:
        return paytable_choice_label(table.paytable) if table.paytable else "—"

    @admin.display(description="paytable in force")
    def paytable_status(self, table: Table) -> str:
        return self.paytable_with_status(table)

    @admin.display(description="dealers")
    def dealer_names(self, table: Table) -> str:
        return ", ".join(dealer.username for dealer in table.dealers.all()) or "—"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Table]:
        return super().get_queryset(request).select_related("paytable__analysis").prefetch_related("dealers")

    # --- saving: the services write (and audit) everything; the admin writes nothing itself -----------

    def save_model(self, request: HttpRequest, obj: Table, form: Any, change: bool) -> None:
        data = form.cleaned_data
        with acting_as(user=request.user, kind="user"):
            if change:
                table = table_change(
                    table=obj,
                    actor=request.user,
                    name=data["name"],
                    card_source=data["card_source"],
                    limits={field: data[field] for field in LIMIT_FIELDS},
                    paytable=data.get("paytable"),
                    dealers=data.get("dealers", []),
                )
            else:
                table = table_create(
                    name=data["name"],
                    table_type=data["table_type"],
                    card_source=data["card_source"],
                    paytable=data.get("paytable"),
                    actor=request.user,
                    **{field: data[field] for field in LIMIT_FIELDS},
                )
                table_set_dealers(table=table, dealers=data.get("dealers", []), actor=request.user)
        obj.pk = table.pk

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        """Dealers were set by the services in save_model; the seats inline is read-only."""
        for formset in formsets:  # the admin's change message reads these
            formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []

    def log_addition(self, request: HttpRequest, obj: Any, message: Any) -> Any:
        return None  # the services wrote the audit events; the admin's own log would be a second, weaker record

    def log_change(self, request: HttpRequest, obj: Any, message: Any) -> Any:
        return None

    @admin.action(description="Open the selected tables")
    def open_tables(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        _run(self, request, queryset, lambda t: table_open(table=t, actor=request.user), "tables opened")

    @admin.action(description="Close the selected tables")
    def close_tables(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        _run(self, request, queryset, lambda t: table_close(table=t, actor=request.user), "tables closed")


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ("table", "number", "occupied", "player_name", "player_card")
    list_filter = ("table", "occupied")


class BetInline(admin.TabularInline):
    model = Bet
    extra = 0
    readonly_fields = ("seat_number", "circle", "amount_cents", "placed_at")
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatHandInline(BetInline):
    model = SeatHand
    readonly_fields = ("seat_number", "dealt", "held", "held_at")


class DrawRowInline(BetInline):
    model = DrawRow
    readonly_fields = ("row", "cards")


class OutcomeInline(BetInline):
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
        _run(self, request, queryset, lambda r: round_approve_payout(round=r, actor=request.user), "approved")

    @admin.action(description="Queue settlement again (rounds in settling)")
    def queue_settlement(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        _run(self, request, queryset, lambda r: round_settle(round=r, actor=request.user), "queued")


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
        with acting_as(user=request.user, kind="user"):
            device, token = device_create(
                table=form.cleaned_data["table"], name=form.cleaned_data["name"], actor=request.user
            )
        obj.pk = device.pk
        self.message_user(
            request, f"Token for {device}: {token} (shown once: configure the shoe with it now)", messages.WARNING
        )

    @admin.action(description="Revoke the selected device credentials")
    def revoke_devices(self, request: HttpRequest, queryset: QuerySet[TableDevice]) -> None:
        _run(self, request, queryset, lambda d: device_revoke(device=d, actor=request.user), "revoked")
