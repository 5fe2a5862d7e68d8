"""One betting round: whose turn it is, what each bet, call, raise or all-in may be, and when the round ends."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from casino.engine.home import errors as e
from casino.engine.home.errors import IllegalAction
from casino.engine.rules.options import Betting

# Fixed limit: "1 bet + 3 raises per round" (DESIGN 7).
FIXED_LIMIT_BETS_PER_ROUND = 4


class MoveKind(StrEnum):
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    FOLD = "fold"
    ALLIN = "allin"


@dataclass(frozen=True, slots=True)
class Move:
    """A resolved, legal betting action: `chips` leave the stack and the seat's round total becomes `total`."""

    kind: MoveKind
    seat: int
    chips: int
    total: int
    all_in: bool = False
    full: bool = True


class BettingRound:
    """State of one betting round; chips and stacks stay with the hand, which passes them in.

    Rulings where the sheets are silent (a card room's usual practice):
    - Only a full bet or raise reopens the betting. An all-in raise for less than a full raise makes everyone
      act again, but a player who had already acted on the last full bet may then only call or fold.
    - Fixed limit: a raise goes to the next full level (the bet unit times the number of full bets so far,
      plus one), so a short all-in is "completed" by the next raiser; short all-ins do not count toward the cap.
    - Pot and no limit: a raise must add at least the largest full bet or raise of the round (the minimum bet
      to begin with); pot limit caps the total at the current bet plus the pot after calling, where the pot
      includes any pot carried from earlier hands (Three Legged Race): it is in the middle, at stake.
    - Folding is allowed even when checking is free (except under forced play, where folding is refused).
    """

    def __init__(
        self, *, structure: Betting, unit: int, order: Sequence[int], active: Sequence[int], forced_play: bool
    ) -> None:
        self.structure = structure
        self.unit = unit
        self.forced_play = forced_play
        self.order = list(order)
        self.active = set(active)
        self.pending = set(active)
        self.may_raise = set(active)
        self.committed = dict.fromkeys(self.order, 0)
        self.current_bet = 0
        self.last_raise = unit
        self.full_bets = 0
        self._cursor = 0

    @property
    def actor(self) -> int | None:
        """The seat whose turn it is, or None when the round is over."""
        count = len(self.order)
        for step in range(count):
            seat = self.order[(self._cursor + step) % count]
            if seat in self.pending:
                return seat
        return None

    @property
    def complete(self) -> bool:
        return not self.pending

    def to_call(self, seat: int) -> int:
        return self.current_bet - self.committed.get(seat, 0)

    def pot_limit_total(self, seat: int, pot_cents: int) -> int:
        """Pot limit: the largest total a seat may make, the current bet plus the pot after its call."""
        return self.current_bet + pot_cents + self.to_call(seat)

    def resolve(self, seat: int, kind: MoveKind, amount: int, *, stack: int, pot_cents: int) -> Move:
        """Check a betting action by the seat to act and return what it does; raise IllegalAction otherwise."""
        committed = self.committed.get(seat, 0)
        if kind is MoveKind.CHECK:
            if self.to_call(seat) > 0:
                raise _illegal(e.CANNOT_CHECK, f"seat {seat} cannot check: {self.to_call(seat)} to call",
                               "a player may check only when no bet is owed in this round")
            return Move(kind, seat, 0, committed)
        if kind is MoveKind.CALL:
            owed = self.to_call(seat)
            if owed <= 0:
                raise _illegal(e.NOTHING_TO_CALL, f"seat {seat} has no bet to call", "call only facing a bet")
            chips = min(owed, stack)
            return Move(kind, seat, chips, committed + chips, all_in=chips == stack)
        if kind is MoveKind.FOLD:
            if self.forced_play:
                raise _illegal(e.FOLD_NOT_ALLOWED, f"seat {seat} may not fold under forced play",
                               "forced play: no folding, every hand is played to the showdown")
            return Move(kind, seat, 0, committed)
        if kind is MoveKind.ALLIN:
            if stack <= 0:
                raise _illegal(e.INSUFFICIENT_CHIPS, f"seat {seat} has no chips left", "table stakes")
            total = committed + stack
            if self.current_bet == 0:
                return self._bet(seat, stack, stack=stack, pot_cents=pot_cents)
            if total <= self.current_bet:
                return Move(MoveKind.CALL, seat, stack, total, all_in=True)
            return self._raise(seat, total, stack=stack, pot_cents=pot_cents)
        if kind is MoveKind.BET:
            return self._bet(seat, amount, stack=stack, pot_cents=pot_cents)
        return self._raise(seat, amount, stack=stack, pot_cents=pot_cents)

    def _bet(self, seat: int, amount: int, *, stack: int, pot_cents: int) -> Move:
        if self.current_bet > 0:
            raise _illegal(e.BET_ALREADY_MADE, f"seat {seat} cannot bet: there is already a bet of {self.current_bet}",
                           "once a bet is made, players call, raise or fold")
        if amount > stack:
            raise _illegal(e.INSUFFICIENT_CHIPS, f"seat {seat} bets {amount} with only {stack}", "table stakes")
        all_in = amount == stack
        if self.structure is Betting.FIXED_LIMIT:
            if amount > self.unit:
                raise _illegal(e.BET_ABOVE_LIMIT, f"bet {amount} is above the fixed limit of {self.unit}",
                               "fixed limit: a bet is exactly the small bet before the draw, the big bet after")
            if amount < self.unit and not all_in:
                raise _illegal(e.BET_BELOW_MINIMUM, f"bet {amount} is below the fixed bet of {self.unit}",
                               "fixed limit: a bet is exactly the small bet before the draw, the big bet after")
            return Move(MoveKind.BET, seat, amount, amount, all_in=all_in, full=amount == self.unit)
        if amount <= 0 or (amount < self.unit and not all_in):
            raise _illegal(e.BET_BELOW_MINIMUM, f"bet {amount} is below the minimum bet of {self.unit}",
                           "a bet must be at least the minimum bet unless it is all-in")
        if self.structure is Betting.POT_LIMIT and amount > self.pot_limit_total(seat, pot_cents):
            raise _illegal(e.BET_ABOVE_LIMIT, f"bet {amount} is above the pot limit of {pot_cents}",
                           "pot limit: a bet may not exceed the pot")
        return Move(MoveKind.BET, seat, amount, amount, all_in=all_in, full=amount >= self.unit)

    def _raise(self, seat: int, total: int, *, stack: int, pot_cents: int) -> Move:
        if self.current_bet == 0:
            raise _illegal(e.NO_BET_TO_RAISE, f"seat {seat} cannot raise: there is no bet", "raise only facing a bet")
        if self.structure is Betting.FIXED_LIMIT and self.full_bets >= FIXED_LIMIT_BETS_PER_ROUND:
            raise _illegal(e.RAISE_CAP_REACHED, f"seat {seat} cannot raise: the betting is capped",
                           "fixed limit: one bet and three raises per round")
        if seat not in self.may_raise:
            raise _illegal(e.RAISE_NOT_REOPENED, f"seat {seat} may only call or fold: a short all-in does not reopen "
                           "the betting", "only a full bet or raise reopens the betting to players who have acted")
        committed = self.committed.get(seat, 0)
        chips = total - committed
        if chips > stack:
            raise _illegal(e.INSUFFICIENT_CHIPS, f"seat {seat} raises to {total} with only {stack} behind",
                           "table stakes")
        if total <= self.current_bet:
            raise _illegal(e.BET_BELOW_MINIMUM, f"a raise to {total} is not above the current bet of "
                           f"{self.current_bet}", "a raise must be more than the current bet")
        all_in = chips == stack
        if self.structure is Betting.FIXED_LIMIT:
            level = (self.full_bets + 1) * self.unit
            if total > level:
                raise _illegal(e.BET_ABOVE_LIMIT, f"a raise to {total} is above the fixed-limit raise to {level}",
                               "fixed limit: each raise is exactly one bet")
            if total < level and not all_in:
                raise _illegal(e.BET_BELOW_MINIMUM, f"a raise to {total} is below the fixed-limit raise to {level}",
                               "fixed limit: each raise is exactly one bet")
            return Move(MoveKind.RAISE, seat, chips, total, all_in=all_in, full=total == level)
        minimum = self.current_bet + self.last_raise
        if total < minimum and not all_in:
            raise _illegal(e.BET_BELOW_MINIMUM, f"a raise to {total} is below the minimum raise to {minimum}",
                           "a raise must add at least the largest bet or raise of the round")
        if self.structure is Betting.POT_LIMIT and total > self.pot_limit_total(seat, pot_cents):
            limit = self.pot_limit_total(seat, pot_cents)
            raise _illegal(e.BET_ABOVE_LIMIT, f"a raise to {total} is above the pot-limit raise to {limit}",
                           "pot limit: a raise may not exceed the pot after the call")
        return Move(MoveKind.RAISE, seat, chips, total, all_in=all_in, full=total >= minimum)

    def apply(self, move: Move) -> None:
        """Record a resolved move and pass the turn."""
        seat = move.seat
        self.committed[seat] = move.total
        if move.total > self.current_bet:
            if move.full:
                if self.structure is not Betting.FIXED_LIMIT:
                    self.last_raise = max(self.last_raise, move.total - self.current_bet)
                self.full_bets += 1
                self.may_raise = self.active - {seat}
            else:
                self.may_raise = (self.may_raise & self.pending) - {seat}
            self.current_bet = move.total
            self.pending = self.active - {seat}
        else:
            self.pending.discard(seat)
            self.may_raise.discard(seat)
        if move.all_in or move.kind is MoveKind.FOLD:
            self.remove(seat)
        self._cursor = self.order.index(seat) + 1

    def remove(self, seat: int) -> None:
        """A seat can no longer act in this round (all-in, folded or gone)."""
        self.active.discard(seat)
        self.pending.discard(seat)
        self.may_raise.discard(seat)


def _illegal(code: str, message: str, rule: str) -> IllegalAction:
    return IllegalAction(message, code=code, rule=rule)
