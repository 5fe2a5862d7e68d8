"""Install the triggers that make the stored chain checks append-only, like the events (audit/db_guard.py)."""

from typing import Any

from django.db import migrations

from audit import db_guard


def install(apps: Any, schema_editor: Any) -> None:
    db_guard.install(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [("audit", "0006_chain_check_index")]

    # db_guard.install covers both tables and is re-run after every migrate; reversing leaves the events guarded.
    operations = [migrations.RunPython(install, migrations.RunPython.noop)]
