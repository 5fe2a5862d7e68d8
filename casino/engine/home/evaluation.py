"""Bridge to the hand evaluator: the showdown of the live hands under the game's rules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from casino.engine.cards import Card, Rank
from casino.engine.rules.model import Rules
from casino.engine.showdown import showdown


def rank_hands(
    rules: Rules, hands: Mapping[int, Sequence[Card]]
) -> tuple[dict[int, tuple[int, ...]], dict[int, str], Rank | None]:
    """Each showdown hand's strength and description, and the wild rank fixed for the showdown (Freak of Nature)."""
    seats = list(hands)
    result = showdown([hands[seat] for seat in seats], rules)
    strengths: dict[int, tuple[int, ...]] = {}
    descriptions: dict[int, str] = {}
    for seat, value in zip(seats, result.values, strict=True):
        if value is not None:
            strengths[seat] = value.strength
            descriptions[seat] = value.description
    return strengths, descriptions, result.wild_rank
