"""Database guard: an approved paytable's schedule and its lines never change (DESIGN 6).

Services refuse such writes first; these triggers make raw ORM updates and SQL fail too. Status
transitions of an approved paytable stay possible (approved -> active -> retired), but never back to draft.
"""

from django.db import migrations

MESSAGE = "paytable_immutable: an approved paytable never changes; clone it to make a new draft version"

# Fields that make up the approved schedule and its approval record.
FROZEN = (
    "name",
    "version",
    "basis",
    "wild_ranks",
    "approval_reference",
    "approved_by_id",
    "approved_at",
    "created_by_id",
    "created_at",
    "cloned_from_id",
)

POSTGRES_FORWARD = [
    """
    CREATE OR REPLACE FUNCTION paytables_line_guard() RETURNS trigger AS $$
    DECLARE
        parent_status text;
    BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
            SELECT status INTO parent_status FROM paytables_paytable WHERE id = OLD.paytable_id;
            IF parent_status IS NOT NULL AND parent_status <> 'draft' THEN
                RAISE EXCEPTION '{MESSAGE}' USING ERRCODE = 'integrity_constraint_violation';
            END IF;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
            SELECT status INTO parent_status FROM paytables_paytable WHERE id = NEW.paytable_id;
            IF parent_status IS NOT NULL AND parent_status <> 'draft' THEN
                RAISE EXCEPTION '{MESSAGE}' USING ERRCODE = 'integrity_constraint_violation';
            END IF;
            RETURN NEW;
        END IF;
        RETURN OLD;
    END;
    $$ LANGUAGE plpgsql;
    """.replace("{MESSAGE}", MESSAGE),
    """
    CREATE TRIGGER paytables_line_guard BEFORE INSERT OR UPDATE OR DELETE ON paytables_paytableline
    FOR EACH ROW EXECUTE FUNCTION paytables_line_guard();
    """,
    f"""
    CREATE OR REPLACE FUNCTION paytables_paytable_guard() RETURNS trigger AS $$
    BEGIN
        IF OLD.status = 'draft' THEN
            IF TG_OP = 'DELETE' THEN
                RETURN OLD;
            END IF;
            RETURN NEW;
        END IF;
        IF TG_OP = 'DELETE' OR NEW.status = 'draft' OR {" OR ".join(f"NEW.{f} IS DISTINCT FROM OLD.{f}" for f in FROZEN)} THEN
            RAISE EXCEPTION '{MESSAGE}' USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE TRIGGER paytables_paytable_guard BEFORE UPDATE OR DELETE ON paytables_paytable
    FOR EACH ROW EXECUTE FUNCTION paytables_paytable_guard();
    """,
]

POSTGRES_REVERSE = [
    "DROP TRIGGER IF EXISTS paytables_line_guard ON paytables_paytableline;",
    "DROP TRIGGER IF EXISTS paytables_paytable_guard ON paytables_paytable;",
    "DROP FUNCTION IF EXISTS paytables_line_guard();",
    "DROP FUNCTION IF EXISTS paytables_paytable_guard();",
]


def _parent_not_draft(ref: str) -> str:
    return f"(SELECT status FROM paytables_paytable WHERE id = {ref}.paytable_id) <> 'draft'"  # noqa: S608


SQLITE_FORWARD = [
    f"""
    CREATE TRIGGER paytables_line_guard_insert BEFORE INSERT ON paytables_paytableline
    WHEN {_parent_not_draft("NEW")}
    BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END;
    """,
    f"""
    CREATE TRIGGER paytables_line_guard_update BEFORE UPDATE ON paytables_paytableline
    WHEN {_parent_not_draft("OLD")} OR {_parent_not_draft("NEW")}
    BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END;
    """,
    f"""
    CREATE TRIGGER paytables_line_guard_delete BEFORE DELETE ON paytables_paytableline
    WHEN {_parent_not_draft("OLD")}
    BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END;
    """,
    f"""
    CREATE TRIGGER paytables_paytable_guard_update BEFORE UPDATE ON paytables_paytable
    WHEN OLD.status <> 'draft' AND (NEW.status = 'draft' OR {" OR ".join(f"NEW.{f} IS NOT OLD.{f}" for f in FROZEN)})
    BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END;
    """,
    f"""
    CREATE TRIGGER paytables_paytable_guard_delete BEFORE DELETE ON paytables_paytable
    WHEN OLD.status <> 'draft'
    BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END;
    """,
]

SQLITE_REVERSE = [
    "DROP TRIGGER IF EXISTS paytables_line_guard_insert;",
    "DROP TRIGGER IF EXISTS paytables_line_guard_update;",
    "DROP TRIGGER IF EXISTS paytables_line_guard_delete;",
    "DROP TRIGGER IF EXISTS paytables_paytable_guard_update;",
    "DROP TRIGGER IF EXISTS paytables_paytable_guard_delete;",
]


def _run(statements: dict[str, list[str]]):  # type: ignore[no-untyped-def]
    def run(apps, schema_editor):  # type: ignore[no-untyped-def]
        for sql in statements.get(schema_editor.connection.vendor, []):
            schema_editor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("paytables", "0002_analysis_and_versions"),
    ]

    operations = [
        migrations.RunPython(
            _run({"postgresql": POSTGRES_FORWARD, "sqlite": SQLITE_FORWARD}),
            _run({"postgresql": POSTGRES_REVERSE, "sqlite": SQLITE_REVERSE}),
        ),
    ]
