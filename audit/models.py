"""AuditEvent: one append-only record of who did what, when, where, with before/after values."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from audit.actions import ACTIONS, ExceptionKind


class ActorKind(models.TextChoices):
    USER = "user", "User"
    WORKER = "worker", "Celery worker"
    DEVICE = "device", "Device"
    SYSTEM = "system", "System"


def _user_reference() -> models.ForeignKey:  # type: ignore[type-arg]
    """A user an event names, next to a copy of the username.

    No database constraint and DO_NOTHING: deleting a user must neither fail nor rewrite the trail (SET_NULL
    would be an UPDATE, which the trigger refuses); the copied username keeps the record readable.
    """
    return models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.DO_NOTHING,
        related_name="+",
        db_constraint=False,
    )


class AuditEvent(models.Model):
    """Never updated or deleted (database triggers enforce it); sealed into a hash chain after commit.

    The only UPDATE the database allows is the one that seals a row: it fills `sequence`, `prev_hash` and
    `hash` once, while they are still empty, and changes nothing else.
    """

    # Assigned when the event is sealed into the chain, in commit-visible order; null until then.
    sequence = models.BigIntegerField(null=True, blank=True, unique=True)
    occurred_at = models.DateTimeField()
    actor = _user_reference()
    actor_username = models.CharField(max_length=150, blank=True)
    actor_role = models.CharField(max_length=32, blank=True)
    actor_kind = models.CharField(max_length=16, choices=ActorKind.choices, default=ActorKind.SYSTEM)
    action = models.CharField(max_length=64)
    exception_kind = models.CharField(max_length=16, choices=ExceptionKind.choices, blank=True, default="")
    object_type = models.CharField(max_length=64, blank=True)
    object_id = models.CharField(max_length=64, blank=True)
    object_repr = models.CharField(max_length=200, blank=True)
    table_id = models.BigIntegerField(null=True, blank=True)
    table_repr = models.CharField(max_length=100, blank=True)
    round_id = models.BigIntegerField(null=True, blank=True)
    round_repr = models.CharField(max_length=100, blank=True)
    seat_number = models.PositiveSmallIntegerField(null=True, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)
    approver = _user_reference()
    approver_username = models.CharField(max_length=150, blank=True)
    correlation_id = models.CharField(max_length=64, blank=True, db_index=True)
    client_address = models.GenericIPAddressField(null=True, blank=True)
    prev_hash = models.CharField(max_length=64, blank=True)
    hash = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["id"]
        permissions = [("use_compliance_screens", "Can use the compliance screens and audit API")]
        # Lists are newest first by (occurred_at, id) with keyset pagination on that pair, so every filter
        # column leads an index that continues with (occurred_at, id): a page is one short index range scan.
        indexes = [
            models.Index(fields=["occurred_at", "id"], name="audit_time_idx"),
            models.Index(fields=["table_id", "occurred_at", "id"], name="audit_table_time_idx"),
            models.Index(fields=["round_id", "occurred_at", "id"], name="audit_round_time_idx"),
            models.Index(fields=["actor_username", "occurred_at", "id"], name="audit_actor_time_idx"),
            models.Index(fields=["object_type", "object_id", "occurred_at", "id"], name="audit_object_time_idx"),
            models.Index(fields=["action", "occurred_at", "id"], name="audit_action_time_idx"),
            models.Index(
                fields=["exception_kind", "occurred_at", "id"],
                name="audit_exception_time_idx",
                condition=~models.Q(exception_kind=""),
            ),
            models.Index(fields=["id"], name="audit_unsealed_idx", condition=models.Q(sequence__isnull=True)),
            # The round filter accepts a round's name as the screens show it ("Triple Draw 1 round 9").
            models.Index(fields=["round_repr"], name="audit_round_name_idx", condition=~models.Q(round_repr="")),
        ]

    def __str__(self) -> str:
        who = self.actor_username or self.actor_kind
        return f"#{self.pk} {self.action} {self.object_type}:{self.object_id} by {who}"

    @property
    def action_label(self) -> str:
        """What a compliance officer reads for the stored action code (audit/actions.py)."""
        return ACTIONS.label(self.action)


class ChainVerification(models.Model):
    """The outcome of one full verification of the hash chain (by the beat job or `verify_audit`)."""

    checked_at = models.DateTimeField()
    ok = models.BooleanField()
    checked_count = models.BigIntegerField(default=0)
    pending_count = models.BigIntegerField(default=0)
    last_sequence = models.BigIntegerField(null=True, blank=True)
    # The hash at last_sequence: a later check that finds a different hash there knows the chain was rewritten.
    last_hash = models.CharField(max_length=64, blank=True)
    first_broken_id = models.BigIntegerField(null=True, blank=True)
    first_broken_sequence = models.BigIntegerField(null=True, blank=True)
    message = models.TextField(blank=True)
    duration_ms = models.PositiveIntegerField(default=0)
    # Who asked for it: a compliance user's username, "verify_audit" or the scheduled job.
    checked_by = models.CharField(max_length=150, blank=True)

    class Meta:
        ordering = ["-checked_at", "-id"]
        get_latest_by = "checked_at"
        indexes = [models.Index(fields=["checked_at", "id"], name="audit_check_time_idx")]

    def __str__(self) -> str:
        return f"{'ok' if self.ok else 'BROKEN'} at {self.checked_at:%Y-%m-%d %H:%M:%S}"


class VerificationRun(models.Model):
    """A chain verification started from the screen: its progress while the job runs, its outcome after."""

    token = models.CharField(max_length=32, unique=True)
    requested_by = models.CharField(max_length=150)
    requested_at = models.DateTimeField()
    total = models.BigIntegerField(default=0)
    checked = models.BigIntegerField(default=0)
    finished_at = models.DateTimeField(null=True, blank=True)
    # No database constraint: the chain checks are append-only and must stay truncatable only by their own rules.
    verification = models.ForeignKey(
        ChainVerification, null=True, blank=True, on_delete=models.DO_NOTHING, db_constraint=False, related_name="+"
    )
    error = models.TextField(blank=True)

    def __str__(self) -> str:
        return f"verification {self.token} by {self.requested_by}"


class ReviewStatus(models.TextChoices):
    NEW = "new", "New"
    UNDER_REVIEW = "under_review", "Under review"
    CLOSED = "closed", "Closed"


class ExceptionCase(models.Model):
    """One exception in the compliance work queue: what a rule found, and its review (notes, sign-off).

    `key` names what was found ("event:123", "payout:88:3", "cash:2:3:2026-11-29"), so a rule that runs twice
    over the same events finds the same case instead of a second one.
    """

    key = models.CharField(max_length=120, unique=True)
    kind = models.CharField(max_length=20, choices=ExceptionKind.choices)
    event = models.ForeignKey(
        AuditEvent, null=True, blank=True, on_delete=models.DO_NOTHING, db_constraint=False, related_name="+"
    )
    occurred_at = models.DateTimeField()
    gaming_day = models.DateField()
    table_id = models.BigIntegerField(null=True, blank=True)
    table_repr = models.CharField(max_length=100, blank=True)
    round_id = models.BigIntegerField(null=True, blank=True)
    round_repr = models.CharField(max_length=100, blank=True)
    seat_number = models.PositiveSmallIntegerField(null=True, blank=True)
    # Who caused it (the event's actor, or its approver): they may not sign it off.
    caused_by = models.CharField(max_length=150, blank=True)
    caused_by_ids = models.JSONField(default=list, blank=True)
    amount_cents = models.BigIntegerField(null=True, blank=True)
    summary = models.CharField(max_length=300)
    status = models.CharField(max_length=16, choices=ReviewStatus.choices, default=ReviewStatus.NEW)
    reviewer = _user_reference()
    reviewer_username = models.CharField(max_length=150, blank=True)
    signed_off_by = _user_reference()
    signed_off_username = models.CharField(max_length=150, blank=True)
    signed_off_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["-occurred_at", "-id"]
        indexes = [
            models.Index(fields=["occurred_at", "id"], name="audit_case_time_idx"),
            models.Index(fields=["status", "occurred_at", "id"], name="audit_case_status_idx"),
            models.Index(fields=["kind", "occurred_at", "id"], name="audit_case_kind_idx"),
            models.Index(fields=["table_id", "occurred_at", "id"], name="audit_case_table_idx"),
            models.Index(fields=["gaming_day", "kind"], name="audit_case_day_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.summary}"


class ExceptionNote(models.Model):
    """A reviewer's note on an exception; notes are added, never edited."""

    case = models.ForeignKey(ExceptionCase, on_delete=models.PROTECT, related_name="notes")
    author = _user_reference()
    author_username = models.CharField(max_length=150)
    text = models.TextField()
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"note by {self.author_username} on case {self.case_id}"


class ExceptionScan(models.Model):
    """How far the exception rules have read the sealed chain (one row): they resume after `last_sequence`."""

    last_sequence = models.BigIntegerField(default=0)
    updated_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"exception rules read up to sequence {self.last_sequence}"


class SeatDayTotal(models.Model):
    """What one seat of one table was paid in one gaming day, summed by the rules for the cash-reporting threshold."""

    table_id = models.BigIntegerField()
    seat_number = models.PositiveSmallIntegerField()
    gaming_day = models.DateField()
    paid_cents = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table_id", "seat_number", "gaming_day"], name="audit_seat_day_unique")
        ]

    def __str__(self) -> str:
        return f"table {self.table_id} seat {self.seat_number} {self.gaming_day}: {self.paid_cents}c"


class DailyReport(models.Model):
    """The compliance summary of one gaming day, produced each morning by a job and kept (page, CSV and PDF)."""

    gaming_day = models.DateField(unique=True)
    created_at = models.DateTimeField()
    created_by = models.CharField(max_length=150)
    data = models.JSONField()
    csv_text = models.TextField()
    pdf = models.BinaryField()

    class Meta:
        ordering = ["-gaming_day"]

    def __str__(self) -> str:
        return f"compliance report {self.gaming_day}"
