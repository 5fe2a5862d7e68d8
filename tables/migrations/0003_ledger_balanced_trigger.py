"""PostgreSQL: a deferred constraint trigger rejects any bet's ledger posting whose legs do not sum to zero."""

from typing import Any

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION tables_ledger_posting_balanced() RETURNS trigger AS $$
DECLARE total bigint;
BEGIN
    SELECT COALESCE(SUM(amount_cents), 0) INTO total FROM tables_ledgerentry WHERE bet_id = NEW.bet_id;
    IF total <> 0 THEN
        RAISE EXCEPTION 'ledger posting for bet % does not sum to zero (%)', NEW.bet_id, total
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END $$ LANGUAGE plpgsql;
CREATE CONSTRAINT TRIGGER tables_ledger_posting_balanced
    AFTER INSERT OR UPDATE ON tables_ledgerentry DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION tables_ledger_posting_balanced();
CREATE OR REPLACE FUNCTION tables_ledger_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'ledger entries are append-only' USING ERRCODE = 'insufficient_privilege';
END $$ LANGUAGE plpgsql;
CREATE TRIGGER tables_ledger_append_only BEFORE UPDATE OR DELETE ON tables_ledgerentry
    FOR EACH ROW EXECUTE FUNCTION tables_ledger_append_only();
"""
DROP = """
DROP TRIGGER IF EXISTS tables_ledger_append_only ON tables_ledgerentry;
DROP FUNCTION IF EXISTS tables_ledger_append_only();
DROP TRIGGER IF EXISTS tables_ledger_posting_balanced ON tables_ledgerentry;
DROP FUNCTION IF EXISTS tables_ledger_posting_balanced();
"""


def forwards(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def backwards(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("tables", "0002_triple_draw")]

    operations = [migrations.RunPython(forwards, backwards)]
