"""Settle a Triple Draw round (DESIGN 5 and 9): every circle's hand, its paytable return, the per-seat cap."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from casino.engine.cards import Card, parse_cards
from casino.engine.errors import EngineError
from casino.engine.hands import WildSpec, evaluate
from casino.engine.paytable import PaytableSpec
from casino.engine.triple_draw import MAX_CIRCLES, ROW_COUNT, compose_hand, validate_round_cards


@dataclass(frozen=True)
class SeatPlay:
    """What one seat brought to the round: its equal bet on `circles` (circle numbers) and its held cards."""

    seat: int
    bet_cents: int
    circles: tuple[int, ...]
    held: tuple[Card, ...]
    dealt: tuple[Card, ...] = ()


@dataclass(frozen=True)
class HandResult:
    """One circle's hand: the five cards, its category and description, the line it made and what it returns."""

    circle: int
    cards: tuple[Card, ...]
    category: str
    description: str
    line_index: int | None
    line_hand: str | None
    return_cents: int  # from the paytable, stake included
    paid_cents: int  # after the seat cap


@dataclass(frozen=True)
class SeatResult:
    seat: int
    stake_cents: int
    hands: tuple[HandResult, ...]
    capped: bool

    @property
    def total_return_cents(self) -> int:
        return sum(hand.paid_cents for hand in self.hands)

    @property
    def net_cents(self) -> int:
        return self.total_return_cents - self.stake_cents


@dataclass(frozen=True)
class RoundResult:
    seats: tuple[SeatResult, ...]

    @property
    def table_net_cents(self) -> int:
        """The table's win: stakes minus returns."""
        return -sum(seat.net_cents for seat in self.seats)

    def to_dict(self) -> dict[str, Any]:
        """The DESIGN 9 output shape, with the category, line and cap as extra keys."""
        return {
            "seats": [
                {
                    "seat": seat.seat,
                    "hands": [
                        {
                            "circle": hand.circle,
                            "cards": [str(card) for card in hand.cards],
                            "hand": hand.category,
                            "description": hand.description,
                            "line": hand.line_hand,
                            "return_cents": hand.paid_cents,
                        }
                        for hand in seat.hands
                    ],
                    "total_return_cents": seat.total_return_cents,
                    "net_cents": seat.net_cents,
                    "capped": seat.capped,
                }
                for seat in self.seats
            ],
            "table_net_cents": self.table_net_cents,
        }


def _apply_cap(hands: list[HandResult], stake: int, cap: int | None) -> tuple[list[HandResult], bool]:
    """Cut the seat's winnings (returns minus stakes) down to the posted cap, highest circle first."""
    if cap is None:
        return hands, False
    excess = sum(hand.return_cents for hand in hands) - stake - cap
    if excess <= 0:
        return hands, False
    capped = list(hands)
    for index in range(len(capped) - 1, -1, -1):
        hand = capped[index]
        cut = min(excess, hand.paid_cents)
        if cut:
            capped[index] = HandResult(
                hand.circle,
                hand.cards,
                hand.category,
                hand.description,
                hand.line_index,
                hand.line_hand,
                hand.return_cents,
                hand.paid_cents - cut,
            )
            excess -= cut
        if excess == 0:
            break
    return capped, True


