"""App configuration for floor: role sync after migrate, summaries refreshed as tables post their ledgers, and the
floor's part of seed_demo."""

from django.apps import AppConfig
from django.db.models.signals import post_migrate


class FloorConfig(AppConfig):
    name = "floor"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from floor.demo import seed_floor_demo
        from floor.roles import sync_after_migrate
        from floor.tasks import queue_summary_refresh
        from tables.signals import demo_seeding, ledger_posted

        post_migrate.connect(sync_after_migrate, sender=self, dispatch_uid="floor.sync_roles")
        ledger_posted.connect(queue_summary_refresh, dispatch_uid="floor.summary_refresh")
        demo_seeding.connect(seed_floor_demo, dispatch_uid="floor.demo")
