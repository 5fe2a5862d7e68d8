"""The live floor view: every table as a tile (type, open or closed, dealer, paytable, round in play and its phase,
seats taken, minutes since the last action) with the alerts a supervisor must see, read in a handful of queries."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Count, OuterRef, Q, Subquery
from django.utils import timezone

from audit.models import AuditEvent
from casino.engine.money import money
from floor.models import DealerSession
from tables import actions as table_actions
from tables.models import FloorCall, HomeGame, HomeHand, Round, Table, TableType
from tables.selectors.approvals import PendingPayout, payouts_awaiting_approval
from tables.selectors.floor_calls import call_moved_on, open_calls

Phase = Round.Phase


@dataclass(frozen=True)
class Alert:
    """Something a supervisor must act on; `code` is stable (floor_call, payout_approval, void_request,
    stuck_settlement, idle). A floor call names its call, which the supervisor answers from the alert."""

    code: str
    text: str
    call_id: int | None = None


@dataclass
class Tile:
    table: Table
    dealer: str
    seats_taken: int
    last_action_at: datetime | None
    minutes_since_action: int | None
    round: Round | None = None
    hand: HomeHand | None = None  # a home-game table's hand in play
    game_number: int | None = None  # a home-game table's open game
    alerts: list[Alert] = field(default_factory=list)

    @property
    def type_label(self) -> str:
        return str(TableType(self.table.table_type).label)

    @property
    def paytable(self) -> str:
        return str(self.table.paytable) if self.table.paytable is not None else ""

    @property
    def phase_label(self) -> str:
        if self.hand is not None:
            return self.hand.phase.replace("_", " ").capitalize()
        return str(Phase(self.round.phase).label) if self.round is not None else ""

    @property
    def in_play(self) -> str:
        """The round or hand in play, in words ("Round 12: Holding", "Hand 3: Betting")."""
        if self.round is not None:
            return f"Round {self.round.number}: {self.phase_label}"
        if self.hand is not None:
            return f"Hand {self.hand.number}: {self.phase_label}"
        if self.game_number is not None:  # a game open with nothing dealt: not an idle table
            return f"Game {self.game_number}: between hands"
        return ""

    def fingerprint(self) -> str:
        """What the tile shows, for the poll's change token."""
        shown = self.round or self.hand
        parts = [
            self.table.pk,
            self.table.name,
            self.table.pit,
            self.table.is_open,
            self.dealer,
            self.paytable,
            self.seats_taken,
            self.minutes_since_action,
            shown.number if shown else "",
            shown.phase if shown else "",
            self.game_number or "",
            *(f"{alert.code}:{alert.call_id or ''}:{alert.text}" for alert in self.alerts),
        ]
        return "|".join(str(part) for part in parts)


ALERT_URGENCY = {
    code: rank
    for rank, code in enumerate(("floor_call", "payout_approval", "void_request", "stuck_settlement", "idle"))
}


@dataclass
class FloorView:
    tiles: list[Tile]
    now: datetime

    @property
    def alerts(self) -> list[tuple[Tile, Alert]]:
        """Most urgent first (a dealer calling, a payout waiting, ...; idle tables last), then in the tiles' order:
        a payout waiting at the last table in the pits otherwise sat under every idle table's line."""
        found = [(tile, alert) for tile in self.tiles for alert in tile.alerts]
        return sorted(found, key=lambda item: ALERT_URGENCY.get(item[1].code, len(ALERT_URGENCY)))

    @property
    def token(self) -> str:
        digest = hashlib.sha256("\n".join(tile.fingerprint() for tile in self.tiles).encode())
        return digest.hexdigest()[:16]

    @property
    def pits(self) -> list[tuple[str, list[Tile]]]:
        grouped: dict[str, list[Tile]] = {}
        for tile in self.tiles:
            grouped.setdefault(tile.table.pit, []).append(tile)
        return sorted(grouped.items(), key=lambda item: (item[0] == "", item[0]))


