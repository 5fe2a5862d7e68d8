"""Table accounting (minimum internal controls): shifts of a gaming day, chip inventories, fills and credits, the
drop, each table's count win beside its system win at shift close, and corrections of a closed shift."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from casino.engine.money import money
from tables.models import Table

USER = settings.AUTH_USER_MODEL


class Shift(models.Model):
    """One shift of one gaming day, floor-wide; once closed its records change only by a correction."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        CLOSED = "closed", "Closed"

    gaming_day = models.DateField()
    code = models.CharField(max_length=20)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    opened_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["-starts_at"]
        constraints = [
            models.UniqueConstraint(fields=["gaming_day", "code"], name="shift_one_per_day_and_code"),
            models.CheckConstraint(condition=Q(ends_at__gt=F("starts_at")), name="shift_ends_after_start"),
            models.CheckConstraint(
                condition=Q(status="open", closed_at__isnull=True) | Q(status="closed", closed_at__isnull=False),
                name="shift_closed_has_time",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.gaming_day.isoformat()} {self.code}"

    @property
    def is_closed(self) -> bool:
        return self.status == self.Status.CLOSED


class ChipCount(models.Model):
    """A table's chip inventory at the opening or closing of a shift: chips by denomination and their total."""

    class Kind(models.TextChoices):
        OPENING = "opening", "Opening inventory"
        CLOSING = "closing", "Closing inventory"

    shift = models.ForeignKey(Shift, on_delete=models.PROTECT, related_name="chip_counts")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    chips = models.JSONField()  # {"500": 20, ...}: denomination in cents -> number of chips
    total_cents = models.BigIntegerField()
    recorded_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["shift", "table", "kind"]
        constraints = [
            models.UniqueConstraint(fields=["shift", "table", "kind"], name="chip_count_one_per_kind"),
            models.CheckConstraint(condition=Q(total_cents__gte=0), name="chip_count_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.table} {self.kind} {self.shift}"


class ChipSlip(models.Model):
    """A fill (chips from the cage to the table) or a credit (chips back to the cage), signed by the table's dealer
    and a floor supervisor, two different people."""

    class Kind(models.TextChoices):
        FILL = "fill", "Fill"
        CREDIT = "credit", "Credit"

    shift = models.ForeignKey(Shift, on_delete=models.PROTECT, related_name="slips")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    chips = models.JSONField()
    total_cents = models.BigIntegerField()
    dealer_signer = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    floor_signer = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    signed_at = models.DateTimeField()
    voided_at = models.DateTimeField(null=True, blank=True)
    void_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["shift", "table", "signed_at"]
        constraints = [
            models.CheckConstraint(condition=Q(total_cents__gt=0), name="chip_slip_positive"),
            models.CheckConstraint(condition=~Q(dealer_signer=F("floor_signer")), name="chip_slip_two_signers"),
            models.CheckConstraint(
                condition=Q(voided_at__isnull=True) | ~Q(void_reason=""), name="chip_slip_void_reason"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {money(self.total_cents)} at {self.table} ({self.shift})"


class Drop(models.Model):
    """What the count team counted from a table's drop box for a shift: cash and markers, in cents."""

    shift = models.ForeignKey(Shift, on_delete=models.PROTECT, related_name="drops")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    cash_cents = models.BigIntegerField()
    markers_cents = models.BigIntegerField()
    counted_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["shift", "table"]
        constraints = [
            models.UniqueConstraint(fields=["shift", "table"], name="drop_one_per_table_and_shift"),
            models.CheckConstraint(condition=Q(cash_cents__gte=0, markers_cents__gte=0), name="drop_not_negative"),
        ]

    def __str__(self) -> str:
        return f"drop {self.table} {self.shift}"

    @property
    def total_cents(self) -> int:
        return int(self.cash_cents) + int(self.markers_cents)


class ShiftTableResult(models.Model):
    """A table's figures for a closed shift: count win = drop + credits - fills + (closing - opening) beside the
    system win from the ledger (Triple Draw) or the house charges (home games); recomputed by each correction."""

    shift = models.ForeignKey(Shift, on_delete=models.PROTECT, related_name="results")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    opening_cents = models.BigIntegerField()
    closing_cents = models.BigIntegerField()
    fills_cents = models.BigIntegerField()
    credits_cents = models.BigIntegerField()
    drop_cents = models.BigIntegerField()
    count_win_cents = models.BigIntegerField()
    system_win_cents = models.BigIntegerField()
    difference_cents = models.BigIntegerField()  # count win - system win
    flagged = models.BooleanField()  # |difference| above FLOOR_WIN_TOLERANCE_CENTS
    computed_at = models.DateTimeField()

    class Meta:
        ordering = ["shift", "table"]
        constraints = [models.UniqueConstraint(fields=["shift", "table"], name="shift_result_one_per_table")]

    def __str__(self) -> str:
        return f"{self.table} {self.shift}: count {money(self.count_win_cents)}, system {money(self.system_win_cents)}"


class Correction(models.Model):
    """A correction of a closed shift's record, with its reason; the values before and after are both kept."""

    class Item(models.TextChoices):
        OPENING = "opening", "Opening inventory"
        CLOSING = "closing", "Closing inventory"
        DROP = "drop", "Drop"
        SLIP = "slip", "Fill or credit"

    shift = models.ForeignKey(Shift, on_delete=models.PROTECT, related_name="corrections")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    item = models.CharField(max_length=8, choices=Item.choices)
    slip = models.ForeignKey(ChipSlip, null=True, blank=True, on_delete=models.PROTECT, related_name="corrections")
    before = models.JSONField()
    after = models.JSONField()
    reason = models.TextField()
    corrected_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    corrected_at = models.DateTimeField()

    class Meta:
        ordering = ["shift", "corrected_at"]
        constraints = [models.CheckConstraint(condition=~Q(reason=""), name="correction_has_reason")]

    def __str__(self) -> str:
        return f"correction of {self.item} at {self.table} ({self.shift})"
