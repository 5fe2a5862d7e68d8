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

    class Meta:
        ordering = ["-checked_at", "-id"]
        get_latest_by = "checked_at"
        indexes = [models.Index(fields=["checked_at", "id"], name="audit_check_time_idx")]

    def __str__(self) -> str:
        return f"{'ok' if self.ok else 'BROKEN'} at {self.checked_at:%Y-%m-%d %H:%M:%S}"
