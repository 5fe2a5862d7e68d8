"""The one read model of a Triple Draw round: what the API serializes and the tablet renders, and its change token.

Which parts of a round exist in which phase is decided here once: bets from betting on, seat hands once bets close,
rows once drawing starts (a shoe lays them card by card), outcomes once the settlement job has run.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any

from django.db import connection
from django.db.models import Max

from audit.models import AuditEvent
from casino.api_time import api_time
from casino.engine.triple_draw import ROW_COUNT
from casino.sql import column as col
from casino.sql import table as tab
from paytables.models import Paytable, PaytableLine
from tables import actions
from tables.models import Bet, DrawRow, HandOutcome, Round, Seat, SeatHand, Table

Phase = Round.Phase
NO_HANDS = (Phase.BETTING,)
NO_ROWS = (Phase.BETTING, Phase.DEALING, Phase.HOLDING)
# Outcomes exist once the settlement job ran (a round voided while awaiting approval keeps them).
WITH_OUTCOMES = (Phase.AWAITING_APPROVAL, Phase.SETTLED, Phase.VOIDED)
SETTLED = (Phase.AWAITING_APPROVAL, Phase.SETTLED)


def round_in_play(table: Table | int, *, for_update: bool = False) -> Round | None:
    """The table's unfinished round, if any (the database allows one); `for_update` locks it and raises nothing."""
    rounds = Round.objects.filter(table=table).exclude(phase__in=Round.FINISHED).order_by()
    if for_update:
        rounds = rounds.select_for_update(of=("self",)).select_related("table")
    return rounds.first()


def round_shown(table: Table) -> Round | None:
    """The round a table's screen shows: the one in play, else the last (its results stay up until the next)."""
    return round_in_play(table) or Round.objects.filter(table=table).order_by("-number").first()


def state_token(table: Table, rnd: Round | None) -> str:
    """The change token of what a screen or API answer shows for `table` and `rnd` (the tablet poll and ETags).

    Each version is raised under its row's lock by every write (services/locks.py), so it grows in commit order:
    a client holding an older token always sees a difference. The paytable's status is changed by its own services,
    so it is part of the token too. Read `table` before the rows it shows, so the token is never newer than them.
    """
    shown = f"{rnd.pk}.{rnd.version}" if rnd is not None else "-"
    paytable = table.paytable.status if table.paytable is not None else "-"
    return f"t{table.pk}.{table.version}.{shown}.{paytable}"


def round_token_now(round_id: int) -> tuple[Table, str] | None:
    """The round's change token as committed now, with its table (id and name only, for the access check), in one
    statement; None if there is no such round. The same token state_token gives for the round and its table."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT t.{col(Table, 'pk')}, t.{col(Table, 'name')}, t.{col(Table, 'version')}, "  # noqa: S608
            f"r.{col(Round, 'version')}, p.{col(Paytable, 'status')} FROM {tab(Round)} r "
            f"JOIN {tab(Table)} t ON t.{col(Table, 'pk')} = r.{col(Round, 'table')} "
            f"LEFT JOIN {tab(Paytable)} p ON p.{col(Paytable, 'pk')} = t.{col(Table, 'paytable')} "
            f"WHERE r.{col(Round, 'pk')} = %s",
            [round_id],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    table_id, name, table_version, round_version, paytable_status = row
    token = f"t{table_id}.{table_version}.{round_id}.{round_version}.{paytable_status or '-'}"
    return Table(pk=table_id, name=name), token


def token_round(table: Table) -> Round | None:
    """The round whose version is in the table's change token: the one in play, else the last (its pk, version and
    phase at least)."""
    return round_in_play(table) or (
        Round.objects.filter(table=table).order_by("-number").only("pk", "version", "phase").first()
    )


def table_token(table: Table) -> str:
    """The change token of the table's screen now (one or two index lookups)."""
    return state_token(table, token_round(table))


@dataclass
class OutcomeView:
    """How one circle's hand came out."""

    circle: int
    cards: list[str]
    hand: str  # the category code, e.g. "full_house"
    description: str
    line_hand: str  # the paytable line's hand code, "" for a loss
    line: PaytableLine | None
    return_cents: int
    paid_cents: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "circle": self.circle,
            "cards": self.cards,
            "hand": self.hand,
            "description": self.description,
            "line": self.line_hand or None,
            "paytable_line_id": self.line.pk if self.line is not None else None,
            "return_cents": self.return_cents,
            "paid_cents": self.paid_cents,
        }


