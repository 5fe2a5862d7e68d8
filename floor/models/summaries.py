"""Summary rows, kept by a Celery job as money is posted and rebuilt from the ledger by a command; every floor report
reads these, never the ledger. TableHour: a table's figures per hour, split by dealer and paytable version.
TableShift: the same added up per table, gaming day, shift and paytable version (no dealer, no hour), so a year's
report reads at most tables x days x shifts rows however busy the floor was."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from paytables.models import Paytable
from tables.models import Table


class SummaryFigures(models.Model):
    """The figures both summaries keep.

    Triple Draw: rounds, handle (sum of stakes), paid (sum of returns), win (handle - paid, the table bankroll's
    ledger legs) and the sum of squared stakes, from which reports derive the theoretical win and the spread of the
    hold with the paytable's stored analysis. Home games: hands, games, pots and the house's rake and time charges.
    """

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    gaming_day = models.DateField()
    shift = models.CharField(max_length=20)
    paytable = models.ForeignKey(Paytable, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    rounds = models.PositiveIntegerField(default=0)
    handle_cents = models.BigIntegerField(default=0)
    paid_cents = models.BigIntegerField(default=0)
    win_cents = models.BigIntegerField(default=0)
    stake_squares = models.BigIntegerField(default=0)  # sum of stake² in cents², for the variance of the win
    hands = models.PositiveIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    pots_cents = models.BigIntegerField(default=0)
    rake_cents = models.BigIntegerField(default=0)
    time_charge_cents = models.BigIntegerField(default=0)
    updated_at = models.DateTimeField()

    class Meta:
        abstract = True


class TableHour(SummaryFigures):
    """One table's play in one hour (a whole UTC hour, see floor.gaming_day.hour_bucket) under one dealer and one
    locked paytable version."""

    hour_start = models.DateTimeField()
    hour_of_day = models.PositiveSmallIntegerField()  # 0-23, local
    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["hour_start", "table"]
        indexes = [
            # Reports filter by gaming day; the job refreshes one table's hour.
            models.Index(fields=["gaming_day", "table"], name="table_hour_day_idx"),
            models.Index(fields=["table", "hour_start"], name="table_hour_table_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.table} {self.hour_start:%Y-%m-%d %H}:00"


class TableShift(SummaryFigures):
    """One table's play in one shift of one gaming day under one paytable version: its TableHour rows added up."""

    class Meta:
        ordering = ["gaming_day", "shift", "table"]
        indexes = [models.Index(fields=["gaming_day", "table"], name="table_shift_day_idx")]

    def __str__(self) -> str:
        return f"{self.table} {self.gaming_day} {self.shift}"
