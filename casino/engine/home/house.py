"""The house's charge a home-game table announces (a game record's `house`): what it takes, in words and in cents.

The rake is a percent of each pot as it is awarded, capped per pot, shared by the pot's winners (the odd cent to the
first winner to the dealer's left), never more than a winner's stack and none on a hand never bet into (antes only:
a bet nobody called goes back to its player, so a hand that ends with it holds antes only, as one checked through
does) nor on a pot the floor awarded by ruling. The time charge is taken from each seat with chips before a hand, at
most the seat's stack. The table's services and the replay of a record both count it here.
"""

from __future__ import annotations

from collections.abc import Mapping

from casino.engine.home.errors import IllegalAction
from casino.engine.home.events import EventKind
from casino.engine.home.hand import HomeHand
from casino.engine.home.settle import AwardedPot
from casino.engine.money import money

BASIS_POINTS = 10_000  # a rake's percent is in basis points: 10,000 is 100 %
HOUSE_CHARGE = "house_charge"
_BET_INTO = (EventKind.BET, EventKind.RAISED, EventKind.CALLED)


def house_words(house: Mapping[str, object]) -> str:
    """The announced charge in words: "rake (10% of each pot bet into, at most $1.50)"."""
    charge = house.get("charge")
    if charge == "rake":
        points, cap = house.get("rake_basis_points"), house.get("rake_cap_cents")
        assert isinstance(points, int)
        assert isinstance(cap, int)
        percent = f"{points / 100:.2f}".rstrip("0").rstrip(".")
        return f"rake ({percent}% of each pot bet into, at most {money(cap)})"
    if charge == "time":
        cents = house.get("time_charge_cents")
        assert isinstance(cents, int)
        return f"time charge ({money(cents)} a seat before each half hour's first hand)"
    return "no house charge"


def bet_into(hand: HomeHand) -> bool:
    """Did chips from a bet stay in the middle: bets, raises and calls beyond the uncalled chips returned?"""
    put_in = sum(event.amount_cents for event in hand.events if event.kind in _BET_INTO)
    returned = sum(event.amount_cents for event in hand.events if event.kind is EventKind.BET_RETURNED)
    return put_in > returned


def rake_by_pot(hand: HomeHand, basis_points: int, cap_cents: int,
                stacks: Mapping[int, int]) -> list[tuple[AwardedPot, int, dict[int, int]]]:
    """The rake of a settled hand: each raked pot, its rake and what each winner pays, out of `stacks` (the stacks
    once the pots are paid)."""
    settlement = hand.settlement
    if settlement is None or settlement.by_ruling:
        return []
    if not bet_into(hand):
        return []
    left = dict(stacks)
    raked: list[tuple[AwardedPot, int, dict[int, int]]] = []
    for pot in settlement.pots:
        if not pot.winners:
            continue
        rake = min(cap_cents, pot.amount_cents * basis_points // BASIS_POINTS)
        if rake <= 0:
            continue
        share, odd = divmod(rake, len(pot.winners))
        paid: dict[int, int] = {}
        for index, seat in enumerate(pot.winners):
            cents = min(share + (1 if index < odd else 0), left.get(seat, 0))
            if cents:
                paid[seat] = cents
                left[seat] -= cents
        raked.append((pot, rake, paid))
    return raked


def rake_due(hand: HomeHand, basis_points: int, cap_cents: int, stacks: Mapping[int, int]) -> dict[int, int]:
    """What each seat pays the rake of a settled hand (seats paying nothing left out)."""
    due: dict[int, int] = {}
    for _, _, paid in rake_by_pot(hand, basis_points, cap_cents, stacks):
        for seat, cents in paid.items():
            due[seat] = due.get(seat, 0) + cents
    return due


def time_due(time_charge_cents: int, stack_cents: int) -> int:
    """A seat's time charge: the announced amount, at most its stack."""
    return min(time_charge_cents, max(stack_cents, 0))


def verify_house(house: Mapping[str, object], recorded: Mapping[int, int], due: Mapping[int, int], *,
                 what: str) -> None:
    """The record's house charges (`recorded`, seat: cents) must be what the announced charge takes (`due`);
    IllegalAction (house_charge) names the first seat that differs. `what`: "rake" or "time charge"."""
    for seat in sorted({*recorded, *due}):
        said, taken = recorded.get(seat, 0), due.get(seat, 0)
        if said != taken:
            words = house_words(house)
            raise IllegalAction(
                f"the record's {what} from seat {seat} is {money(said)}; the announced {words} takes {money(taken)}",
                code=HOUSE_CHARGE, rule=f"the house takes only the charge its table announced: {words}")