@dataclass
class SeatView:
    """One seat in a round: the player, the bets per circle, the cards and the outcomes."""

    number: int
    occupied: bool
    player_name: str
    bets: dict[int, int] = field(default_factory=dict)  # circle -> cents
    dealt: list[str] = field(default_factory=list)
    held: list[str] | None = None
    outcomes: list[OutcomeView] = field(default_factory=list)

    @property
    def key(self) -> str:
        """Where this seat's errors are filed on the tablet."""
        return f"seat-{self.number}"

    @property
    def deal_field(self) -> str:
        return f"seat{self.number}"

    @property
    def circles(self) -> int:
        return len(self.bets)

    @property
    def amount_cents(self) -> int | None:
        """The equal bet per circle."""
        return next(iter(self.bets.values()), None)

    @property
    def has_bet(self) -> bool:
        return bool(self.bets)

    @property
    def staked_cents(self) -> int:
        return sum(self.bets.values())

    @property
    def paid_cents(self) -> int:
        return sum(outcome.paid_cents for outcome in self.outcomes)

    @property
    def net_cents(self) -> int:
        return self.paid_cents - self.staked_cents

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.number,
            "player_name": self.player_name,
            "occupied": self.occupied,
            "bets": {str(c): a for c, a in sorted(self.bets.items())},
            "circles": sorted(self.bets),
            "bet_cents": self.amount_cents or 0,
            "stake_cents": self.staked_cents,
            "dealt": self.dealt,
            "held": self.held,
            "outcomes": [outcome.to_dict() for outcome in self.outcomes],
            "return_cents": self.paid_cents,
            "net_cents": self.net_cents if self.outcomes else None,
        }


@dataclass
class RoundView:
    """A table's round as everyone sees it; `round` is None before the table's first round."""

    table: Table
    round: Round | None
    seats: list[SeatView]  # every seat of the table, then any betting seat beyond (a seat whose player left)
    rows: list[list[str]]  # the rows laid so far, in order
    token: str

    @property
    def phase(self) -> str:
        return self.round.phase if self.round is not None else ""

    @property
    def paytable(self) -> Paytable | None:
        """The version locked on the round once bets closed, else the table's."""
        if self.round is not None and self.round.paytable_id is not None:
            return self.round.paytable
        return self.table.paytable

    @property
    def betting_seats(self) -> list[SeatView]:
        return [seat for seat in self.seats if seat.has_bet]

    @property
    def in_play_seats(self) -> list[SeatView]:
        """Seats with a bet or a player: the seats the API lists."""
        return [seat for seat in self.seats if seat.has_bet or seat.occupied]

    @property
    def used_cards(self) -> list[str]:
        """Every card known in the round: each seat's dealt (or, never dealt, held) cards, then the rows."""
        seat_cards = [card for seat in self.betting_seats for card in (seat.dealt or seat.held or [])]
        return seat_cards + [card for row in self.rows for card in row]

    @property
    def missing_holds(self) -> list[int]:
        if self.phase in NO_HANDS or self.phase == "":
            return []
        return [seat.number for seat in self.betting_seats if seat.held is None]

    @property
    def padded_rows(self) -> list[list[str]]:
        """Three rows for the screen; [] for a row not laid yet."""
        return [*self.rows, *([] for _ in range(ROW_COUNT - len(self.rows)))]

    @property
    def has_results(self) -> bool:
        return any(seat.outcomes for seat in self.seats)

    @property
    def total_stake_cents(self) -> int:
        return sum(seat.staked_cents for seat in self.betting_seats)

    @property
    def total_paid_cents(self) -> int:
        return sum(seat.paid_cents for seat in self.betting_seats)

    @property
    def table_net_cents(self) -> int:
        """The house's result for the round: stakes taken minus amounts paid."""
        return self.total_stake_cents - self.total_paid_cents

    @cached_property
    def void_request(self) -> AuditEvent | None:
        """The latest void request of an unfinished round (read only when shown)."""
        if self.round is None or self.round.is_finished:
            return None
        return (
            AuditEvent.objects.filter(round_id=self.round.pk, action=actions.ROUND_VOID_REQUEST.code)
            .order_by("-id")
            .first()
        )

    def to_dict(self) -> dict[str, Any]:
        """The round's state as the API answers it."""
        rnd = self.round
        assert rnd is not None, "the API shows rounds, not tables without one"
        settled = rnd.phase in SETTLED
        return {
            "id": rnd.pk,
            "table": {"id": self.table.pk, "name": self.table.name, "card_source": self.table.card_source},
            "number": rnd.number,
            "phase": rnd.phase,
            "paytable": None if rnd.paytable_id is None else {"id": rnd.paytable_id, **(rnd.paytable_snapshot or {})},
            "dealer": rnd.dealer.username if rnd.dealer is not None else None,
            "started_at": api_time(rnd.started_at),
            "bets_closed_at": api_time(rnd.bets_closed_at),
            "rows_recorded_at": api_time(rnd.rows_recorded_at),
            "settled_at": api_time(rnd.settled_at),
            "approved_by": rnd.approved_by.username if rnd.approved_by is not None else None,
            "voided_at": api_time(rnd.voided_at),
            "void_reason": rnd.void_reason,
            "seats": [seat.to_dict() for seat in self.in_play_seats],
            "rows": self.rows,
            "missing_holds": self.missing_holds,
            "used_cards": self.used_cards,
            "totals": {
                "stakes_cents": self.total_stake_cents,
                "returns_cents": self.total_paid_cents if settled else None,
                "table_net_cents": self.table_net_cents if settled else None,
            },
        }


