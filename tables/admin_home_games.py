"""Home games, their players, hands and chip ledger in the admin, read-only: they change only through the services."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from audit.admin_history import AuditHistoryAdmin
from casino.admin_money import dollars
from casino.admin_readonly import ReadOnlyAdmin
from casino.admin_time import span, to_the_second
from casino.engine.home.action_words import action_words
from casino.engine.money import money
from tables.models import HomeGame, HomeGamePlayer, HomeHand, HomeLedgerEntry, Table
from tables.selectors.home import hand_view
from tables.selectors.home_ledger import seat_and_person, with_holders
from tables.services.home_config import announcement
from tables.services.home_engine import game_rules


class ShownOnly(ReadOnlyAdmin, AuditHistoryAdmin):
    """Read by the floor and compliance, History from the audit trail; stacks, hands and the ledger move only through
    the services, each with its audit event."""


def clock(moment: datetime | None) -> str:
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M") if moment else "—"


def minutes(start: datetime, end: datetime) -> str:
    total = max(0, int((end - start).total_seconds() // 60))
    return f"{total // 60} h {total % 60:02d} min" if total >= 60 else f"{total} min"


def time_at_seat(player: HomeGamePlayer) -> str:
    """ "21:40–22:10 (30 min)", or "21:40–now (1 h 05 min)" while seated: when this person sat there and for how long
    (the game's date is on its page; the column stays narrow enough for an 800 px screen). A game's end stands in for
    the leave of those it cashed out."""
    end = player.left_at or player.game.ended_at
    until = f"{timezone.localtime(end):%H:%M}" if end else "now"
    return f"{timezone.localtime(player.joined_at):%H:%M}–{until} ({minutes(player.joined_at, end or timezone.now())})"


class PlayerColumns:
    """Each person's own figures in dollars (a seat taken again has one row per person, in the order they sat)."""

    bought_in = dollars("bought_in_cents", "bought in")

    @admin.display(description="cashed out")
    def cashed_out(self, player: HomeGamePlayer) -> str:
        return money(player.cashed_out_cents) if not player.active else "—"

    stack = dollars("stack_cents", "stack")

    @admin.display(description="chips")
    def chips(self, player: HomeGamePlayer) -> str:
        """What the player has in play, or went home with: one narrow column for the list."""
        if player.active:
            return f"{money(player.stack_cents)} in play"
        return f"{money(player.cashed_out_cents)} cashed out"

    @admin.display(description="player")
    def player(self, player: HomeGamePlayer) -> str:
        return f"{player.name or '—'} (card {player.player_card})" if player.player_card else player.name or "—"

    @admin.display(description="at the seat")
    def at_seat(self, player: HomeGamePlayer) -> str:
        return time_at_seat(player)


class PlayerInline(PlayerColumns, admin.TabularInline):  # type: ignore[type-arg]
    model = HomeGamePlayer
    extra = 0
    can_delete = False
    # The player's card with their name, so the row fits beside the admin's menu on an 800 px screen.
    fields = readonly_fields = ("seat", "player", "bought_in", "cashed_out", "stack", "legs", "at_seat")
    ordering = ("seat", "id")
    verbose_name_plural = "players (seat by seat, in the order they sat down)"

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_queryset(self, request: HttpRequest) -> QuerySet[HomeGamePlayer]:
        return super().get_queryset(request).select_related("game")


def games_of(table: Table) -> str:
    """A home-game table's games for its admin page: a link to the one open ("Game 3 is open, 4 seated") and to all."""
    games = HomeGame.objects.filter(table=table)
    every = reverse("admin:tables_homegame_changelist") + f"?table__id__exact={table.pk}"
    total = games.count()
    if not total:
        return "none yet"
    open_game = games.filter(status=HomeGame.Status.OPEN).first()
    listed = format_html('<a href="{}">every game ({})</a>', every, total)
    if open_game is None:
        return listed
    seated = open_game.players.filter(left_at__isnull=True).count()
    url = reverse("admin:tables_homegame_change", args=[open_game.pk])
    return format_html('<a href="{}">Game {} is open, {} seated</a> · {}', url, open_game.number, seated, listed)


@admin.register(HomeGame)
class HomeGameAdmin(ShownOnly):
    # Short columns, so the list fits beside the admin's menu on an 800 px screen (the rest is on each game's page).
    list_display = ("__str__", "variant_label", "state", "when", "people", "buy_ins", "house")
    list_filter = ("status", ("table", admin.RelatedOnlyFieldListFilter))
    search_fields = ("table__name", "players__name", "players__player_card")
    fields = ("table", "number", "variant_label", "card_source_name", "status", "announced", "opened_by", "when",
              "end_reason", "buy_ins", "cash_outs", "house", "pot")
    readonly_fields = fields
    inlines = [PlayerInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[HomeGame]:
        return super().get_queryset(request).select_related("table", "opened_by")

    @admin.display(description="type")
    def variant_label(self, game: HomeGame) -> str:
        return game.variant_name

    @admin.display(description="card source")
    def card_source_name(self, game: HomeGame) -> str:
        return game.card_source_name

    @admin.display(description="rules announced to this game")
    def announced(self, game: HomeGame) -> str:
        return format_html_join("", "<div>{}</div>", ((line,) for line in announcement(game_rules(game), game)))

    @admin.display(description="status", ordering="status")
    def state(self, game: HomeGame) -> str:
        return {HomeGame.Status.OPEN: "open", HomeGame.Status.FINISHED: "won",
                HomeGame.Status.CLOSED: "closed by the floor"}.get(HomeGame.Status(game.status), game.status)

    @admin.display(description="played", ordering="opened_at")
    def when(self, game: HomeGame) -> str:
        """The one way a game's time reads, on the list and on its page (a supervisor scanning for the open game sees
        "now")."""
        return span(game.opened_at, game.ended_at)

    @admin.display(description="people")
    def people(self, game: HomeGame) -> int:
        return game.players.count()

    buy_ins = dollars("buy_ins_cents", "bought in")
    cash_outs = dollars("cash_outs_cents", "cashed out")
    house = dollars("house_cents", "house")
    pot = dollars("pot_cents", "in the middle")


@admin.register(HomeGamePlayer)
class HomeGamePlayerAdmin(PlayerColumns, ShownOnly):
    list_display = ("player", "game_name", "seat", "bought_in", "chips", "at_seat")
    list_filter = (("game__table", admin.RelatedOnlyFieldListFilter),)
    search_fields = ("name", "player_card", "game__table__name")
    ordering = ("-game__opened_at", "seat", "id")
    fields = readonly_fields = ("game", "seat", "player", "bought_in", "cashed_out", "stack", "legs", "at_seat")

    def get_queryset(self, request: HttpRequest) -> QuerySet[HomeGamePlayer]:
        return super().get_queryset(request).select_related("game__table")

    @admin.display(description="game", ordering="game__opened_at")
    def game_name(self, player: HomeGamePlayer) -> str:
        return str(player.game)  # text, so it wraps on a narrow screen (the person's name is the link)


@admin.register(HomeHand)
class HomeHandAdmin(ShownOnly):
    list_display = ("__str__", "status", "button", "dealer", "started", "ruled", "corrected")
    list_filter = ("status", "game__table")
    search_fields = ("game__table__name",)
    fields = ("game", "number", "status", "phase", "button", "dealer", "started", "ended", "void_reason",
              "players_dealt_in", "actions_in_words", "outcome", "ruled", "corrected", "first_recorded")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[HomeHand]:
        return super().get_queryset(request).select_related("game__table", "dealer")

    @admin.display(description="started", ordering="started_at")
    def started(self, hand: HomeHand) -> str:
        return clock(hand.started_at)

    @admin.display(description="ended")
    def ended(self, hand: HomeHand) -> str:
        return clock(hand.settled_at or hand.voided_at)

    @admin.display(description="by ruling", boolean=True)
    def ruled(self, hand: HomeHand) -> bool:
        return hand.ruling is not None

    @admin.display(description="corrected", boolean=True)
    def corrected(self, hand: HomeHand) -> bool:
        return hand.original_record is not None

    def _view(self, hand: HomeHand) -> dict[str, Any]:
        cached: dict[str, Any] | None = getattr(hand, "_admin_view", None)
        if cached is None:
            cached = hand_view(hand)
            hand._admin_view = cached  # type: ignore[attr-defined]  # one rebuild per page
        return cached

    def _labels(self, hand: HomeHand) -> dict[int, str]:
        return {p["seat"]: f"Seat {p['seat']} · {p['name']}" if p["name"] else f"Seat {p['seat']}"
                for p in self._view(hand)["players"]}

    @admin.display(description="players dealt in (stack before the ante)")
    def players_dealt_in(self, hand: HomeHand) -> str:
        labels = self._labels(hand)
        return format_html_join("", "<div>{}: {}</div>", (
            (labels[int(seat)], money(int(cents))) for seat, cents in sorted(hand.stacks_before.items(),
                                                                              key=lambda item: int(item[0]))))

    @admin.display(description="actions")
    def actions_in_words(self, hand: HomeHand) -> str:
        labels = self._labels(hand)
        lines = self._view(hand)["actions"]
        return format_html_join("", "<div>{}. {}</div>", ((i, action_words(text, labels))
                                                            for i, text in enumerate(lines, start=1))) or "—"

    @admin.display(description="actions as first recorded (before the floor's correction)")
    def first_recorded(self, hand: HomeHand) -> str:
        if hand.original_record is None:
            return "—"
        labels = self._labels(hand)
        lines = hand.original_record.get("actions", [])
        return format_html_join("", "<div>{}. {}</div>", ((i, action_words(text, labels))
                                                            for i, text in enumerate(lines, start=1))) or "—"

    @admin.display(description="result")
    def outcome(self, hand: HomeHand) -> str:
        result = self._view(hand)["result"]
        if hand.status == HomeHand.Status.VOIDED:
            return format_html("Voided: every chip went back ({})", hand.void_reason)
        if result is None:
            return "—"
        return format_html_join("", "<div>{}</div>", ((line,) for line in result["lines"]))


@admin.register(HomeLedgerEntry)
class HomeLedgerEntryAdmin(ShownOnly):
    # The seat with the person who held it when the chips moved: a seat taken again has had several players.
    # One column for the hand (or, for chips moved between hands, the game) and the account's short code, so the
    # person's column fits beside the admin's menu at 1280 px.
    list_display = ("posted", "where", "kind", "account_code", "seat_person", "amount")
    list_filter = ("account", "kind", "game__table")
    ordering = ("-id",)
    fields = readonly_fields = ("posted", "game", "hand", "posting", "kind", "account", "seat_person", "amount")

    def get_queryset(self, request: HttpRequest) -> QuerySet[HomeLedgerEntry]:
        return with_holders(super().get_queryset(request).select_related("game__table", "hand"))

    @admin.display(description="hand (or game)", ordering="game")
    def where(self, entry: HomeLedgerEntry) -> str:
        return str(entry.hand) if entry.hand is not None else str(entry.game)

    @admin.display(description="account", ordering="account")
    def account_code(self, entry: HomeLedgerEntry) -> str:
        return entry.account

    @admin.display(description="seat · player (as posted)", ordering="seat")
    def seat_person(self, entry: HomeLedgerEntry) -> str:
        return seat_and_person(entry)

    @admin.display(description="posted", ordering="posted_at")
    def posted(self, entry: HomeLedgerEntry) -> str:
        return to_the_second(entry.posted_at)

    amount = dollars("amount_cents", "amount", sortable=True)
