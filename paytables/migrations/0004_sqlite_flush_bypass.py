"""SQLite: let `manage.py flush` (a whole-database reset) empty the paytables past the immutability triggers.

PostgreSQL's flush truncates, which row triggers do not see. SQLite's flush deletes rows, so the delete triggers
honour the audit app's flush bypass (`audit_flush_bypass()`, defined only on Django's own connections and only
on while `flush` runs); any other client fails closed.
"""

from django.db import migrations

MESSAGE = "paytable_immutable: an approved paytable never changes; clone it to make a new draft version"
LINE_PARENT_NOT_DRAFT = "(SELECT status FROM paytables_paytable WHERE id = OLD.paytable_id) <> 'draft'"

FORWARD = [
    "DROP TRIGGER IF EXISTS paytables_line_guard_delete;",
    f"""
    CREATE TRIGGER paytables_line_guard_delete BEFORE DELETE ON paytables_paytableline
    WHEN audit_flush_bypass() = 0 AND {LINE_PARENT_NOT_DRAFT}
    BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END;
    """,
    "DROP TRIGGER IF EXISTS paytables_paytable_guard_delete;",
    f"""
    CREATE TRIGGER paytables_paytable_guard_delete BEFORE DELETE ON paytables_paytable
    WHEN audit_flush_bypass() = 0 AND OLD.status <> 'draft'
    BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END;
    """,
]

REVERSE = [
    "DROP TRIGGER IF EXISTS paytables_line_guard_delete;",
    f"""
    CREATE TRIGGER paytables_line_guard_delete BEFORE DELETE ON paytables_paytableline
    WHEN {LINE_PARENT_NOT_DRAFT}
    BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END;
    """,
    "DROP TRIGGER IF EXISTS paytables_paytable_guard_delete;",
    f"""
    CREATE TRIGGER paytables_paytable_guard_delete BEFORE DELETE ON paytables_paytable
    WHEN OLD.status <> 'draft'
    BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END;
    """,
]


def _run(statements: list[str]):  # type: ignore[no-untyped-def]
    def run(apps, schema_editor):  # type: ignore[no-untyped-def]
        if schema_editor.connection.vendor == "sqlite":
            for sql in statements:
                schema_editor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("paytables", "0003_approved_paytables_immutable"),
        ("audit", "0001_initial"),
    ]

    operations = [migrations.RunPython(_run(FORWARD), _run(REVERSE))]
