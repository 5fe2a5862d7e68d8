"""The buy-in range a table needs to play a game record again: its smallest buy-in, and its largest stack after a
buy-in or chips added."""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import suppress

from casino.engine.errors import EngineError
from casino.engine.home.events import Event
from casino.engine.home.game import HomeGame
from casino.engine.home.record import GameRecord
from casino.engine.home.replay import replay_on
from casino.engine.rules.model import Rules


class _Watched(HomeGame):
    """A game that remembers the largest stack a buy-in (a player seated) or chips added made."""

    def __init__(self, rules: Rules, stacks: Mapping[int, int]) -> None:
        super().__init__(rules, stacks)
        self.peak = max(stacks.values(), default=0)

    def join(self, seat: int, stack: int) -> Event:
        event = super().join(seat, stack)
        self.peak = max(self.peak, stack)
        return event

    def adjust(self, seat: int, cents: int) -> None:
        super().adjust(seat, cents)
        if cents > 0:  # chips added (a negative adjustment is a house charge)
            self.peak = max(self.peak, self.stacks[seat])


def buy_in_range(record: GameRecord) -> tuple[int, int]:
    """The buy-in range (minimum, maximum) that admits exactly what the record needs: a table's services refuse a
    buy-in outside it and chips that take a stack past its maximum, and a stack may have grown by the pots it won
    before its player added chips. The minimum is the smallest buy-in the record names (a player's starting stack,
    a join's); the maximum the largest of those and of the stacks chips added made, replayed. A record the replay
    refuses needs what it does up to the refusal (playing it stops there too), and its buy-ins."""
    game = _Watched(record.rules, {seat: stack for seat, _, stack in record.players})
    with suppress(EngineError):  # ReplayError, or a record the engine refuses otherwise
        replay_on(game, record)
    buy_ins = [stack for _, _, stack in record.players] + [join.stack for join in record.before_joins] + [
        stack for hand in record.hands for _, _, stack in hand.joins]
    return min(buy_ins, default=0), max([game.peak, *buy_ins])
