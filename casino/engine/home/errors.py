"""Errors of the home-game state machine: each names the rule an illegal action breaks."""

from __future__ import annotations

from casino.engine.errors import EngineError


class IllegalAction(EngineError):
    """An action the rules do not allow now; `code` is a stable lowercase code, `rule` the rule it breaks."""

    code = "illegal_action"

    def __init__(self, message: str, *, code: str, rule: str, token: str | None = None) -> None:
        super().__init__(message, token=token)
        self.code = code
        self.rule = rule


# Stable codes of illegal actions, so callers and tests can tell them apart.
OUT_OF_TURN = "out_of_turn"
WRONG_PHASE = "wrong_phase"
NOT_IN_HAND = "not_in_hand"
PLAYER_DEAD = "player_dead"
CANNOT_CHECK = "cannot_check"
NOTHING_TO_CALL = "nothing_to_call"
BET_ALREADY_MADE = "bet_already_made"
NO_BET_TO_RAISE = "no_bet_to_raise"
BET_BELOW_MINIMUM = "bet_below_minimum"
BET_ABOVE_LIMIT = "bet_above_limit"
WRONG_BET_SIZE = "wrong_bet_size"
RAISE_CAP_REACHED = "raise_cap_reached"
RAISE_NOT_REOPENED = "raise_not_reopened"
INSUFFICIENT_CHIPS = "insufficient_chips"
FOLD_NOT_ALLOWED = "fold_not_allowed"
WRONG_DISCARD_COUNT = "wrong_discard_count"
CARD_NOT_HELD = "card_not_held"
STOCK_EXHAUSTED = "stock_exhausted"
BAD_RESHUFFLE = "bad_reshuffle"
GAME_OVER = "game_over"
NOT_ENOUGH_PLAYERS = "not_enough_players"
TOO_MANY_PLAYERS = "too_many_players"
BAD_BUTTON = "bad_button"
SEAT_TAKEN = "seat_taken"
BAD_DECK = "bad_deck"
WRONG_CARD_COUNT = "wrong_card_count"
# A live hand given its cards one at a time.
NO_CARD_DUE = "no_card_due"
CARD_ALREADY_SEEN = "card_already_seen"
CARD_NOT_IN_STOCK = "card_not_in_stock"
# A manual hand (physical cards the system sees only at the showdown).
MANUAL_HAND = "manual_hand"
CARDS_DEALT_BY_SYSTEM = "cards_dealt_by_system"
NOT_A_KILL_CARD = "not_a_kill_card"
ALREADY_SHOWN = "already_shown"
MUCK_NOT_ALLOWED = "muck_not_allowed"
ACE_NOT_SHOWN = "ace_not_shown"
ACE_NOT_NEEDED = "ace_not_needed"
# The floor's ruling (DESIGN 7: "the floor's ruling is final").
AWARD_NOT_THE_POT = "award_not_the_pot"
REASON_REQUIRED = "reason_required"
# The floor closing a game (a carried pot back to its contributors, or by ruling to one seat).
NO_PLAYER = "no_player"
CARRIED_POT_UNOWNED = "carried_pot_unowned"
