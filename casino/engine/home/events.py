"""Past-tense events: what every action, every card given to the hand and every automatic step of a hand did."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from casino.engine.cards import Card


class EventKind(StrEnum):
    ANTE_POSTED = "ante_posted"
    CARD_DEALT = "card_dealt"
    DEALT = "dealt"  # every player has five cards: the first betting round begins
    PLAYER_KILLED = "player_killed"
    CHECKED = "checked"
    BET = "bet"
    CALLED = "called"
    RAISED = "raised"
    FOLDED = "folded"
    LEFT = "left"
    JOINED = "joined"  # a player sat down between hands (amount: their stack)
    DREW = "drew"
    STOCK_RESHUFFLED = "stock_reshuffled"
    SHOWN = "shown"
    MUCKED = "mucked"  # a manual hand: the player conceded at the showdown without showing
    BET_RETURNED = "bet_returned"
    POT_AWARDED = "pot_awarded"
    POT_AWARDED_BY_RULING = "pot_awarded_by_ruling"  # the floor's ruling ended the hand (amount: the whole middle)
    POT_CARRIED = "pot_carried"
    LEG_SCORED = "leg_scored"
    GAME_WON = "game_won"


@dataclass(frozen=True, slots=True)  # slots: a replayed hand makes some sixty of these
class Event:
    """One thing that happened: `amount_cents` is the chips moved, `total_cents` a bet's total for the round,
    `count` the cards a draw exchanged (a manual hand records the count, not the cards)."""

    kind: EventKind
    seat: int | None = None
    amount_cents: int = 0
    total_cents: int = 0
    all_in: bool = False
    cards: tuple[Card, ...] = ()
    seats: tuple[int, ...] = ()
    count: int = 0

    def to_dict(self) -> dict[str, object]:
        """JSON for the audit trail and the screens: the kind code and every field that says something."""
        data: dict[str, object] = {"kind": self.kind.value}
        if self.seat is not None:
            data["seat"] = self.seat
        if self.amount_cents or self.kind in (EventKind.POT_AWARDED, EventKind.POT_CARRIED,
                                                EventKind.POT_AWARDED_BY_RULING):
            data["amount_cents"] = self.amount_cents
        if self.total_cents:
            data["total_cents"] = self.total_cents
        if self.all_in:
            data["all_in"] = True
        if self.cards:
            data["cards"] = [str(card) for card in self.cards]
        if self.seats:
            data["seats"] = list(self.seats)
        if self.kind is EventKind.DREW:
            data["count"] = self.count
        return data
