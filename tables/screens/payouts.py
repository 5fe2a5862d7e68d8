"""What the dealer does with each circle's bet once a round is settled: take it, leave it, or leave it and pay on it.

The settlement stores what each hand returns, stake included (DESIGN 9). At the table the stake is a chip already
in the circle, so the dealer never pays it out: a loss is taken, a push is left, a win is left and paid
return − stake from the tray. That is the same chip movement on both paytable bases; only the words explaining
the figure differ ("9 to 1" pays nine bets on top of the bet; "9 for 1" returns nine bets including it).
"""

from __future__ import annotations

from dataclasses import dataclass

from casino.engine.paytable import pays_words
from tables.selectors.rounds import OutcomeView, SeatView

WIN, PUSH, LOSS = "win", "push", "loss"
VERDICT_WORDS = {WIN: "Win", PUSH: "Push", LOSS: "Loss"}


def _money(cents: int) -> str:
    dollars, rest = divmod(abs(cents), 100)
    return f"{'-' if cents < 0 else ''}${dollars:,}.{rest:02d}"


@dataclass(frozen=True)
class CircleInstruction:
    """One circle: its bet, what its hand returned, and what the dealer does with the chips."""

    outcome: OutcomeView
    bet_cents: int
    basis: str  # "to_1" or "for_1"

    @property
    def circle(self) -> int:
        return self.outcome.circle

    @property
    def paid_cents(self) -> int:
        """The hand's return after the seat's payout cap, stake included (0 for a loss)."""
        return self.outcome.paid_cents

    @property
    def verdict(self) -> str:
        if self.paid_cents > self.bet_cents:
            return WIN
        if self.paid_cents == self.bet_cents:
            return PUSH
        return LOSS

    @property
    def capped(self) -> bool:
        """The seat's payout cap cut this hand's return (cut from the highest circle down, stake included)."""
        return self.outcome.paid_cents != self.outcome.return_cents

    @property
    def verdict_words(self) -> str:
        # A winning hand the cap cut to a push or to nothing is not a "Loss" to the player or the dealer.
        if self.capped and self.verdict != WIN:
            return "Capped"
        return VERDICT_WORDS[self.verdict]

    @property
    def pay_cents(self) -> int:
        """Paid from the tray next to the bet (the bet itself stays where it is)."""
        return max(0, self.paid_cents - self.bet_cents)

    @property
    def take_cents(self) -> int:
        """Taken from the bet into the tray: the whole bet for a loss, part of it when a hand returns less."""
        return max(0, self.bet_cents - self.paid_cents)

    @property
    def line_words(self) -> str:
        """How the figure was reached, in the paytable's own terms."""
        line = self.outcome.line
        if line is None:
            return "No paying hand"
        text = pays_words(line.pays, self.basis)
        if self.capped:
            # The figure the chips follow is the capped one; "($800.00 back with the bet)" would contradict it.
            return text + (
                f", capped at the seat maximum: {_money(self.paid_cents)} back with the bet"
                f" instead of {_money(self.outcome.return_cents)}"
            )
        if self.basis == "for_1" and self.outcome.return_cents:
            text += f" ({_money(self.outcome.return_cents)} back with the bet)"
        return text

    @property
    def words(self) -> str:
        """The instruction: "Take the $10.00 bet", "Leave the $10.00 bet", "Leave the $10.00 bet, pay $90.00 on it"."""
        bet = _money(self.bet_cents)
        if self.verdict == WIN:
            return f"Leave the {bet} bet, pay {_money(self.pay_cents)} on it"
        if self.verdict == PUSH:
            return f"Leave the {bet} bet (push: nothing to pay)"
        if self.paid_cents == 0:
            return f"Take the {bet} bet"
        return f"Take {_money(self.take_cents)} of the {bet} bet, leave {_money(self.paid_cents)}"


@dataclass(frozen=True)
class SeatPayout:
    """One seat's settlement at the table: per circle what to do, and the one amount to pay from the tray."""

    seat: SeatView
    circles: list[CircleInstruction]

    @property
    def number(self) -> int:
        return self.seat.number

    @property
    def pay_cents(self) -> int:
        return sum(circle.pay_cents for circle in self.circles)

    @property
    def take_cents(self) -> int:
        return sum(circle.take_cents for circle in self.circles)

    @property
    def net_cents(self) -> int:
        return self.seat.net_cents

    @property
    def verdict(self) -> str:
        """The seat as a whole, by its net result: a win, an even round (push) or a loss."""
        if self.net_cents > 0:
            return WIN
        if self.net_cents < 0:
            return LOSS
        return PUSH

    @property
    def verdict_words(self) -> str:
        if self.verdict == WIN:
            return f"Wins {_money(self.net_cents)}"
        if self.verdict == LOSS:
            return f"Loses {_money(-self.net_cents)}"
        return "Even"

    def count(self, verdict: str) -> int:
        return sum(1 for circle in self.circles if circle.verdict == verdict)

    @property
    def summary(self) -> str:
        """One line for the seat: "Take 1 bet, leave 2, pay $90.00". A bet only partly taken (a hand returning less
        than its bet, or cut by the seat's cap) says how much: "Take $3.00 of 1 bet, leave 2, pay $88.00"."""
        parts = []
        one = len(self.circles) == 1
        taken = sum(1 for circle in self.circles if circle.paid_cents == 0)
        partly = [circle for circle in self.circles if 0 < circle.paid_cents < circle.bet_cents]
        left = len(self.circles) - taken - len(partly)
        if taken:
            parts.append("take the bet" if one else f"take {taken} bet{'s' if taken > 1 else ''}")
        if partly:
            amount = _money(sum(circle.take_cents for circle in partly))
            more = " more" if taken else ""
            parts.append(f"take {amount} of the bet" if one else f"take {amount} of {len(partly)}{more} "
                         f"bet{'s' if len(partly) > 1 else ''}")
        if left:
            if one:
                parts.append("leave the bet")
            else:
                parts.append(f"leave {left}" if taken or partly else f"leave {left} bet{'s' if left > 1 else ''}")
        parts.append(f"pay {_money(self.pay_cents)}" if self.pay_cents else "nothing to pay")
        text = ", ".join(parts)
        return text[:1].upper() + text[1:]


def seat_payouts(seats: list[SeatView], basis: str) -> list[SeatPayout]:
    """The pay instructions of every seat that bet and has outcomes, in seat order."""
    return [
        SeatPayout(
            seat=seat,
            circles=[
                CircleInstruction(outcome=outcome, bet_cents=seat.bets.get(outcome.circle, 0), basis=basis)
                for outcome in seat.outcomes
            ],
        )
        for seat in seats
        if seat.outcomes
    ]
