"""App configuration for tables."""

from django.apps import AppConfig
from django.db.models.signals import post_migrate


class TablesConfig(AppConfig):
    name = "tables"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tables import checks  # noqa: F401  (registers the stored-rules check)
        from tables.roles import sync_after_migrate

        # Runs after every app's post_migrate permission creation because tables is installed last.
        post_migrate.connect(sync_after_migrate, sender=self, dispatch_uid="tables.sync_roles")
