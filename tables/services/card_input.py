"""Card input for the services: parse with the engine, check a round's cards, turn engine errors into domain errors."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Mapping, Sequence

from casino.engine.cards import Card, check_unique, parse_cards
from casino.engine.errors import EngineError
from casino.engine.triple_draw import validate_round_cards
from casino.errors import DomainError
from tables.models import DrawRow, Round, SeatHand
from tables.services.round_rows import draw_rows, seat_hands


@contextlib.contextmanager
def engine_errors(field: str | None = None) -> Iterator[None]:
    """Re-raise an engine error as a 400 naming the bad card or count."""
    try:
        yield
    except EngineError as exc:
        raise DomainError(exc.message, code=exc.code, field=field) from None


def parse(tokens: Iterable[str] | str, *, field: str, count: int | None = None) -> tuple[Card, ...]:
    if not isinstance(tokens, str | list | tuple):
        raise DomainError(f"{field}: expected a list of cards", code="bad_card", field=field)
    with engine_errors(field):
        return parse_cards(tokens if isinstance(tokens, str) else [str(t) for t in tokens], count=count)


def codes(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]


def round_picture(
    rnd: Round, hands: Sequence[SeatHand] | None = None, rows: Sequence[DrawRow] | None = None
) -> tuple[dict[int, tuple[Card, ...]], dict[int, tuple[Card, ...]], list[tuple[Card, ...]]]:
    """The cards already recorded in a round: dealt and held per seat, and the draw rows (none before drawing);
    `hands` and `rows` are the round's when the caller has read them already."""
    dealt: dict[int, tuple[Card, ...]] = {}
    held: dict[int, tuple[Card, ...]] = {}
    for hand in seat_hands(rnd) if hands is None else hands:
        if hand.dealt:
            dealt[hand.seat_number] = parse_cards(hand.dealt)
        if hand.held is not None:
            held[hand.seat_number] = parse_cards(hand.held)
    early = (Round.Phase.BETTING, Round.Phase.DEALING, Round.Phase.HOLDING)
    if rnd.phase in early:
        return dealt, held, []
    return dealt, held, [parse_cards(r.cards) for r in (draw_rows(rnd) if rows is None else rows)]


def check_round_cards(
    dealt: Mapping[int, Sequence[Card]],
    held: Mapping[int, Sequence[Card]],
    rows: Sequence[Sequence[Card]],
    *,
    field: str,
) -> None:
    """The engine's round-wide checks: each card once, 0-5 held, held cards among those dealt."""
    full_rows = [row for row in rows if len(row) == 5]
    partial = [card for row in rows if len(row) != 5 for card in row]
    with engine_errors(field):
        validate_round_cards(dealt, held, full_rows)
        if partial:
            # A shoe fills a row card by card; the engine checks whole rows, so check the partial one here.
            check_unique(
                [*{card for cards in (*dealt.values(), *held.values(), *full_rows) for card in cards}, *partial]
            )


def check_cards_once(cards: Iterable[Card], *, field: str) -> None:
    """No card twice among `cards` (a shoe's partly dealt seats)."""
    with engine_errors(field):
        check_unique(cards)
