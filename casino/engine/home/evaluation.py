"""Bridge to the hand evaluator: the showdown of the live hands under the game's rules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from casino.engine.cards import Card, Rank
from casino.engine.hands import HandValue
from casino.engine.rules.model import Rules
from casino.engine.showdown import showdown


def rank_hands(rules: Rules, hands: Mapping[int, Sequence[Card]]) -> tuple[dict[int, HandValue], Rank | None]:
    """Each live showdown hand's value, by seat, and the wild rank fixed for the showdown (Freak of Nature).

    A hand holding a kill card gets no value: the hand state machine kills its holder on receipt (or, in a manual
    hand, when it is shown), so the showdown only ever sees live hands.
    """
    seats = list(hands)
    result = showdown([hands[seat] for seat in seats], rules)
    values = {seat: value for seat, value in zip(seats, result.values, strict=True) if value is not None}
    return values, result.wild_rank
