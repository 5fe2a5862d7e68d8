"""Empty DRF's plaintext token table left by earlier versions (its app is no longer installed): tokens are now
knox ApiTokens, stored as digests. Scripts get a new token from POST /api/v1/auth/token/ or the admin."""

from typing import Any

from django.db import migrations

OLD_TABLE = "authtoken_token"


def remove_plaintext_tokens(apps: Any, schema_editor: Any) -> None:
    connection = schema_editor.connection
    if OLD_TABLE in connection.introspection.table_names():
        with connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {OLD_TABLE}")  # noqa: S608 (a fixed table name)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]

    operations = [migrations.RunPython(remove_plaintext_tokens, migrations.RunPython.noop)]
