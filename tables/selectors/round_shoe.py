"""How far a card-reading shoe has come with a Triple Draw round: cards read of the deal or the rows, and what the
round awaits next (the shoe's answer and the dealer's tablet)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from casino.engine.triple_draw import CARDS_PER_HAND, ROW_COUNT
from tables.models import DrawRow, Round, SeatHand

Phase = Round.Phase


@dataclass(frozen=True)
class ShoeProgress:
    """The deal's or the rows' cards read so far, of how many, and where the next card goes."""

    stage: str  # "deal" or "rows"
    read: int
    of: int
    seat: int | None = None  # the deal: the seat the next card goes to
    row: int | None = None  # the rows: the row the next card goes to

    @property
    def due(self) -> int:
        return self.of - self.read

    @property
    def text(self) -> str:
        """ "12 of 35 cards read; next: seat 4", "4 of 15 row cards read; next: row 1"."""
        if self.stage == "deal":
            return f"{self.read} of {self.of} cards read" + (f"; next: seat {self.seat}" if self.seat else "")
        return f"{self.read} of {self.of} row cards read" + (f"; next: row {self.row}" if self.row else "")


def round_shoe_wait(rnd: Round) -> ShoeProgress | None:
    """The progress while the round waits for the shoe (dealing or drawing), else None."""
    if rnd.phase == Phase.DEALING:
        dealt = list(SeatHand.objects.filter(round=rnd).order_by("seat_number").values_list("seat_number", "dealt"))
        read, of = sum(len(cards) for _, cards in dealt), CARDS_PER_HAND * len(dealt)
        return ShoeProgress("deal", read, of, seat=dealt[read % len(dealt)][0] if read < of else None)
    if rnd.phase == Phase.DRAWING:
        read = sum(len(cards) for cards in DrawRow.objects.filter(round=rnd).values_list("cards", flat=True))
        of = CARDS_PER_HAND * ROW_COUNT
        return ShoeProgress("rows", read, of, row=read // CARDS_PER_HAND + 1 if read < of else None)
    return None


def round_shoe_progress(rnd: Round) -> dict[str, Any]:
    """What a shoe's report is told after it: what the round awaits next and how many cards it is still to report."""
    wait = round_shoe_wait(rnd)
    if wait is None:
        return {"awaiting": {"kind": "nothing", "seat": None, "row": None, "text": f"the round is {rnd.phase}"},
                "cards_due": 0}
    return {"awaiting": {"kind": wait.stage, "seat": wait.seat, "row": wait.row, "text": wait.text},
            "cards_due": wait.due}
