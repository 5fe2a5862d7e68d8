"""OutboxJob: a job written in the same transaction as the decision it carries out, deleted once it has run."""

from __future__ import annotations

from django.db import models


class OutboxJob(models.Model):
    """One job that must run because a write committed (settle this round, analyse this paytable, ...).

    Created with the write, so the decision and the job commit together; sent to the broker after the commit and
    again by the sweeper whenever `due_at` passes without the job having deleted it (broker down when it was
    sent, worker killed, database lost by the worker). Every job it names is idempotent, so a second copy is
    harmless. Plumbing, not a business record: it is not audited (the write that made it is).
    """

    task = models.CharField(max_length=100)
    args = models.JSONField(default=list)
    priority = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField()
    # Sent (or first sendable) by then, and not done: the sweeper sends it (again).
    due_at = models.DateTimeField()
    # How long one copy may take before another is sent (longer for jobs that run longer).
    lease_seconds = models.PositiveIntegerField()
    sends = models.PositiveIntegerField(default=0)
    last_sent_at = models.DateTimeField(null=True, blank=True)
    # Jobs that recompute something whole (a table's summary hour) name what they recompute: while one such job
    # has not started, a later write needs no job of its own (outbox_add_coalesced). Empty: never coalesced.
    coalesce_key = models.CharField(max_length=200, blank=True, default="")
    # Set by the job as it starts (before it reads), so a write committing after that queues its own job.
    started_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["due_at"], name="outbox_due_idx"),
            models.Index(
                fields=["coalesce_key"],
                name="outbox_pending_key_idx",
                condition=models.Q(started_at__isnull=True) & ~models.Q(coalesce_key=""),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.task}{tuple(self.args)}"