def _parts_sql(hands: bool, rows: bool) -> str:
    """One statement reading a round's seats, bets and (when they exist) seat hands and rows, as rows of
    (kind, number, a, b, text, text). Written out: the tablet and every action's answer read it, and four ORM
    queries cost several times the CPU of this one."""
    parts = [
        f"SELECT 0, {col(Seat, 'number')}, CASE WHEN {col(Seat, 'occupied')} THEN 1 ELSE 0 END, 0, "  # noqa: S608 (names from model metadata)
        f"{col(Seat, 'player_name')}, NULL FROM {tab(Seat)} WHERE {col(Seat, 'table')} = %s",
        f"SELECT 1, {col(Bet, 'seat_number')}, {col(Bet, 'circle')}, {col(Bet, 'amount_cents')}, NULL, NULL "  # noqa: S608 (names from model metadata)
        f"FROM {tab(Bet)} WHERE {col(Bet, 'round')} = %s",
    ]
    if hands:
        parts.append(
            f"SELECT 2, {col(SeatHand, 'seat_number')}, 0, 0, CAST({col(SeatHand, 'dealt')} AS TEXT), "  # noqa: S608 (names from model metadata)
            f"CAST({col(SeatHand, 'held')} AS TEXT) FROM {tab(SeatHand)} WHERE {col(SeatHand, 'round')} = %s"
        )
    if rows:
        parts.append(
            f"SELECT 3, {col(DrawRow, 'row')}, 0, 0, CAST({col(DrawRow, 'cards')} AS TEXT), NULL "  # noqa: S608 (names from model metadata)
            f"FROM {tab(DrawRow)} WHERE {col(DrawRow, 'round')} = %s"
        )
    return " UNION ALL ".join(parts)


def _json_list(text: str | None) -> list[str] | None:
    value = json.loads(text) if text is not None else None
    return list(value) if value is not None else None


