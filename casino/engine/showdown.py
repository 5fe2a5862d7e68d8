"""Showdown of N hands under a variant's rules: kill cards, the Freak of Nature sliding wild rank, winners."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from casino.engine.cards import Card, Rank, check_unique
from casino.engine.errors import HandSizeError, RulesError
from casino.engine.hands import HandValue, WildSpec, evaluate
from casino.engine.rules.model import Rules
from casino.engine.rules.options import FREAK_BOTTOMS, FREAK_RANKS

# Freak of Nature: sixes are wild, or the next rank down that a showdown hand holds (rule sheet article 3);
# FREAK_RANKS lives with the options, as the announcement checks kill cards against it.


@dataclass(frozen=True)
class ShowdownResult:
    """Who wins: 0-based indexes into the hands given (several on a tie), the sliding wild rank, each hand's value."""

    winners: tuple[int, ...]
    wild_rank: Rank | None
    values: tuple[HandValue | None, ...]  # None for a dead hand (it held a kill card)

    @property
    def dead(self) -> tuple[int, ...]:
        return tuple(i for i, value in enumerate(self.values) if value is None)

    def to_dict(self, hands: Sequence[Sequence[Card]]) -> dict[str, object]:
        """JSON-able (DESIGN 9): winners, the wild rank code or None, and each hand with its value or dead."""
        entries: list[dict[str, object]] = []
        for index, (hand, value) in enumerate(zip(hands, self.values, strict=True)):
            entry: dict[str, object] = {"held": [str(card) for card in hand], "dead": value is None}
            if value is not None:
                entry |= value.to_dict()
            entry["winner"] = index in self.winners
            entries.append(entry)
        return {
            "winners": list(self.winners),
            "wild_rank": self.wild_rank.code if self.wild_rank is not None else None,
            "hands": entries,
        }


def freak_wild_rank(hands: Sequence[Sequence[Card]], freak_bottom: str = "no_wild") -> Rank | None:
    """The Freak of Nature wild rank (DESIGN 4.7): the highest of 6-5-4-3-2 any hand holds, else freak_bottom."""
    if freak_bottom not in FREAK_BOTTOMS:
        raise RulesError(f"freak_bottom must be one of {', '.join(FREAK_BOTTOMS)}", token=str(freak_bottom))
    held = {card.rank for hand in hands for card in hand}
    for rank in FREAK_RANKS:
        if rank in held:
            return rank
    return Rank.ACE if freak_bottom == "aces" else None


def is_dead(hand: Sequence[Card], rules: Rules) -> bool:
    """A hand holding a kill card is dead (DESIGN 4.6)."""
    return any(card in rules.kill_cards for card in hand)


def showdown(hands: Sequence[Sequence[Card]], rules: Rules) -> ShowdownResult:
    """Evaluate every hand still in, under one wild specification, and name the winners (ties split)."""
    hands = [tuple(hand) for hand in hands]
    for hand in hands:
        if len(hand) != 5:
            raise HandSizeError(
                f"a showdown hand has 5 cards, got {len(hand)}", token=" ".join(str(card) for card in hand)
            )
    check_unique(card for hand in hands for card in hand)  # one deck: no card twice across the table
    live = [hand for hand in hands if not is_dead(hand, rules)]
    # The sliding rank is fixed by the hands in the showdown; a pot won uncontested needs none (DESIGN 4.7).
    wild_rank = freak_wild_rank(live, rules.freak_bottom) if rules.sliding_wild and len(live) >= 2 else None
    wild = hand_wild(rules, wild_rank)
    values = tuple(None if is_dead(hand, rules) else evaluate(hand, wild, rules.options) for hand in hands)
    best = max((value for value in values if value is not None), default=None)
    winners = tuple(i for i, value in enumerate(values) if value is not None and value == best)
    return ShowdownResult(winners=winners, wild_rank=wild_rank, values=values)


def hand_wild(rules: Rules, wild_rank: Rank | None) -> WildSpec:
    """The wild cards a showdown used: the variant's fixed ones plus the sliding rank, if any."""
    if wild_rank is None:
        return rules.wild
    return replace(rules.wild, ranks=rules.wild.ranks | {wild_rank})
