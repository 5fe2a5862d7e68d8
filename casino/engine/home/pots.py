"""Main and side pots from each player's contribution, and the split with the odd-chip rule (DESIGN 7)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Pot:
    """One pot: its chips and the seats still able to win it (live players who matched its level)."""

    amount_cents: int
    eligible: tuple[int, ...]

    def to_dict(self) -> dict[str, object]:
        return {"amount_cents": self.amount_cents, "eligible": list(self.eligible)}


def clockwise_from_button(seats: Iterable[int], button: int) -> list[int]:
    """Seats in clockwise order starting with the first seat to the button's left (seat numbers rise clockwise)."""
    ordered = sorted(set(seats))
    return [seat for seat in ordered if seat > button] + [seat for seat in ordered if seat <= button]


def build_pots(contributions: Mapping[int, int], live: Collection[int], carried_cents: int = 0) -> list[Pot]:
    """Layer the contributions into a main pot and side pots, lowest level first (the settlement's pots).

    A layer is won only by live players who put in at least its top level. Chips in a layer no live player
    reached (a killed or departed player's excess) stay in the pot below it: "chips already in the pot stay
    there" (DESIGN 4.6). Chips carried from an earlier hand join the main pot, which every live player may win.
    """
    levels = {contributions[seat] for seat in live if contributions.get(seat, 0) > 0}
    return _layers(contributions, live, levels, lambda seat, level: contributions.get(seat, 0) >= level,
                   carried_cents)


def pots_in_play(contributions: Mapping[int, int], live: Collection[int], all_in: Collection[int],
                 carried_cents: int = 0) -> list[Pot]:
    """The pots as a dealer counts them while the hand is played (the hand view's and the tablet's).

    Only an all-in makes a side pot: the pots are cut at the levels of the live players who are all in, and every
    other live player, who may still call, is in every pot. Chips bet in this betting round and not yet matched
    (a bet the next player has not answered, an unmatched raise) are in the top pot, as the dealer counts them in
    the middle; the seat tiles show what each player has put in. Without an all-in this is one pot: the total.
    Once a betting round is over (every bet matched or the uncalled one returned) these are `build_pots`'s pots,
    which settle the hand.
    """
    capped = {seat for seat in all_in if seat in live}
    levels = {contributions.get(seat, 0) for seat in capped}
    return _layers(contributions, live, {level for level in levels if level > 0},
                   lambda seat, level: seat not in capped or contributions.get(seat, 0) >= level, carried_cents)


def _layers(contributions: Mapping[int, int], live: Collection[int], levels: set[int],
            eligible_at: Callable[[int, int], bool], carried_cents: int) -> list[Pot]:
    """Cut the contributions at `levels` (and the largest contribution); a layer is for the live seats eligible at
    its top level, or joins the pot below when it has no one new (or no one) to win it."""
    cuts = sorted(levels | ({max(contributions.values())} if contributions else set()))
    pots: list[Pot] = []
    previous = 0
    for level in cuts:
        if level <= previous:
            continue
        amount = sum(min(max(put - previous, 0), level - previous) for put in contributions.values())
        eligible = tuple(sorted(seat for seat in live if eligible_at(seat, level)))
        previous = level
        if pots and (not eligible or eligible == pots[-1].eligible):
            pots[-1] = Pot(pots[-1].amount_cents + amount, pots[-1].eligible)
        else:
            pots.append(Pot(amount, eligible))
    if carried_cents:
        main = pots[0] if pots else Pot(0, tuple(sorted(live)))
        pots[:1] = [Pot(main.amount_cents + carried_cents, main.eligible)]
    return [pot for pot in pots if pot.amount_cents > 0]


def split_pot(amount_cents: int, winners_clockwise: Sequence[int]) -> dict[int, int]:
    """Divide evenly; the odd chips go one each to the first winners to the dealer's left (DESIGN 7)."""
    if not winners_clockwise:
        raise ValueError("a pot needs at least one winner to be split")
    share, odd = divmod(amount_cents, len(winners_clockwise))
    return {seat: share + (1 if index < odd else 0) for index, seat in enumerate(winners_clockwise)}
