"""Past-tense events: what every action (and every automatic step of a hand) did."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from casino.engine.cards import Card


class EventKind(StrEnum):
    ANTE_POSTED = "ante_posted"
    CARD_DEALT = "card_dealt"
    PLAYER_KILLED = "player_killed"
    CHECKED = "checked"
    BET = "bet"
    CALLED = "called"
    RAISED = "raised"
    FOLDED = "folded"
    LEFT = "left"
    DREW = "drew"
    STOCK_RESHUFFLED = "stock_reshuffled"
    BET_RETURNED = "bet_returned"
    POT_AWARDED = "pot_awarded"
    POT_CARRIED = "pot_carried"
    LEG_SCORED = "leg_scored"
    GAME_WON = "game_won"


@dataclass(frozen=True)
class Event:
    """One thing that happened: `amount_cents` is the chips moved, `total_cents` a bet's total for the round."""

    kind: EventKind
    seat: int | None = None
    amount_cents: int = 0
    total_cents: int = 0
    all_in: bool = False
    cards: tuple[Card, ...] = ()
    seats: tuple[int, ...] = ()