def _minutes(now: datetime, then: datetime | None) -> int | None:
    return None if then is None else max(0, int((now - then).total_seconds() // 60))


def _pending_words(pending: PendingPayout | None) -> str:
    """What the supervisor walks over to approve: each seat's winnings and best hand.

    ": seat 2 wins $7,980.00, Royal flush"; "" when the amounts are not known."""
    if pending is None or not pending.seats:
        return ""
    seats = "; ".join(
        f"seat {seat.seat} wins {money(seat.win_cents)}" + (f", {seat.hands[0]}" if seat.hands else "")
        for seat in pending.seats
    )
    return f": {seats}"


def floor_view(now: datetime | None = None) -> FloorView:
    """Every table's tile, in pit and name order."""
    now = now or timezone.now()
    last_action = AuditEvent.objects.filter(table_id=OuterRef("pk")).order_by("-occurred_at", "-id")
    tables = list(
        Table.objects.select_related("paytable")
        .annotate(
            seats_taken=Count("seats", filter=Q(seats__occupied=True)),
            last_action_at=Subquery(last_action.values("occurred_at")[:1]),
        )
        .order_by("pit", "name")
    )
    in_play = {
        rnd.table_id: rnd
        for rnd in Round.objects.exclude(phase__in=Round.FINISHED)
        .order_by()
        .only("pk", "table_id", "number", "phase", "rows_recorded_at", "settle_queued_at")
    }
    hands = {
        hand.game.table_id: hand
        for hand in HomeHand.objects.filter(status=HomeHand.Status.IN_PLAY)
        .select_related("game")
        .only("pk", "number", "phase", "game__table_id")
    }
    # A home-game table's open game (its number) and its seats: the game's players still at the table.
    open_games = list(
        HomeGame.objects.filter(status=HomeGame.Status.OPEN)
        .annotate(n=Count("players", filter=Q(players__left_at__isnull=True)))
        .values_list("table_id", "number", "n")
    )
    games = {table_id: number for table_id, number, _ in open_games}
    players = {table_id: seated for table_id, _, seated in open_games}
    void_requests: dict[int, AuditEvent] = {}
    for event in AuditEvent.objects.filter(
        action=table_actions.ROUND_VOID_REQUEST.code, round_id__in=[rnd.pk for rnd in in_play.values()]
    ).order_by("id"):
        if event.round_id is not None:  # always: the query asks for rounds in play; the latest wins
            void_requests[event.round_id] = event
    # The amounts of payouts waiting for the floor (queried only while one waits: they are rare).
    awaiting = any(rnd.phase == Phase.AWAITING_APPROVAL for rnd in in_play.values())
    pending = {payout.round.pk: payout for payout in payouts_awaiting_approval()} if awaiting else {}
    # Open until the floor answers: a call outlives the round or hand it was made in.
    calls = open_calls()
    dealers = {
        session.table_id: session.dealer.get_username()
        for session in DealerSession.objects.filter(signed_out_at__isnull=True).select_related("dealer")
    }
    tiles = []
    for table in tables:
        rnd = in_play.get(table.pk)
        tile = Tile(
            table=table,
            dealer=dealers.get(table.pk, ""),
            seats_taken=players.get(table.pk, 0) if table.table_type != TableType.TRIPLE_DRAW else table.seats_taken,
            last_action_at=table.last_action_at,
            minutes_since_action=_minutes(now, table.last_action_at),
            round=rnd,
            hand=hands.get(table.pk),
            game_number=games.get(table.pk),
        )
        tile.alerts = _alerts(
            tile,
            void_requests.get(rnd.pk) if rnd else None,
            now,
            pending.get(rnd.pk) if rnd else None,
        )
        call = calls.get(table.pk)
        if call is not None:  # most urgent first
            tile.alerts.insert(0, _call_alert(call))
        tiles.append(tile)
    return FloorView(tiles=tiles, now=now)


def _call_alert(call: FloorCall) -> Alert:
    """ "Round 12: Dealer dave calls the floor at 14:05 (a dispute)", "Hand 3: ...", or "Between hands: ..."; once
    that round or hand is over, the call (still open) in the past: "Round 12 (settled): Dealer dave called the floor
    at 14:05 (a dispute), waiting"."""
    called_at = timezone.localtime(call.called_at).strftime("%H:%M")
    reason = f" ({call.reason})" if call.reason else ""
    # A floor supervisor may call the floor too (the API lets the floor call to a home-game table): named as one.
    floor_caller = getattr(call, "called_by_floor", False) and not getattr(call, "called_by_dealer", False)
    caller = caller_words(call.called_by, floor_supervisor=floor_caller)
    moved_on = call_moved_on(call)
    if moved_on is None:
        text = f"{call.where}: {caller} calls the floor at {called_at}{reason}"
    else:
        text = f"{call.where} ({moved_on}): {caller} called the floor at {called_at}{reason}, waiting"
    return Alert("floor_call", text, call_id=call.pk)


# A name that already says it is a dealer's ("dealer", "Dealer 2", "dealer3"): the alert does not say it twice.
_SAYS_DEALER = re.compile(r"dealer(?![a-z])", re.IGNORECASE)


def caller_words(user: User, *, floor_supervisor: bool = False) -> str:
    """Who called, as the alert's subject: "Dealer Dave Brown" (the full name when set), "Dealer dave"; the shared
    account "dealer" is "The dealer", and a name that starts with the word already ("dealer2") stands alone. A floor
    supervisor calling is "Floor supervisor fiona": "Dealer fiona" would send the floor looking for a dealer."""
    name = user.get_full_name().strip() or user.get_username()
    if floor_supervisor:
        return f"Floor supervisor {name}"
    if name.lower() == "dealer":
        return "The dealer"
    return name if _SAYS_DEALER.match(name) else f"Dealer {name}"


def _alerts(
    tile: Tile,
    void_request: AuditEvent | None,
    now: datetime,
    pending: PendingPayout | None = None,
) -> list[Alert]:
    alerts = []
    rnd = tile.round
    if rnd is not None and rnd.phase == Phase.AWAITING_APPROVAL:
        words = _pending_words(pending)
        alerts.append(Alert("payout_approval", f"Round {rnd.number}: payout awaiting approval{words}"))
    if void_request is not None:
        alerts.append(
            Alert("void_request", f"Round {rnd.number if rnd else ''}: void requested ({void_request.reason})")
        )
    if rnd is not None and rnd.phase == Phase.SETTLING:
        since = rnd.settle_queued_at or rnd.rows_recorded_at
        if since is not None and now - since > timedelta(seconds=settings.FLOOR_STUCK_SETTLEMENT_SECONDS):
            alerts.append(Alert("stuck_settlement", f"Round {rnd.number}: settling for {_minutes(now, since)} min"))
    if tile.table.is_open:
        idle = tile.minutes_since_action
        if idle is None or idle >= settings.FLOOR_IDLE_MINUTES:
            alerts.append(Alert("idle", f"Open and idle for {idle} min" if idle is not None else "Open, no action yet"))
    return alerts
