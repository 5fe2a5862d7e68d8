"""FloorCall: a dealer's call for a floor supervisor at a table, open until the floor answers it."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from tables.models.home import HomeGame
from tables.models.tables import Table
from tables.models.triple_draw import Round


class FloorCall(models.Model):
    """One call for the floor; the audit trail records the call and the answer, this row holds whether it is open.

    A call outlives the round or hand it was made in: nobody but a floor supervisor closes it. A table has at most
    one open call (the partial unique constraint backs the service's check against a race).
    """

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="floor_calls")
    # Where it was made: a Triple Draw round, or a home game (and the hand in play then, if any).
    round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    game = models.ForeignKey(HomeGame, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    hand_number = models.PositiveIntegerField(null=True, blank=True)
    called_at = models.DateTimeField()
    called_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    reason = models.CharField(max_length=200, blank=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    note = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-called_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=Q(answered_at__isnull=True), name="tables_one_open_floor_call"
            ),
            models.CheckConstraint(
                condition=Q(answered_at__isnull=True, answered_by__isnull=True)
                | Q(answered_at__isnull=False, answered_by__isnull=False),
                name="tables_floor_call_answered_by_someone",
            ),
        ]
        indexes = [models.Index(fields=["table", "called_at"], name="tables_floor_call_table_idx")]

    def __str__(self) -> str:
        return f"floor call {self.pk} at table {self.table_id}"

    @property
    def is_open(self) -> bool:
        return self.answered_at is None

    @property
    def where(self) -> str:
        """Where the call was made, as the floor reads it: "Round 12", "Hand 3", "Between hands"."""
        if self.round is not None:
            return f"Round {self.round.number}"
        return f"Hand {self.hand_number}" if self.hand_number is not None else "Between hands"
