"""App configuration for audit: loads every app's audit actions and connects the plumbing hooks (sign-ins,
sealing after commit, Celery correlation, SQLite guard)."""

from django.apps import AppConfig
from django.utils.module_loading import autodiscover_modules


class AuditConfig(AppConfig):
    name = "audit"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from celery.signals import before_task_publish, task_postrun, task_prerun
        from django.contrib.auth import user_logged_in, user_logged_out
        from django.db.backends.signals import connection_created
        from django.db.models.signals import post_migrate

        from audit import db_guard, receivers, tasks
        from audit.signals import events_committed, verification_requested

        # Every installed app declares the actions it records in its actions.py (audit/actions.py explains).
        autodiscover_modules("actions")
        events_committed.connect(tasks.seal_chain_queue, dispatch_uid="audit_seal_after_commit")
        verification_requested.connect(tasks.verification_queue, dispatch_uid="audit_verify_requested")
        connection_created.connect(db_guard.on_connection_created, dispatch_uid="audit_sqlite_guard")
        post_migrate.connect(_reinstall_triggers, sender=self, dispatch_uid="audit_triggers")
        user_logged_in.connect(receivers.on_user_logged_in, dispatch_uid="audit_login")
        user_logged_out.connect(receivers.on_user_logged_out, dispatch_uid="audit_logout")
        # Failed sign-ins are counted by django-axes; the trail gets one event per lockout (accounts.throttle).
        before_task_publish.connect(receivers.on_before_task_publish, dispatch_uid="audit_task_publish")
        task_prerun.connect(receivers.on_task_prerun, dispatch_uid="audit_task_prerun")
        task_postrun.connect(receivers.on_task_postrun, dispatch_uid="audit_task_postrun")
        # The embedded demo has no beat process: the schedule runs in a thread of runserver instead.
        from audit import local_beat

        local_beat.start()


def _reinstall_triggers(sender: object, using: str = "default", **kwargs: object) -> None:
    """After every migrate (and flush): a SQLite table rebuild drops triggers and new columns need covering."""
    from django.db import connections

    from audit import db_guard

    db_guard.install(connections[using])
