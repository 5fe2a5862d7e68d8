"""The end of a hand: pots awarded at showdown or uncontested, split with the odd chip, legs and carried pots."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from casino.engine.cards import Card, Rank
from casino.engine.hands import HandValue
from casino.engine.home.pots import build_pots, clockwise_from_button, split_pot
from casino.engine.rules.model import Rules
from casino.engine.rules.options import TieRule

# Ranks the live hands at a showdown: each seat's hand value, and the wild rank fixed for the showdown.
Ranker = Callable[[Mapping[int, Sequence[Card]]], tuple[dict[int, HandValue], Rank | None]]


@dataclass(frozen=True)
class AwardedPot:
    """A pot, who could win it and who did; no winners means it stays in the middle for the next hand."""

    amount_cents: int
    winners: tuple[int, ...]
    eligible: tuple[int, ...] = ()


@dataclass(frozen=True)
class Settlement:
    pots: tuple[AwardedPot, ...]
    payouts: dict[int, int]
    wild_rank: Rank | None
    legs: dict[int, int]
    leg_scorers: tuple[int, ...]
    carried_pot_cents: int
    game_winners: tuple[int, ...]
    values: dict[int, HandValue] = field(default_factory=dict)  # each showdown hand, by seat
    ruling: str = ""  # the floor's reason when the pot was awarded by ruling (DESIGN 7), not by the cards
    live: tuple[int, ...] = ()  # the seats still in at the end (one: left alone after the others folded)

    @property
    def by_ruling(self) -> bool:
        return bool(self.ruling)

    @property
    def descriptions(self) -> dict[int, str]:
        return {seat: value.description for seat, value in self.values.items()}


def settle(
    *,
    rules: Rules,
    button: int,
    contributions: Mapping[int, int],
    hands: Mapping[int, Sequence[Card]],
    carried_pot_cents: int,
    legs: Mapping[int, int],
    ranker: Ranker,
) -> Settlement:
    """Settle a hand whose live players hold `hands`.

    Rulings where the sheets are silent:
    - If no hand is live (every player killed or gone), the pot stays in the middle for the next hand.
    - A player left alone because the others folded, were killed or left wins uncontested (and, in Three
      Legged Race, scores a leg when `uncontested_scores_leg` is on).
    - Three Legged Race: the best hand among all live players scores the leg. Until someone reaches the target,
      every pot of the hand (side pots too) joins the pot that stays. A player who reaches the target takes
      every pot they are eligible for; a side pot they are not eligible for goes to its best eligible hand.
    """
    live = list(hands)
    pots = build_pots(contributions, live, carried_pot_cents)
    total = sum(pot.amount_cents for pot in pots)
    new_legs = dict(legs)
    if not live:
        carried = tuple(AwardedPot(p.amount_cents, (), p.eligible) for p in pots)
        return Settlement(carried, {}, None, new_legs, (), total, (), live=())
    values: dict[int, HandValue] = {}
    wild_rank: Rank | None = None
    if len(live) > 1:
        values, wild_rank = ranker(hands)

    def best(seats: Sequence[int]) -> tuple[int, ...]:
        if len(seats) == 1 or not values:
            return tuple(clockwise_from_button(seats, button))
        top = max(values[seat].strength for seat in seats)
        return tuple(clockwise_from_button([s for s in seats if values[s].strength == top], button))

    def award(choose: Callable[[Sequence[int]], tuple[int, ...]]) -> tuple[tuple[AwardedPot, ...], dict[int, int]]:
        awarded: list[AwardedPot] = []
        payouts: dict[int, int] = {}
        for pot in pots:
            # A pot no live player matched (only when the live players put nothing in) goes to the live hands.
            winners = choose(pot.eligible or live)
            awarded.append(AwardedPot(pot.amount_cents, winners, pot.eligible or tuple(live)))
            for seat, cents in split_pot(pot.amount_cents, winners).items():
                payouts[seat] = payouts.get(seat, 0) + cents
        return tuple(awarded), payouts

    if not rules.plays_for_legs:
        awarded, payouts = award(best)
        return Settlement(awarded, payouts, wild_rank, new_legs, (), 0, (), values, live=tuple(live))
    scorers = _leg_scorers(rules, best(live), contested=len(live) > 1)
    for seat in scorers:
        new_legs[seat] = new_legs.get(seat, 0) + 1
    reached = tuple(seat for seat in scorers if new_legs[seat] >= rules.legs_to_win)
    if not reached:
        carried = tuple(AwardedPot(pot.amount_cents, (), pot.eligible) for pot in pots)
        return Settlement(carried, {}, wild_rank, new_legs, scorers, total, (), values, live=tuple(live))
    awarded, payouts = award(
        lambda eligible: tuple(seat for seat in reached if seat in eligible) or best(eligible)
    )
    return Settlement(awarded, payouts, wild_rank, new_legs, scorers, 0, reached, values, live=tuple(live))


def _leg_scorers(rules: Rules, winners: tuple[int, ...], *, contested: bool) -> tuple[int, ...]:
    """Who scores a leg: the showdown winner(s) under the announced tie rule, or the player left alone."""
    if not contested:
        return winners if rules.uncontested_scores_leg else ()
    if len(winners) > 1 and rules.tie is TieRule.NOBODY_SCORES:
        return ()
    return winners
