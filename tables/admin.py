"""Admin screens of the tables app; every write goes through a service (outcomes and the ledger are read-only)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html

from audit.admin_actions import ObjectAction, ServiceActionsAdmin
from audit.admin_history import AuditHistoryAdmin
from audit.context import acting_as
from audit.roles import FLOOR, has_role
from casino.admin_money import dollars
from casino.admin_readonly import ReadOnlyAdmin
from casino.admin_time import span
from casino.api_errors import screen_error
from casino.engine.hand_words import hand_label
from casino.engine.money import money
from casino.errors import DomainError
from casino.users import request_user
from tables import (
    admin_home,  # registers the home-game house rules admin
    admin_home_games,  # registers the read-only home games, players, hands, ledger
)
from tables.admin_forms import TRIPLE_DRAW_ONLY, TableAdminForm, paytable_choice_label
from tables.models import (
    Bet,
    DrawRow,
    HandOutcome,
    HomeTableConfig,
    LedgerEntry,
    Round,
    Seat,
    SeatHand,
    Table,
    TableDevice,
)
from tables.selectors.approvals import payouts_awaiting_approval
from tables.selectors.rounds import round_in_play
from tables.services.approvals import round_approve_payout, round_refuse_payout
from tables.services.devices import check_device_table, device_create, device_revoke
from tables.services.rounds import round_settle, round_void
from tables.services.tables import (
    LIMIT_FIELDS,
    table_change,
    table_close,
    table_create,
    table_open,
    table_set_dealers,
)


def _run(
    modeladmin: admin.ModelAdmin[Any], request: HttpRequest, queryset: QuerySet[Any], call: Any, done: tuple[str, str]
) -> None:
    """Call the service for each chosen row; `done` says what happened to one and to several ("1 table closed")."""
    count = 0
    with acting_as(user=request_user(request), kind="user"):
        for obj in queryset:
            try:
                call(obj)
                count += 1
            except DomainError as exc:
                modeladmin.message_user(request, f"{obj}: {exc.message}", messages.ERROR)
    if count:
        modeladmin.message_user(request, f"{count} {done[0] if count == 1 else done[1]}", messages.SUCCESS)


class SeatInline(admin.TabularInline):  # type: ignore[type-arg]
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


def _round_in_play_pays_from(table: Table) -> str | None:
    """After a paytable change: the round in play pays from the version locked when its bets close, so bets placed
    before the change but not yet closed are paid from the new paytable. Said, so the floor can tell the players."""
    rnd = round_in_play(table)
    if rnd is None:
        return None
    if rnd.phase == Round.Phase.BETTING:
        return (f"Round {rnd.number} at {table.name} is taking bets: when they close, they are paid from "
                f"{table.paytable}, including the bets placed before this change.")
    return f"Round {rnd.number} at {table.name} keeps {rnd.paytable}; the next round pays from {table.paytable}."


@admin.register(Table)
class TableAdmin(AuditHistoryAdmin, ServiceActionsAdmin):
    """Create and edit tables of every type; each change is one of the table services (audited)."""

    form = TableAdminForm
    # Short columns, so the list stays readable on a narrow screen (the full settings are on each table's page).
    list_display = ("name", "game", "open", "stakes", "paytable_with_status", "dealer_names")
    list_filter = ("table_type", "card_source", "is_open")
    search_fields = ("name",)
    inlines = [SeatInline]
    actions = ["open_tables", "close_tables"]

    class Media:
        js = ("tables/admin-table.js",)  # hides the Triple Draw-only fieldset of a new table for a home game

    # What a reader without the floor role sees: the same settings, in dollars, nothing editable.
    READ_FIELDS = (
        "name",
        "table_type",
        "card_source",
        "min_bet",
        "max_bet",
        "payout_cap",
        "approval_threshold",
        "paytable_status",
        "dealer_names",
        "is_open",
    )
    HOME_READ_FIELDS = ("name", "table_type", "card_source", "house_rules", "home_games", "dealer_names", "is_open")

    def get_fieldsets(self, request: HttpRequest, obj: Table | None = None) -> Any:  # django-stubs: field groups
        home = obj is not None and not obj.is_triple_draw
        if not _is_floor(request):
            return [(None, {"fields": self.HOME_READ_FIELDS if home else self.READ_FIELDS})]
        if home:  # only what applies to a home game: its stakes and charges are its house rules
            return [(None, {"fields": ["name", "table_type", "card_source", "dealers", "is_open", "house_rules",
                                       "home_games"]})]
        triple_draw: dict[str, Any] = {"fields": list(TRIPLE_DRAW_ONLY)}
        if obj is None:  # the type is chosen on this page: the script hides these while a home game is chosen
            triple_draw["classes"] = ["triple-draw-only"]
            triple_draw["description"] = (
                "Triple Draw tables only. A home-game table's stakes, buy-ins and house charge are its house rules, "
                "set once the table is saved."
            )
            return [
                (None, {"fields": ["name", "table_type", "card_source"]}),
                ("Triple Draw limits and paytable", triple_draw),
                (None, {"fields": ["dealers"]}),
            ]
        return [
            (None, {"fields": ["name", "table_type", "card_source"]}),
            ("Limits and paytable", triple_draw),
            (None, {"fields": ["dealers", "is_open", "paytable_status"]}),
        ]

    def get_inlines(self, request: HttpRequest, obj: Table | None) -> list[Any]:
        """The seats are made with the table (as many as its type has): a new table's page shows no empty list."""
        return list(self.inlines) if obj is not None else []

    def get_readonly_fields(self, request: HttpRequest, obj: Table | None = None) -> tuple[str, ...]:
        if not _is_floor(request):
            return self.HOME_READ_FIELDS if obj is not None and not obj.is_triple_draw else self.READ_FIELDS
        # The type is fixed once a table exists (its seats follow from it); open and close are list actions.
        return ("table_type", "is_open", "paytable_status", "house_rules", "home_games") if obj else ()

    def has_add_permission(self, request: HttpRequest) -> bool:
        return _is_floor(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _is_floor(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    # --- columns: money in dollars, the paytable with its status ----------------------------------------

    min_bet = dollars("min_bet_cents", "min bet", sortable=True)
    max_bet = dollars("max_bet_cents", "max bet", sortable=True)
    payout_cap = dollars("max_payout_per_seat_cents", "payout cap per seat")
    approval_threshold = dollars("supervisor_approval_threshold_cents", "supervisor approval from")

    @admin.display(description="type", ordering="table_type")
    def game(self, table: Table) -> str:
        """ "Freak of Nature" over "System shuffle": the type and where its cards come from, in one narrow column."""
        return format_html("{}<br><small>{}</small>", table.get_table_type_display(), table.get_card_source_display())

    @admin.display(description="open", boolean=True, ordering="is_open")
    def open(self, table: Table) -> bool:
        return table.is_open

    @admin.display(description="bets")
    def stakes(self, table: Table) -> str:
        """Triple Draw: the bet range per circle; a home game: its house rules (they hold its stakes)."""
        if table.is_triple_draw:
            return f"{money(table.min_bet_cents)} to {money(table.max_bet_cents)}"
        return self.house_rules(table)

    @admin.display(description="house rules")
    def house_rules(self, table: Table) -> str:
        """A home-game table's house rules (stakes, buy-ins, the house's charge) live on their own page: link it."""
        if table.is_triple_draw:
            return "—"
        try:
            config = table.home_config
        except HomeTableConfig.DoesNotExist:
            config = None
        if config is None:
            url = reverse("admin:tables_hometableconfig_add") + f"?table={table.pk}"
            return format_html('<a href="{}">not set yet: set the house rules</a>', url)
        url = reverse("admin:tables_hometableconfig_change", args=[config.pk])
        return format_html('<a href="{}">house rules</a>', url)

    @admin.display(description="games")
    def home_games(self, table: Table) -> str:
        """The game open at a home-game table (its players, stacks and hands are on its page) and the list of all."""
        return admin_home_games.games_of(table)

    @admin.display(description="paytable")
    def paytable_with_status(self, table: Table) -> str:
        if not table.is_triple_draw:
            return "—"
        return paytable_choice_label(table.paytable) if table.paytable else "none"

    @admin.display(description="paytable in force")
    def paytable_status(self, table: Table) -> str:
        return self.paytable_with_status(table)

    @admin.display(description="dealers")
    def dealer_names(self, table: Table) -> str:
        return ", ".join(dealer.username for dealer in table.dealers.all()) or "—"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Table]:
        queryset = super().get_queryset(request).select_related("paytable__analysis", "home_config")
        return queryset.prefetch_related("dealers")

    # --- saving: the services write (and audit) everything; the admin writes nothing itself -----------

    def save_model(self, request: HttpRequest, obj: Table, form: Any, change: bool) -> None:
        data = form.cleaned_data
        with acting_as(user=request_user(request), kind="user"):
            limits = {field: data[field] for field in LIMIT_FIELDS if field in data}  # none for a home game
            if change:
                table = table_change(
                    table=obj,
                    actor=request_user(request),
                    name=data["name"],
                    card_source=data["card_source"],
                    limits=limits,
                    paytable=data.get("paytable"),
                    dealers=data.get("dealers", []),
                )
            else:
                table = table_create(
                    name=data["name"],
                    table_type=data["table_type"],
                    card_source=data["card_source"],
                    paytable=data.get("paytable"),
                    actor=request_user(request),
                    **limits,
                )
                table_set_dealers(table=table, dealers=data.get("dealers", []), actor=request_user(request))
        obj.pk = table.pk
        note = None
        if change and not table.is_triple_draw and "card_source" in form.changed_data:
            note = admin_home.open_game_keeps(table, "card_source")
        elif change and table.is_triple_draw and "paytable" in form.changed_data:
            note = _round_in_play_pays_from(table)
        if note:
            self.message_user(request, note, messages.WARNING)

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
        done = ("table opened", "tables opened")
        _run(self, request, queryset, lambda t: table_open(table=t, actor=request_user(request)), done)

    @admin.action(description="Close the selected tables")
    def close_tables(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        done = ("table closed", "tables closed")
        _run(self, request, queryset, lambda t: table_close(table=t, actor=request_user(request)), done)


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ("table", "number", "occupied", "player_name", "player_card")
    list_filter = ("table", "occupied")


def _cards(codes: Any) -> str:
    return " ".join(str(code) for code in codes or []) or "—"


class _RecordInline(admin.TabularInline):  # type: ignore[type-arg]
    """A round's records, read-only: they change only through the round services."""

    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class BetInline(_RecordInline):
    model = Bet
    fields = readonly_fields = ("seat_number", "circle", "amount", "placed_at")

    amount = dollars("amount_cents", "amount")


class SeatHandInline(_RecordInline):
    model = SeatHand
    fields = readonly_fields = ("seat_number", "dealt_cards", "held_cards", "held_at")

    @admin.display(description="dealt")
    def dealt_cards(self, hand: SeatHand) -> str:
        return _cards(hand.dealt)

    @admin.display(description="held")
    def held_cards(self, hand: SeatHand) -> str:
        return "not yet" if hand.held is None else _cards(hand.held) if hand.held else "nothing (drew five)"


class DrawRowInline(_RecordInline):
    model = DrawRow
    fields = readonly_fields = ("row", "row_cards")

    @admin.display(description="cards")
    def row_cards(self, row: DrawRow) -> str:
        return _cards(row.cards)


class OutcomeInline(_RecordInline):
    model = HandOutcome
    fields = readonly_fields = ("seat_number", "circle", "hand_cards", "hand", "description", "returned", "paid")

    @admin.display(description="cards")
    def hand_cards(self, outcome: HandOutcome) -> str:
        return _cards(outcome.cards)

    @admin.display(description="hand")
    def hand(self, outcome: HandOutcome) -> str:
        return hand_label(outcome.category)

    returned = dollars("return_cents", "returns")
    paid = dollars("paid_cents", "paid")


def _void(request: HttpRequest, rnd: Round) -> Round:
    with acting_as(user=request_user(request), kind="user"):
        return round_void(round=rnd, reason=request.POST.get("reason", ""), actor=request_user(request))


@admin.register(Round)
class RoundAdmin(ServiceActionsAdmin, ReadOnlyAdmin):
    """Rounds as the floor reads them (dollars, cards, hands in words); void with a reason; the payout queue."""

    # Short columns (the round's name wraps, one "played" column for its two times), so the list fits beside the
    # admin's menu on an 800 px screen as the home games' lists do; each round's page has every time in full.
    list_display = ("__str__", "phase", "paytable", "dealer", "stakes", "played")
    list_filter = ("phase", "table")
    search_fields = ("table__name",)
    fields = (
        "table",
        "number",
        "phase",
        "paytable",
        "dealer",
        "stakes",
        "returns",
        "started_at",
        "bets_closed_at",
        "rows_recorded_at",
        "settled_at",
        "approved_by",
        "approved_at",
        "voided_at",
        "void_reason",
    )
    readonly_fields = ("stakes", "returns")
    inlines = [BetInline, SeatHandInline, DrawRowInline, OutcomeInline]
    actions = ["queue_settlement"]
    change_form_template = "admin/tables/round/change_form.html"
    change_list_template = "admin/tables/round/change_list.html"
    object_action_refusal = "Only floor supervisors may void rounds."
    object_actions = (
        ObjectAction("void", _void, "{} voided.", confirm_template="admin/tables/round/void.html", title="Void {}"),
    )

    def object_action_allowed(self, request: HttpRequest) -> bool:
        return _is_floor(request)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Round]:
        return super().get_queryset(request).select_related("table", "paytable", "dealer", "approved_by")

    @admin.display(description="stakes")
    def stakes(self, rnd: Round) -> str:
        return money(sum(bet.amount_cents for bet in rnd.bets.all()))

    @admin.display(description="played", ordering="started_at")
    def played(self, rnd: Round) -> str:
        return span(rnd.started_at, rnd.settled_at or rnd.voided_at)

    @admin.display(description="returns")
    def returns(self, rnd: Round) -> str:
        outcomes = list(rnd.outcomes.all())
        return money(sum(outcome.paid_cents for outcome in outcomes)) if outcomes else "—"

    @admin.action(description="Queue settlement again (rounds in settling)")
    def queue_settlement(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        done = ("round queued", "rounds queued")
        _run(self, request, queryset, lambda r: round_settle(round=r, actor=request_user(request)), done)

    def render_change_form(self, request: HttpRequest, context: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        context["is_floor"] = _is_floor(request)
        return super().render_change_form(request, context, *args, **kwargs)

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> Any:
        waiting = Round.objects.filter(phase=Round.Phase.AWAITING_APPROVAL).count()
        return super().changelist_view(request, {**(extra_context or {}), "payouts_waiting": waiting})

    # --- the payout queue: approve or refuse each round, never in bulk ------------------------------------

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view
        own = [
            path("payouts/", view(self.payout_queue_view), name="tables_round_payouts"),
            path("payouts/<int:round_id>/<str:decision>/", view(self.payout_decision_view), name="tables_round_payout"),
        ]
        return own + super().get_urls()

    def payout_queue_view(self, request: HttpRequest) -> HttpResponse:
        if not _is_floor(request):
            raise PermissionDenied("Only floor supervisors approve payouts.")
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": "Payouts awaiting approval",
            "queue": payouts_awaiting_approval(),
        }
        return TemplateResponse(request, "admin/tables/round/payouts.html", context)

    def payout_decision_view(self, request: HttpRequest, round_id: int, decision: str) -> HttpResponse:
        if not _is_floor(request):
            raise PermissionDenied("Only floor supervisors approve payouts.")
        queue = HttpResponseRedirect(reverse("admin:tables_round_payouts"))
        if request.method != "POST" or decision not in ("approve", "refuse"):
            return queue
        rnd = get_object_or_404(Round, pk=round_id)
        try:
            with acting_as(user=request_user(request), kind="user"):
                if decision == "approve":
                    round_approve_payout(round=rnd, actor=request_user(request))
                else:
                    round_refuse_payout(round=rnd, reason=request.POST.get("reason", ""), actor=request_user(request))
        except DomainError as exc:
            self.message_user(request, f"{rnd}: {screen_error(exc).message}", messages.ERROR)
            return queue
        done = "approved: the payout is posted" if decision == "approve" else "refused: the round is voided"
        self.message_user(request, f"{rnd} {done}.", messages.SUCCESS)
        return queue


class SeatColumn:
    """The seat's number under the heading "seat" (the field's "seat number" widened the lists past 800 px)."""

    @admin.display(description="seat", ordering="seat_number")
    def seat(self, row: Bet | HandOutcome | LedgerEntry) -> int | None:
        return row.seat_number


@admin.register(Bet)
class BetAdmin(SeatColumn, ReadOnlyAdmin):
    list_display = ("round", "seat", "circle", "amount", "placed_at")
    list_filter = ("round__table",)

    amount = dollars("amount_cents", "amount", sortable=True)


class HandFilter(admin.SimpleListFilter):
    """The hands by name ("Four of a kind"), not by their stored codes ("four_of_a_kind")."""

    title = "hand"
    parameter_name = "category"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        codes = HandOutcome.objects.order_by("category").values_list("category", flat=True).distinct()
        return [(code, hand_label(code)) for code in codes]

    def queryset(self, request: HttpRequest, queryset: QuerySet[HandOutcome]) -> QuerySet[HandOutcome]:
        return queryset.filter(category=self.value()) if self.value() else queryset


@admin.register(HandOutcome)
class HandOutcomeAdmin(SeatColumn, ReadOnlyAdmin):
    list_display = ("round", "seat", "circle", "hand", "paying_line", "returned", "paid")
    list_filter = (HandFilter, "round__table")

    @admin.display(description="hand", ordering="category")
    def hand(self, outcome: HandOutcome) -> str:
        return hand_label(outcome.category)

    @admin.display(description="paying line")
    def paying_line(self, outcome: HandOutcome) -> str:
        return hand_label(outcome.line_hand) if outcome.line_hand else "none"  # the heading says of what

    returned = dollars("return_cents", "returns", sortable=True)
    paid = dollars("paid_cents", "paid", sortable=True)


@admin.register(LedgerEntry)
class LedgerEntryAdmin(SeatColumn, ReadOnlyAdmin):
    list_display = ("round", "bet", "account", "seat", "amount", "posted_at")
    list_filter = ("account", "table")

    amount = dollars("amount_cents", "amount", sortable=True)


class TableDeviceAdminForm(forms.ModelForm):  # type: ignore[type-arg]
    """The device add form: the service's own check runs on clean, so a table not dealt from a shoe is refused beside
    the table field, with the name typed kept."""

    class Meta:
        model = TableDevice
        fields = ("table", "name")

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        table = cleaned.get("table")
        if table is not None:
            try:
                check_device_table(table)
            except DomainError as exc:
                self.add_error("table", exc.message)
        return cleaned


@admin.register(TableDevice)
class TableDeviceAdmin(ServiceActionsAdmin):
    """Issue a shoe credential (its token is shown once, only its hash is kept) or revoke one."""

    form = TableDeviceAdminForm
    list_display = ("table", "name", "active", "created_at", "last_used_at", "last_refused_at", "last_refused")
    list_filter = ("active", "table")
    fields = ("table", "name")
    actions = ["revoke_devices"]

    @admin.display(description="last refused report")
    def last_refused(self, device: TableDevice) -> str:
        """Why the shoe's last report was refused (a misread, a card while none was due), as the dealer saw it."""
        refusal = device.last_refusal or {}
        if not refusal:
            return "-"
        cards = " ".join(str(card) for card in refusal.get("cards", []))
        return f"{cards}: {str(refusal.get('message', '')).split(' (rule: ')[0]}"

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
        done = ("credential revoked", "credentials revoked")
        _run(self, request, queryset, lambda d: device_revoke(device=d, actor=request_user(request)), done)
