"""AuditEvent: one append-only record of who did what, when, where, with before/after values."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ActorKind(models.TextChoices):
    USER = "user", "User"
    WORKER = "worker", "Celery worker"
    DEVICE = "device", "Device"
    SYSTEM = "system", "System"


class AuditEvent(models.Model):
    """Never updated or deleted (database triggers enforce it); sealed into a hash chain after commit."""

    # Assigned when the event is sealed into the chain, in commit order; null until then.
    sequence = models.BigIntegerField(null=True, blank=True, unique=True)
    occurred_at = models.DateTimeField(db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_constraint=False,  # the trail must outlive the user row it names
    )
    actor_username = models.CharField(max_length=150, blank=True)
    actor_role = models.CharField(max_length=32, blank=True)
    actor_kind = models.CharField(max_length=16, choices=ActorKind.choices, default=ActorKind.SYSTEM)
    action = models.CharField(max_length=64, db_index=True)
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
    approver_username = models.CharField(max_length=150, blank=True)
    correlation_id = models.CharField(max_length=64, blank=True, db_index=True)
    client_address = models.GenericIPAddressField(null=True, blank=True)
    prev_hash = models.CharField(max_length=64, blank=True)
    hash = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["id"]
        indexes = [
            models.Index(fields=["table_id", "id"], name="audit_table_idx"),
            models.Index(fields=["round_id", "id"], name="audit_round_idx"),
            models.Index(fields=["actor_username", "id"], name="audit_actor_idx"),
            models.Index(fields=["object_type", "object_id"], name="audit_object_idx"),
            models.Index(fields=["occurred_at", "id"], name="audit_time_idx"),
        ]

    def __str__(self) -> str:
        who = self.actor_username or self.actor_kind
        return f"#{self.pk} {self.action} {self.object_type}:{self.object_id} by {who}"
