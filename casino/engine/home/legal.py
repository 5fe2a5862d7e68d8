"""The legal betting actions of the player to act, with their amounts, for buttons pre-filled on a dealer screen."""

from __future__ import annotations

from dataclasses import dataclass

from casino.engine.home.betting import BettingRound, MoveKind
from casino.engine.home.errors import IllegalAction
from casino.engine.rules.options import Betting


@dataclass(frozen=True)
class AmountRange:
    """Inclusive bounds in cents; a bet is its amount, a raise the seat's total for the round (DESIGN 9)."""

    minimum: int
    maximum: int

    def to_dict(self) -> dict[str, int]:
        return {"minimum_cents": self.minimum, "maximum_cents": self.maximum}


@dataclass(frozen=True)
class LegalActions:
    """What `seat` may do now. `call` is the chips a call puts in; `all_in` the seat's total for the round after
    going all in (the chips it puts in are `all_in - in_round`); a bet is its amount and a raise the seat's total
    for the round (DESIGN 9). `pot` is the pot-size bet or raise total (pot limit: the largest allowed; no limit: a
    suggestion), and None when the pot size is not itself an amount the seat may choose: the stack is short of it
    (going all in is then the most) or the minimum is above it. `in_round` is what the seat has put in this betting
    round so far, so a screen can say both what a player puts in now and what that makes their total."""

    seat: int
    fold: bool
    check: bool
    call: int | None
    bet: AmountRange | None
    raise_to: AmountRange | None
    all_in: int | None
    pot: int | None
    in_round: int = 0

    @property
    def kinds(self) -> tuple[str, ...]:
        """The legal actions' codes in the order a screen shows them."""
        found = [
            (MoveKind.FOLD, self.fold),
            (MoveKind.CHECK, self.check),
            (MoveKind.CALL, self.call is not None),
            (MoveKind.BET, self.bet is not None),
            (MoveKind.RAISE, self.raise_to is not None),
            (MoveKind.ALLIN, self.all_in is not None),
        ]
        return tuple(kind.value for kind, legal in found if legal)

    def to_dict(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "actions": list(self.kinds),
            "call_cents": self.call,
            "bet": self.bet.to_dict() if self.bet else None,
            "raise": self.raise_to.to_dict() if self.raise_to else None,
            "all_in_cents": self.all_in,
            "pot_cents": self.pot,
            "in_round_cents": self.in_round,
        }


def legal_actions(betting: BettingRound, seat: int, *, stack: int, pot_cents: int) -> LegalActions:
    """Every action the round would accept from `seat`, found by asking the round itself (so never out of step)."""

    def accepts(kind: MoveKind, amount: int = 0) -> bool:
        try:
            betting.resolve(seat, kind, amount, stack=stack, pot_cents=pot_cents)
        except IllegalAction:
            return False
        return True

    committed = betting.committed.get(seat, 0)
    everything = committed + stack
    pot_total = betting.pot_limit_total(seat, pot_cents)
    if betting.structure is Betting.FIXED_LIMIT:
        bet_low = bet_high = min(betting.unit, stack)
        level = (betting.full_bets + 1) * betting.unit
        raise_low = raise_high = min(level, everything)
    else:
        bet_low, raise_low = min(betting.unit, stack), min(betting.current_bet + betting.last_raise, everything)
        high = min(pot_total, everything) if betting.structure is Betting.POT_LIMIT else everything
        bet_high = raise_high = high
    bet = AmountRange(bet_low, max(bet_low, bet_high)) if accepts(MoveKind.BET, bet_low) else None
    raise_to = AmountRange(raise_low, max(raise_low, raise_high)) if accepts(MoveKind.RAISE, raise_low) else None
    pot: int | None = None
    if betting.structure is not Betting.FIXED_LIMIT:
        # The pot-size amount, only when it is one: not when the stack is short of it (that is going all in) nor
        # when the minimum is above it.
        chosen = bet or raise_to
        if chosen is not None and chosen.minimum <= pot_total <= min(chosen.maximum, everything):
            pot = pot_total
    owed = betting.to_call(seat)
    return LegalActions(
        seat=seat,
        fold=accepts(MoveKind.FOLD),
        check=accepts(MoveKind.CHECK),
        call=min(owed, stack) if accepts(MoveKind.CALL) else None,
        bet=bet,
        raise_to=raise_to,
        all_in=everything if accepts(MoveKind.ALLIN) else None,
        pot=pot,
        in_round=committed,
    )
