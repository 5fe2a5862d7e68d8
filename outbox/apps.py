"""App configuration for outbox: the jobs that must follow a committed write, and their sweeper."""

from django.apps import AppConfig


class OutboxConfig(AppConfig):
    name = "outbox"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from casino import broker
        from outbox.jobs import outbox_sweep

        # A web process that finds the broker back after an outage sends what waited, without waiting for beat.
        broker.on_recovery(outbox_sweep)
