"""Floor operations: a table's pit (reports group by it) and an index on the ledger by table and time (an hour's
summary and a shift's system win read one index range). SQLite rebuilds tables_table to add a column, which its
seat-limit triggers (0005) would block and lose: they are dropped before and installed again after."""

import importlib

from django.db import migrations, models

seat_triggers = importlib.import_module("tables.migrations.0005_seats_by_table_type")


def _sqlite_only(action):  # type: ignore[no-untyped-def]
    def run(apps, schema_editor):  # type: ignore[no-untyped-def]
        if schema_editor.connection.vendor == "sqlite":
            action(apps, schema_editor)

    return run


class Migration(migrations.Migration):
    dependencies = [("tables", "0005_seats_by_table_type")]

    operations = [
        migrations.RunPython(_sqlite_only(seat_triggers.uninstall), _sqlite_only(seat_triggers.install)),
        migrations.AddField(
            model_name="table",
            name="pit",
            field=models.CharField(blank=True, default="", max_length=40),
        ),
        migrations.RunPython(_sqlite_only(seat_triggers.install), _sqlite_only(seat_triggers.uninstall)),
        migrations.AddIndex(
            model_name="ledgerentry",
            index=models.Index(fields=["table", "posted_at"], name="ledger_table_posted_idx"),
        ),
    ]
