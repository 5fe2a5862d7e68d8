"""Install the triggers that reject UPDATE (except sealing) and DELETE of audit events."""

from typing import Any

from django.db import migrations

from audit import db_guard


def install(apps: Any, schema_editor: Any) -> None:
    db_guard.install(schema_editor.connection)


def uninstall(apps: Any, schema_editor: Any) -> None:
    db_guard.uninstall(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [("audit", "0002_sealing_and_compliance")]

    operations = [migrations.RunPython(install, uninstall)]
