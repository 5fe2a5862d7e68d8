"""Triple Draw hand composition (DESIGN 5): held cards plus the first 5 - held cards of each draw-card row."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from casino.engine.cards import Card, check_unique
from casino.engine.errors import DuplicateCardError, EngineError, HandSizeError, NotDealtError

# The table's fixed shape, defined once here (the tables app imports these).
MAX_SEATS = 7
MAX_CIRCLES = 3  # betting circles per seat, each with its own draw-card row
ROW_COUNT = MAX_CIRCLES
CARDS_PER_HAND = 5  # cards dealt to a seat, and cards in a draw-card row


def _text(cards: Sequence[Card]) -> str:
    return " ".join(str(card) for card in cards)


def verify_held(held: Sequence[Card]) -> None:
    """A seat holds 0 to 5 distinct cards."""
    if len(held) > 5:
        raise HandSizeError(f"a seat holds 0 to 5 cards, got {len(held)}", token=_text(held))
    check_unique(held)


def verify_row(row: Sequence[Card]) -> None:
    """A draw-card row has five distinct cards."""
    if len(row) != CARDS_PER_HAND:
        raise HandSizeError(f"a draw-card row has {CARDS_PER_HAND} cards, got {len(row)}", token=_text(row))
    check_unique(row)


def compose_hand(held: Sequence[Card], row: Sequence[Card]) -> tuple[Card, ...]:
    """The hand for one circle: the held cards followed by the first 5 - len(held) cards of the row."""
    verify_held(held)
    verify_row(row)
    hand = (*held, *row[: 5 - len(held)])
    check_unique(hand)
    return hand


def compose_hands(held: Sequence[Card], rows: Sequence[Sequence[Card]], circles: int) -> tuple[tuple[Card, ...], ...]:
    """The hands of circles 1..circles: circle r uses row r."""
    if not 1 <= circles <= MAX_CIRCLES:
        raise EngineError(f"a seat bets 1 to {MAX_CIRCLES} circles, got {circles}", token=str(circles))
    if len(rows) < circles:
        raise HandSizeError(f"{circles} circles need {circles} rows, got {len(rows)}", token=str(len(rows)))
    return tuple(compose_hand(held, rows[circle]) for circle in range(circles))


def validate_round_cards(
    dealt: Mapping[int, Sequence[Card]],
    held: Mapping[int, Sequence[Card]],
    rows: Sequence[Sequence[Card]],
) -> None:
    """Check a round's cards: 5 dealt per seat, 0-5 held from those dealt, 5 per row, no card twice in the round.

    Seats missing from `dealt` (cards not recorded yet) still have their held cards counted as used.
    """
    if len(rows) > ROW_COUNT:
        raise HandSizeError(f"a round has at most {ROW_COUNT} draw-card rows, got {len(rows)}", token=str(len(rows)))
    seen: dict[Card, str] = {}

    def use(card: Card, where: str) -> None:
        if card in seen:
            raise DuplicateCardError(f"card {card} appears twice: {seen[card]} and {where}", token=str(card))
        seen[card] = where

    for seat, cards in dealt.items():
        if len(cards) != 5:
            raise HandSizeError(f"seat {seat} must be dealt 5 cards, got {len(cards)}", token=_text(cards))
        for card in cards:
            use(card, f"seat {seat}")
    for seat, cards in held.items():
        verify_held(cards)
        if seat in dealt:
            for card in cards:
                if card not in dealt[seat]:
                    raise NotDealtError(f"card {card} held by seat {seat} was not dealt to it", token=str(card))
        else:
            for card in cards:
                use(card, f"seat {seat}")
    for number, row in enumerate(rows, start=1):
        verify_row(row)
        for card in row:
            use(card, f"row {number}")
