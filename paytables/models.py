"""Paytable versions and their ordered lines (DESIGN 6)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Basis(models.TextChoices):
    FOR_1 = "for_1", "for 1 (stake included)"
    TO_1 = "to_1", "to 1 (stake returned on top)"


class PaytableStatus(models.TextChoices):
    DRAFT = "draft", "Draft"
    APPROVED = "approved", "Approved"
    ACTIVE = "active", "Active"
    RETIRED = "retired", "Retired"


class Paytable(models.Model):
    """One version of a named paytable; once approved its lines never change (a new draft is cloned instead)."""

    name = models.CharField(max_length=100)
    version = models.PositiveIntegerField(default=1)
    basis = models.CharField(max_length=8, choices=Basis.choices)
    wild_ranks = models.JSONField(default=list, blank=True)
    status = models.CharField(max_length=16, choices=PaytableStatus.choices, default=PaytableStatus.DRAFT)
    approval_reference = models.CharField(max_length=100, blank=True)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    approved_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["name", "version"], name="paytable_name_version_unique"),
            models.CheckConstraint(
                condition=models.Q(status="draft") | ~models.Q(approval_reference=""),
                name="paytable_approved_has_reference",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} v{self.version}"


class PaytableLine(models.Model):
    """One paying hand, in order high to low; the first line a hand matches pays it."""

    paytable = models.ForeignKey(Paytable, on_delete=models.CASCADE, related_name="lines")
    position = models.PositiveSmallIntegerField()
    hand = models.CharField(max_length=32)
    min_rank = models.CharField(max_length=1, blank=True)
    ranks = models.JSONField(default=list, blank=True)
    pays_numerator = models.PositiveIntegerField()
    pays_denominator = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["paytable", "position"]
        constraints = [
            models.UniqueConstraint(fields=["paytable", "position"], name="paytable_line_position_unique"),
            models.CheckConstraint(
                condition=models.Q(pays_denominator__gt=0), name="paytable_line_denominator_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.hand} pays {self.pays}"

    @property
    def pays(self) -> str:
        if self.pays_denominator == 1:
            return str(self.pays_numerator)
        return f"{self.pays_numerator}/{self.pays_denominator}"
