"""The database itself refuses to change or remove audit events (DESIGN 8: "the database itself rejects UPDATE
and DELETE"); the only UPDATE it allows fills the empty chain fields once."""

from __future__ import annotations

import sqlite3

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction

from audit import db_guard
from audit.models import AuditEvent
from audit.services import audit_chain_seal, audit_record
from tests.audit.actions import THING_TOUCH


def _event(**extra: object) -> AuditEvent:
    return audit_record(action=THING_TOUCH, object_type="test.thing", object_id="1", **extra)  # type: ignore[arg-type]


def _raw(sql: str, params: list[object] | None = None) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params or [])


@pytest.mark.django_db
@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE audit_auditevent SET reason = 'edited' WHERE id = %s",
        "UPDATE audit_auditevent SET action = 'other', hash = 'f', sequence = 99 WHERE id = %s",
        "DELETE FROM audit_auditevent WHERE id = %s",
    ],
)
def test_raw_sql_cannot_change_or_delete_an_unsealed_event(sql: str) -> None:
    event = _event(reason="original")
    with pytest.raises(DatabaseError, match="append-only"):
        _raw(sql, [event.id])
    stored = AuditEvent.objects.get(id=event.id)
    assert (stored.reason, stored.action, stored.sequence) == ("original", "thing_touch", None)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE audit_auditevent SET reason = 'edited' WHERE id = %s",
        "UPDATE audit_auditevent SET hash = '', prev_hash = '', sequence = NULL WHERE id = %s",
        "UPDATE audit_auditevent SET sequence = sequence + 100 WHERE id = %s",
        "DELETE FROM audit_auditevent WHERE id = %s",
    ],
)
def test_raw_sql_cannot_change_or_delete_a_sealed_event(sql: str) -> None:
    event = _event(reason="original")
    audit_chain_seal()
    sealed = AuditEvent.objects.get(id=event.id)
    with pytest.raises(DatabaseError, match="append-only"):
        _raw(sql, [event.id])
    again = AuditEvent.objects.get(id=event.id)
    assert (again.reason, again.sequence, again.hash) == ("original", sealed.sequence, sealed.hash)


@pytest.mark.django_db
def test_the_orm_cannot_save_or_delete_an_event_either() -> None:
    event = _event()
    event.reason = "edited"
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        event.save()
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        AuditEvent.objects.filter(id=event.id).delete()
    assert AuditEvent.objects.filter(id=event.id, reason="").exists()


@pytest.mark.django_db
def test_postgres_refuses_truncate(require_postgres: None) -> None:
    _event()
    with pytest.raises(DatabaseError, match="append-only"):
        _raw("TRUNCATE audit_auditevent")
    assert AuditEvent.objects.exists()


@pytest.mark.django_db
def test_sealing_fills_the_chain_fields_once() -> None:
    event = _event()
    assert audit_chain_seal() == 1
    sealed = AuditEvent.objects.get(id=event.id)
    assert sealed.sequence is not None
    assert len(sealed.hash) == 64
    with pytest.raises(DatabaseError, match="append-only"):
        _raw("UPDATE audit_auditevent SET hash = %s WHERE id = %s", ["0" * 64, event.id])


@pytest.mark.django_db
def test_deleting_a_user_keeps_their_events_and_names() -> None:
    user = User.objects.create_user("leaver", password="pw-leaver-123")
    event = _event(actor=user)
    audit_chain_seal()
    user.delete()
    stored = AuditEvent.objects.get(id=event.id)
    assert stored.actor_id == event.actor_id
    assert stored.actor_username == "leaver"


def _sqlite_table(columns: list[str]) -> sqlite3.Connection:
    db = sqlite3.connect(":memory:")
    db.create_function("audit_flush_bypass", 0, lambda: 0)
    definitions = ", ".join(f'"{c}"' + (" INTEGER PRIMARY KEY" if c == "id" else "") for c in columns)
    db.execute(f"CREATE TABLE audit_auditevent ({definitions})")
    for statement in db_guard._sqlite_statements(columns):
        db.execute(statement)
    return db


def test_sqlite_triggers_refuse_update_and_delete_even_when_the_suite_runs_on_postgres() -> None:
    columns = [f.column for f in AuditEvent._meta.concrete_fields]
    db = _sqlite_table(columns)
    db.execute(
        "INSERT INTO audit_auditevent (id, action, reason, sequence, prev_hash, hash) VALUES (1, 'a', '', NULL, '', '')"
    )
    for sql in ("UPDATE audit_auditevent SET reason = 'x'", "DELETE FROM audit_auditevent"):
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            db.execute(sql)
    db.execute("UPDATE audit_auditevent SET sequence = 1, prev_hash = 'p', hash = 'h' WHERE id = 1")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        db.execute("UPDATE audit_auditevent SET hash = 'other' WHERE id = 1")


def test_a_sqlite_client_without_the_bypass_function_cannot_delete() -> None:
    db = sqlite3.connect(":memory:")
    db.execute('CREATE TABLE audit_auditevent ("id" INTEGER PRIMARY KEY, "sequence", "prev_hash", "hash")')
    for statement in db_guard._sqlite_statements(["id", "sequence", "prev_hash", "hash"]):
        db.execute(statement)
    db.execute("INSERT INTO audit_auditevent VALUES (1, NULL, '', '')")
    with pytest.raises(sqlite3.OperationalError, match="audit_flush_bypass"):
        db.execute("DELETE FROM audit_auditevent")


@pytest.mark.django_db(transaction=True)
def test_flush_is_the_one_reset_that_may_empty_the_trail() -> None:
    # Transactional tests end with `flush`; it must still work, and a plain DELETE must still fail.
    _event()
    with pytest.raises(DatabaseError, match="append-only"):
        _raw("DELETE FROM audit_auditevent")
    call_command("flush", interactive=False, verbosity=0)
    assert not AuditEvent.objects.exists()
    _event()
    with pytest.raises(DatabaseError, match="append-only"):
        _raw("DELETE FROM audit_auditevent")