def settle_round(
    spec: PaytableSpec, rows: Sequence[Sequence[Card]], seats: Sequence[SeatPlay], cap_cents: int | None = None
) -> RoundResult:
    """Evaluate every bet hand and pay it from `spec`; raises EngineError on inconsistent cards or bets."""
    if len(rows) != ROW_COUNT:
        raise EngineError(f"expected {ROW_COUNT} draw rows, got {len(rows)}", token=str(len(rows)))
    validate_round_cards(
        {seat.seat: seat.dealt for seat in seats if seat.dealt},
        {seat.seat: seat.held for seat in seats},
        rows,
    )
    wild = WildSpec(ranks=frozenset(spec.wild_ranks))
    results: list[SeatResult] = []
    for seat in seats:
        if not seat.circles or len(set(seat.circles)) != len(seat.circles):
            raise EngineError(f"seat {seat.seat}: circles {list(seat.circles)} are not distinct", token=str(seat.seat))
        if any(not 1 <= circle <= MAX_CIRCLES for circle in seat.circles):
            raise EngineError(f"seat {seat.seat}: a circle is outside 1-3", token=str(seat.seat))
        if seat.bet_cents <= 0:
            raise EngineError(f"seat {seat.seat}: bet must be positive", token=str(seat.bet_cents))
        hands: list[HandResult] = []
        for circle in sorted(seat.circles):
            cards = compose_hand(seat.held, rows[circle - 1])
            value = evaluate(cards, wild)
            payout = spec.settle_hand(cards, seat.bet_cents)
            hands.append(
                HandResult(
                    circle,
                    tuple(cards),
                    str(value.category),
                    value.description,
                    payout.line_index,
                    payout.hand_code,
                    payout.return_cents,
                    payout.return_cents,
                )
            )
        stake = seat.bet_cents * len(hands)
        hands, capped = _apply_cap(hands, stake, cap_cents)
        results.append(SeatResult(seat.seat, stake, tuple(hands), capped))
    return RoundResult(tuple(results))


def _cards(value: Any, what: str, count: int | None = None) -> tuple[Card, ...]:
    if isinstance(value, str):
        return parse_cards(value, count=count)
    if not isinstance(value, list):
        raise EngineError(f"{what}: expected a list of cards", token=str(value))
    return parse_cards([str(token) for token in value], count=count)


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise EngineError(f"{what}: expected a whole number of cents, got {value!r}", token=str(value))
    return value


def parse_round_record(
    data: Mapping[str, Any],
) -> tuple[PaytableSpec, list[tuple[Card, ...]], list[SeatPlay], int | None]:
    """Read a DESIGN 9 round record: paytable, three rows, seats (and an optional per-seat cap)."""
    if not isinstance(data, Mapping):
        raise EngineError("a round record is a JSON object", token=type(data).__name__)
    for key in ("paytable", "rows", "seats"):
        if key not in data:
            raise EngineError(f"round record: missing {key!r}", token=key)
    paytable = dict(data["paytable"])
    paytable.setdefault("name", "round record")
    spec = PaytableSpec.from_dict(paytable)
    raw_rows = data["rows"]
    if not isinstance(raw_rows, list):
        raise EngineError("rows: expected three lists of five cards", token=str(raw_rows))
    rows = [_cards(row, f"row {index}", 5) for index, row in enumerate(raw_rows, start=1)]
    seats: list[SeatPlay] = []
    for entry in data["seats"]:
        seat = _int(entry.get("seat"), "seat")
        circles_value = entry.get("circles", 1)
        if isinstance(circles_value, list):
            circles = tuple(_int(c, f"seat {seat} circles") for c in circles_value)
        else:
            circles = tuple(range(1, _int(circles_value, f"seat {seat} circles") + 1))
        dealt = _cards(entry["dealt"], f"seat {seat} dealt", 5) if entry.get("dealt") else ()
        seats.append(
            SeatPlay(
                seat=seat,
                bet_cents=_int(entry.get("bet_cents"), f"seat {seat} bet_cents"),
                circles=circles,
                held=_cards(entry.get("held", []), f"seat {seat} held"),
                dealt=dealt,
            )
        )
    if len({seat.seat for seat in seats}) != len(seats):
        raise EngineError("round record: a seat appears twice", token="seats")  # noqa: S106 (a field name)
    cap = data.get("max_payout_per_seat_cents")
    return spec, rows, seats, (None if cap is None else _int(cap, "max_payout_per_seat_cents"))


def replay_round_record(data: Mapping[str, Any]) -> RoundResult:
    """Recompute a round record's outcomes from its cards and paytable alone."""
    spec, rows, seats, cap = parse_round_record(data)
    return settle_round(spec, rows, seats, cap)
