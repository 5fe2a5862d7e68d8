"""Paytable versions and their ordered lines (DESIGN 6)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from casino.engine.hand_words import line_label
from casino.engine.paytable import pays_words


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
    # Who last changed the draft's schedule (the drafter until someone else edits it). Neither the drafter nor
    # the last editor may approve the version: the services refuse it and a database trigger backs them up.
    last_edited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # The version this draft was cloned from (edits of an approved schedule become a new draft version).
    cloned_from = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="clones")
    retired_at = models.DateTimeField(null=True, blank=True)

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

    @property
    def is_draft(self) -> bool:
        return self.status == PaytableStatus.DRAFT


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
            models.CheckConstraint(condition=models.Q(pays_numerator__gte=0), name="paytable_line_pays_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{line_label(self.hand, self.min_rank, self.ranks)} {pays_words(self.pays, self.paytable.basis)}"

    @property
    def pays(self) -> str:
        if self.pays_denominator == 1:
            return str(self.pays_numerator)
        return f"{self.pays_numerator}/{self.pays_denominator}"


class AnalysisStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class PaytableAnalysis(models.Model):
    """The exact theoretical analysis of one paytable's schedule, computed by a Celery job."""

    paytable = models.OneToOneField(Paytable, on_delete=models.CASCADE, related_name="analysis")
    # Fingerprint of the schedule analysed: a job whose schedule has since changed stores nothing.
    spec_hash = models.CharField(max_length=64)
    status = models.CharField(max_length=16, choices=AnalysisStatus.choices, default=AnalysisStatus.QUEUED)
    progress = models.PositiveSmallIntegerField(default=0)
    attempts = models.PositiveIntegerField(default=0)
    queued_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)
    # Key figures, per unit staked; the exact return is kept as a fraction "n/d".
    return_exact = models.CharField(max_length=200, blank=True)
    return_ratio = models.FloatField(null=True, blank=True)
    house_edge = models.FloatField(null=True, blank=True)
    hit_frequency = models.FloatField(null=True, blank=True)
    variance = models.FloatField(null=True, blank=True)
    std_dev = models.FloatField(null=True, blank=True)
    results = models.JSONField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "paytable analyses"
        constraints = [
            models.CheckConstraint(condition=models.Q(progress__lte=100), name="paytable_analysis_progress_range"),
        ]

    def __str__(self) -> str:
        return f"Analysis of {self.paytable} ({self.status}, {self.progress}%)"
