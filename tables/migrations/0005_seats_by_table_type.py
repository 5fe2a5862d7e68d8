"""Seats by table type: up to 10 seats (five-card draw and its variants), and a trigger keeping each table's seats
within its type's own limit (Triple Draw 7, Three Legged Race 6, the other draw games 10); a check constraint
cannot read the seat's table, so both databases get a trigger."""

# ruff: noqa: S608 -- the SQL is built from this module's constants only, never from input.
from typing import Any

from django.db import migrations, models

# The limits as of this migration (tables.models.tables.SEAT_LIMITS); a test checks the database refuses past them.
# In parentheses: PL/pgSQL reads an IF condition up to its first THEN, and a bare CASE has THENs of its own.
LIMIT = "(CASE {kind} WHEN 'triple-draw' THEN 7 WHEN 'three-legged-race' THEN 6 ELSE 10 END)"
MESSAGE = "a seat number beyond the seats of the table type"

POSTGRES = f"""
CREATE OR REPLACE FUNCTION tables_seat_within_type() RETURNS trigger AS $$
DECLARE kind text;
BEGIN
    SELECT table_type INTO kind FROM tables_table WHERE id = NEW.table_id;
    IF NEW.number > {LIMIT.format(kind="kind")} THEN
        RAISE EXCEPTION '{MESSAGE}: seat % of a % table', NEW.number, kind USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER tables_seat_within_type BEFORE INSERT OR UPDATE ON tables_seat
    FOR EACH ROW EXECUTE FUNCTION tables_seat_within_type();
CREATE OR REPLACE FUNCTION tables_table_type_fits_seats() RETURNS trigger AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM tables_seat WHERE table_id = NEW.id AND number > {LIMIT.format(kind="NEW.table_type")}) THEN
        RAISE EXCEPTION '{MESSAGE}: table % has more seats than a % table', NEW.id, NEW.table_type
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER tables_table_type_fits_seats BEFORE UPDATE OF table_type ON tables_table
    FOR EACH ROW EXECUTE FUNCTION tables_table_type_fits_seats();
"""
POSTGRES_DROP = """
DROP TRIGGER IF EXISTS tables_table_type_fits_seats ON tables_table;
DROP FUNCTION IF EXISTS tables_table_type_fits_seats();
DROP TRIGGER IF EXISTS tables_seat_within_type ON tables_seat;
DROP FUNCTION IF EXISTS tables_seat_within_type();
"""
_SEAT_LIMIT = LIMIT.format(kind="(SELECT table_type FROM tables_table WHERE id = NEW.table_id)")
SQLITE = [
    f"""CREATE TRIGGER tables_seat_within_type_{op.lower()} BEFORE {op} ON tables_seat
        WHEN NEW.number > {_SEAT_LIMIT}
        BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END"""
    for op in ("INSERT", "UPDATE")
] + [
    f"""CREATE TRIGGER tables_table_type_fits_seats BEFORE UPDATE OF table_type ON tables_table
        WHEN EXISTS (SELECT 1 FROM tables_seat WHERE table_id = NEW.id AND number > {LIMIT.format(kind="NEW.table_type")})
        BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END"""
]
SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS tables_seat_within_type_insert",
    "DROP TRIGGER IF EXISTS tables_seat_within_type_update",
    "DROP TRIGGER IF EXISTS tables_table_type_fits_seats",
]


def install(apps: Any, schema_editor: Any) -> None:
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(POSTGRES, params=None)
    elif vendor == "sqlite":
        for statement in SQLITE:
            schema_editor.execute(statement, params=None)


def uninstall(apps: Any, schema_editor: Any) -> None:
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(POSTGRES_DROP, params=None)
    elif vendor == "sqlite":
        for statement in SQLITE_DROP:
            schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):
    dependencies = [("tables", "0004_versions")]

    operations = [
        migrations.RemoveConstraint(model_name="seat", name="seat_number_1_to_7"),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.CheckConstraint(
                condition=models.Q(("number__gte", 1), ("number__lte", 10)), name="seat_number_1_to_10"
            ),
        ),
        migrations.RunPython(install, uninstall),
    ]
