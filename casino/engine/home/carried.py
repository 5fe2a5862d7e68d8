"""Who owns the chips of a carried pot (Three Legged Race): each hand's addition shared by what each player put in,
and the pot given back by those shares when the floor closes the game unwon. One copy for the engine and the
services, so the stored game and its replayed record cannot disagree."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

# Who owns a share: a seat, or (seat, occupant) where one seat was taken by several players in turn (1 = the first).
Owner = TypeVar("Owner", int, tuple[int, int])


def carried_shares(contributed: Mapping[int, int], added: int) -> dict[int, int]:
    """Each seat's share of `added` chips carried out of a hand, in proportion to what it put in (floor division;
    the odd chips one each to the largest contributors). Empty when nothing was added or nobody put anything in."""
    contributed = {seat: cents for seat, cents in contributed.items() if cents}
    total = sum(contributed.values())
    if added <= 0 or total == 0:
        return {}
    shares = {seat: cents * added // total for seat, cents in contributed.items()}
    rest = added - sum(shares.values())
    for seat in sorted(shares, key=lambda s: -contributed[s])[:rest]:
        shares[seat] += 1
    return shares


def returned_shares(owed: Mapping[Owner, int], carried: int) -> dict[Owner, int]:
    """The carried pot given back at a close: each owner (a seat, or a seat and its occupant) its own share; chips
    nobody is known to own (rounding, or shares that fell behind the pot) to the largest contributor (the lowest seat
    on a tie, then the earlier occupant). Owners given nothing are left out. The caller refuses a pot that has chips
    but no known owner."""
    if carried <= 0:
        return {}  # an empty pot gives nothing back, whatever shares were noted
    owed = {seat: cents for seat, cents in sorted(owed.items()) if cents > 0}
    total = sum(owed.values())
    if carried and owed and total != carried:
        top = max(owed, key=lambda seat: owed[seat])
        owed[top] += carried - total
    return {seat: cents for seat, cents in owed.items() if cents > 0}
