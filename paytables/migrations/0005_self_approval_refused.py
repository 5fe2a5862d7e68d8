"""Record who last edited a draft, and refuse in the database any approval by its drafter or last editor.

The services refuse self-approval first; these triggers make raw ORM updates and SQL fail too. They fire only
when `approved_by` is set or changed, so versions approved before this migration keep moving through their
statuses. An approved version's last editor is frozen like the rest of its approval record.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MESSAGE = "paytable_self_approval: the drafter or last editor of a paytable version may not approve it"
FROZEN = "paytable_immutable: an approved paytable never changes; clone it to make a new draft version"
SELF_APPROVED = "(NEW.approved_by_id = NEW.created_by_id OR NEW.approved_by_id = NEW.last_edited_by_id)"

POSTGRES_FORWARD = [
    f"""
    CREATE OR REPLACE FUNCTION paytables_self_approval_guard() RETURNS trigger AS $$
    BEGIN
        IF TG_OP = 'UPDATE' AND OLD.status <> 'draft'
           AND NEW.last_edited_by_id IS DISTINCT FROM OLD.last_edited_by_id THEN
            RAISE EXCEPTION '{FROZEN}' USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        IF NEW.approved_by_id IS NOT NULL
           AND (TG_OP = 'INSERT' OR NEW.approved_by_id IS DISTINCT FROM OLD.approved_by_id)
           AND {SELF_APPROVED} THEN
            RAISE EXCEPTION '{MESSAGE}' USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE TRIGGER paytables_self_approval_guard BEFORE INSERT OR UPDATE ON paytables_paytable
    FOR EACH ROW EXECUTE FUNCTION paytables_self_approval_guard();
    """,
]

POSTGRES_REVERSE = [
    "DROP TRIGGER IF EXISTS paytables_self_approval_guard ON paytables_paytable;",
    "DROP FUNCTION IF EXISTS paytables_self_approval_guard();",
]

# SQLite's `=` with a NULL is NULL (not true), as in PostgreSQL: a version drafted by nobody recorded passes.
SQLITE_FORWARD = [
    f"""
    CREATE TRIGGER paytables_self_approval_insert BEFORE INSERT ON paytables_paytable
    WHEN NEW.approved_by_id IS NOT NULL AND {SELF_APPROVED}
    BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END;
    """,
    f"""
    CREATE TRIGGER paytables_self_approval_update BEFORE UPDATE ON paytables_paytable
    WHEN NEW.approved_by_id IS NOT NULL AND NEW.approved_by_id IS NOT OLD.approved_by_id AND {SELF_APPROVED}
    BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END;
    """,
    f"""
    CREATE TRIGGER paytables_last_editor_frozen BEFORE UPDATE ON paytables_paytable
    WHEN OLD.status <> 'draft' AND NEW.last_edited_by_id IS NOT OLD.last_edited_by_id
    BEGIN SELECT RAISE(ABORT, '{FROZEN}'); END;
    """,
]

SQLITE_REVERSE = [
    "DROP TRIGGER IF EXISTS paytables_self_approval_insert;",
    "DROP TRIGGER IF EXISTS paytables_self_approval_update;",
    "DROP TRIGGER IF EXISTS paytables_last_editor_frozen;",
]


def _run(statements: dict[str, list[str]]):  # type: ignore[no-untyped-def]
    def run(apps, schema_editor):  # type: ignore[no-untyped-def]
        for sql in statements.get(schema_editor.connection.vendor, []):
            schema_editor.execute(sql)

    return run


def _drafts_last_edited_by_their_drafter(apps, schema_editor):  # type: ignore[no-untyped-def]
    paytable = apps.get_model("paytables", "Paytable")
    paytable.objects.filter(status="draft", last_edited_by__isnull=True).update(last_edited_by=models.F("created_by"))


class Migration(migrations.Migration):
    dependencies = [
        ("paytables", "0004_sqlite_flush_bypass"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="paytable",
            name="last_edited_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.RunPython(_drafts_last_edited_by_their_drafter, migrations.RunPython.noop),
        migrations.RunPython(
            _run({"postgresql": POSTGRES_FORWARD, "sqlite": SQLITE_FORWARD}),
            _run({"postgresql": POSTGRES_REVERSE, "sqlite": SQLITE_REVERSE}),
        ),
    ]
