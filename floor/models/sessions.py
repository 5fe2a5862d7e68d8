"""Dealer sessions: a dealer signs in at a table on the tablet and out again, so each round knows its dealer."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from tables.models import Table


class DealerSession(models.Model):
    """A dealer at a table from sign-in until sign-out (open while signed_out_at is empty)."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    dealer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    signed_in_at = models.DateTimeField()
    signed_out_at = models.DateTimeField(null=True, blank=True)
    signed_out_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["-signed_in_at"]
        constraints = [
            # One dealer deals at a table at a time, and a dealer deals at one table at a time.
            models.UniqueConstraint(
                fields=["table"], condition=Q(signed_out_at__isnull=True), name="dealer_session_one_per_table"
            ),
            models.UniqueConstraint(
                fields=["dealer"], condition=Q(signed_out_at__isnull=True), name="dealer_session_one_per_dealer"
            ),
            models.CheckConstraint(
                condition=Q(signed_out_at__isnull=True) | Q(signed_out_at__gte=models.F("signed_in_at")),
                name="dealer_session_out_after_in",
            ),
        ]
        indexes = [models.Index(fields=["table", "signed_in_at"], name="dealer_session_table_in_idx")]

    def __str__(self) -> str:
        return f"{self.dealer} at {self.table}"

    @property
    def is_open(self) -> bool:
        return self.signed_out_at is None