def round_view(table: Table, rnd: Round | None) -> RoundView:
    """Read a round in one or two queries; `table` is read first so the token is never newer than the view."""
    token = state_token(table, rnd)
    hands = rnd is not None and rnd.phase not in NO_HANDS
    laid = rnd is not None and rnd.phase not in NO_ROWS
    sql = _parts_sql(hands, laid)
    with connection.cursor() as cursor:
        cursor.execute(sql, [table.pk] + [rnd.pk if rnd is not None else None] * (1 + hands + laid))
        found = cursor.fetchall()
    seats = {
        number: SeatView(number=number, occupied=bool(occupied), player_name=name)
        for kind, number, occupied, _, name, _ in sorted(found, key=lambda r: r[1])
        if kind == 0
    }
    for number, circle, amount in sorted((number, a, b) for kind, number, a, b, _, _ in found if kind == 1):
        seat = seats.setdefault(number, SeatView(number=number, occupied=False, player_name=""))
        seat.bets[circle] = int(amount)
    for kind, number, _, _, dealt, held in found:
        if kind == 2:
            seats[number].dealt = _json_list(dealt) or []
            seats[number].held = _json_list(held)
    laid_rows = sorted((number, cards) for kind, number, _, _, cards, _ in found if kind == 3)
    rows = [_json_list(cards) or [] for _, cards in laid_rows]
    if rnd is not None and rnd.phase in WITH_OUTCOMES:
        outcomes = HandOutcome.objects.filter(round=rnd).select_related("paytable_line")
        for o in outcomes.order_by("seat_number", "circle"):
            seats[o.seat_number].outcomes.append(
                OutcomeView(
                    circle=o.circle,
                    cards=list(o.cards),
                    hand=o.category,
                    description=o.description,
                    line_hand=o.line_hand,
                    line=o.paytable_line,
                    return_cents=int(o.return_cents),
                    paid_cents=int(o.paid_cents),
                )
            )
    return RoundView(table=table, round=rnd, seats=[seats[n] for n in sorted(seats)], rows=rows, token=token)


def round_view_of(rnd: Round) -> RoundView:
    """The view of one round (its table loaded with it)."""
    return round_view(rnd.table, rnd)


def table_view(table: Table) -> RoundView:
    """What the table's screen shows now: its round in play, else its last round, else no round."""
    return round_view(table, round_shown(table))


def previous_bets(table: Table, rnd: Round | None) -> dict[int, tuple[int, int]]:
    """Each seat's bet in the table's round before `rnd`: seat -> (circles, amount per circle), for Rebet/Repeat.

    Only while the player who placed it sits there: a seat whose player sat down after its last bet (the one who bet
    left, and someone else, or they again, sat down since) has no last bet, or Rebet would place the previous
    player's bet for the new one."""
    if rnd is None:
        return {}
    before = Round.objects.filter(table=table, number__lt=rnd.number).order_by("-number").values("pk")[:1]
    bets: dict[int, tuple[int, int]] = {}
    placed: dict[int, datetime] = {}
    for seat, amount, at in (
        Bet.objects.filter(round__in=before)
        .order_by("seat_number", "circle")
        .values_list("seat_number", "amount_cents", "placed_at")
    ):
        circles, _ = bets.get(seat, (0, amount))
        bets[seat] = (circles + 1, amount)
        placed[seat] = max(at, placed.get(seat, at))
    if bets:
        seats = Seat.objects.filter(table=table, number__in=list(bets)).order_by()
        for number, seated_at in seats.values_list("number", "seated_at"):
            if seated_at is not None and seated_at > placed[number]:
                del bets[number]
    return bets


def seats_left_since_bets(table: Table, rnd: Round | None) -> set[int]:
    """The seats of `rnd` whose player has left since betting: the seat is empty, or someone sat down after the seat's
    last bet. Its results are not the newcomer's: the panel once read "Seat 1 Wins $15.00, Pay $15.00" for a player
    who had just sat down where the winner had been."""
    if rnd is None:
        return set()
    placed = dict(Bet.objects.filter(round=rnd).order_by().values("seat_number").annotate(at=Max("placed_at"))
                  .values_list("seat_number", "at"))
    seats = Seat.objects.filter(table=table, number__in=list(placed)).order_by()
    return {number for number, occupied, seated_at in seats.values_list("number", "occupied", "seated_at")
            if not occupied or (seated_at is not None and seated_at > placed[number])}


def void_requests(rnd: Round | None) -> list[AuditEvent]:
    """The dealer's requests to void an unfinished round, oldest first."""
    if rnd is None or rnd.is_finished:
        return []
    return list(AuditEvent.objects.filter(round_id=rnd.pk, action=actions.ROUND_VOID_REQUEST.code).order_by("id"))
