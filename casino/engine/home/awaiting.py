"""What a hand waits for next: a card for a seat, a seat's betting action or draw, a reshuffled stock, or nothing."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class AwaitKind(StrEnum):
    DEAL = "deal"  # a manual hand's deal at the table: any kill card dealt, then the end of the deal
    CARD = "card"  # the next card off the stock, for `seat` (the deal, or a draw's replacements)
    ACTION = "action"  # `seat`'s betting action
    DRAW = "draw"  # `seat`'s discards
    RESHUFFLE = "reshuffle"  # the stock ran out during `seat`'s draw: the reshuffled discards
    SHOW = "show"  # a manual hand's showdown: each of `seats` shows or mucks, `seat` first in turn
    NOTHING = "nothing"  # the hand is settled


@dataclass(frozen=True)
class Awaiting:
    """The input a hand needs next; `count` is how many cards `seat` is still to receive (CARD, RESHUFFLE)."""

    kind: AwaitKind
    seat: int | None = None
    count: int = 0
    seats: tuple[int, ...] = ()

    def __str__(self) -> str:
        words = {
            AwaitKind.DEAL: "the deal: a kill card dealt, or the end of the deal",
            AwaitKind.CARD: f"a card for seat {self.seat}",
            AwaitKind.ACTION: f"seat {self.seat}'s betting action",
            AwaitKind.DRAW: f"seat {self.seat}'s draw",
            AwaitKind.RESHUFFLE: f"the reshuffled stock for seat {self.seat}'s draw",
            AwaitKind.SHOW: "the hands shown or mucked by seat " + " and ".join(map(str, self.seats)),
            AwaitKind.NOTHING: "nothing: the hand is over",
        }
        return words[self.kind]

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind.value, "seat": self.seat, "count": self.count, "seats": list(self.seats),
                "text": str(self)}
