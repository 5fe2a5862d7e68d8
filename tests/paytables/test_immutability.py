"""An approved paytable never changes: services refuse, and so does the database itself (DESIGN 6).

The triggers are checked on the database the tests run on (SQLite or PostgreSQL), on PostgreSQL explicitly
(`require_postgres`), and on a scratch SQLite database migrated from scratch, so both backends are covered
whichever one the suite runs on.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction

from paytables.models import Paytable, PaytableLine, PaytableStatus
from paytables.selectors import paytable_as_dict
from paytables.services import paytable_line_set, paytable_mark_in_use
from tables.models import Table
from tests.paytables.conftest import JACKS_9_6

pytestmark = pytest.mark.django_db


def refused(write: Callable[[], object]) -> str:
    """Run a write that the database must refuse; return the database's message."""
    with pytest.raises(IntegrityError) as caught, transaction.atomic():
        write()
    return str(caught.value)


def orm_writes(paytable: Paytable) -> dict[str, Callable[[], object]]:
    lines = PaytableLine.objects.filter(paytable=paytable)
    first = lines.order_by("position").first()
    assert first is not None
    return {
        "update a line": lambda: lines.filter(hand="full_house").update(pays_numerator=8),
        "save a line": lambda: PaytableLine.objects.filter(pk=first.pk).update(hand="straight_flush"),
        "delete a line": lambda: lines.filter(hand="flush").delete(),
        "add a line": lambda: PaytableLine.objects.create(
            paytable=paytable, position=99, hand="high_card", pays_numerator=0
        ),
        "change the basis": lambda: Paytable.objects.filter(pk=paytable.pk).update(basis="to_1"),
        "change the name": lambda: Paytable.objects.filter(pk=paytable.pk).update(name="Other"),
        "change the wild ranks": lambda: Paytable.objects.filter(pk=paytable.pk).update(wild_ranks=["2"]),
        "change the approval reference": lambda: Paytable.objects.filter(pk=paytable.pk).update(
            approval_reference="FORGED"
        ),
        "back to draft": lambda: Paytable.objects.filter(pk=paytable.pk).update(status="draft"),
        "delete the paytable": lambda: Paytable.objects.filter(pk=paytable.pk).delete(),
    }


def assert_unchanged(paytable: Paytable) -> None:
    fresh = Paytable.objects.get(pk=paytable.pk)
    assert fresh.approval_reference == "GC-2026-0042"
    assert paytable_as_dict(fresh) == {"name": "Jacks or Better 9/6", "basis": "for_1", "lines": JACKS_9_6}


def test_services_refuse_to_edit_an_approved_version(approved: Paytable, floor_user: User) -> None:
    from casino.errors import WrongPhase

    with pytest.raises(WrongPhase):
        paytable_line_set(paytable=approved, lines=JACKS_9_6[:3], actor=floor_user)
    assert_unchanged(approved)


@pytest.mark.parametrize(
    "write",
    [
        "update a line",
        "save a line",
        "delete a line",
        "add a line",
        "move a line to another paytable",
        "change the basis",
        "change the name",
        "change the wild ranks",
        "change the approval reference",
        "back to draft",
        "delete the paytable",
    ],
)
def test_the_database_refuses_raw_orm_changes_to_an_approved_version(write: str, approved: Paytable) -> None:
    writes = orm_writes(approved)
    other = Paytable.objects.create(name="Other draft", basis="for_1", status="draft")
    writes["move a line to another paytable"] = lambda: PaytableLine.objects.filter(paytable=approved).update(
        paytable=other
    )
    assert "paytable_immutable" in refused(writes[write])
    assert_unchanged(approved)


def test_the_database_refuses_raw_sql_changes_to_an_approved_version(approved: Paytable) -> None:
    def sql(statement: str) -> Callable[[], object]:
        def run() -> None:
            with connection.cursor() as cursor:
                cursor.execute(statement, [approved.pk])

        return run

    refused(sql("UPDATE paytables_paytableline SET pays_numerator = 1 WHERE paytable_id = %s"))
    refused(sql("DELETE FROM paytables_paytableline WHERE paytable_id = %s"))
    refused(sql("UPDATE paytables_paytable SET basis = 'to_1' WHERE id = %s"))
    refused(sql("DELETE FROM paytables_paytable WHERE id = %s"))
    assert_unchanged(approved)


def test_status_transitions_of_an_approved_version_stay_possible(approved: Paytable) -> None:
    table = Table.objects.create(name="Table 1")
    paytable_mark_in_use(approved, in_use=True, table=table)
    paytable_mark_in_use(approved, in_use=False, table=table)
    Paytable.objects.filter(pk=approved.pk).update(status=PaytableStatus.RETIRED)
    assert Paytable.objects.get(pk=approved.pk).status == "retired"
    assert_unchanged(approved)


def test_a_draft_stays_freely_editable_in_the_database(draft: Paytable) -> None:
    PaytableLine.objects.filter(paytable=draft, hand="full_house").update(pays_numerator=8)
    Paytable.objects.filter(pk=draft.pk).update(basis="to_1")
    assert PaytableLine.objects.get(paytable=draft, hand="full_house").pays_numerator == 8


@pytest.mark.django_db(transaction=True)
def test_flush_still_resets_a_database_holding_approved_paytables(floor_user: User, second_floor_user: User) -> None:
    from django.contrib.auth.models import Group
    from django.core.management import call_command

    from paytables.services import paytable_approve, paytable_create_draft

    draft = paytable_create_draft(name="Jacks or Better 9/6", basis="for_1", lines=JACKS_9_6, actor=floor_user)
    paytable_approve(paytable=draft, approval_reference="GC-1", actor=second_floor_user)
    call_command("flush", interactive=False, verbosity=0)
    assert not Paytable.objects.exists()
    assert not PaytableLine.objects.exists()
    # post_migrate runs after the flush and puts the staff groups back.
    assert set(Group.objects.values_list("name", flat=True)) == {"floor", "dealer", "compliance", "count"}


def test_postgresql_triggers_refuse_changes_to_an_approved_version(require_postgres: None, approved: Paytable) -> None:
    writes = orm_writes(approved)
    for name in ("update a line", "delete a line", "add a line", "change the basis", "back to draft"):
        assert "paytable_immutable" in refused(writes[name]), name
    assert_unchanged(approved)


@pytest.mark.slow
def test_sqlite_triggers_refuse_changes_to_an_approved_version(tmp_path: Path) -> None:
    """A scratch SQLite database built by the real migrations, written to with plain SQL."""
    database = tmp_path / "scratch.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}"}
    env.pop("REDIS_URL", None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=settings.BASE_DIR, env=env, check=True
    )
    db = sqlite3.connect(database)
    # Django's connections define the audit app's flush bypass (on only while `flush` runs); do the same, off.
    db.create_function("audit_flush_bypass", 0, lambda: 0)
    insert_paytable = (
        "INSERT INTO paytables_paytable (name, version, basis, wild_ranks, status, approval_reference, created_at)"
        " VALUES (?, 1, 'for_1', '[]', ?, ?, '2026-01-01 00:00:00')"
    )
    with db:
        approved_id = db.execute(insert_paytable, ("Approved", "draft", "")).lastrowid
        draft_id = db.execute(insert_paytable, ("Draft", "draft", "")).lastrowid
        for paytable_id in (approved_id, draft_id):
            db.execute(
                "INSERT INTO paytables_paytableline (paytable_id, position, hand, min_rank, ranks, pays_numerator,"
                " pays_denominator) VALUES (?, 1, 'flush', '', '[]', 6, 1)",
                (paytable_id,),
            )
        db.execute(
            "UPDATE paytables_paytable SET status = 'approved', approval_reference = 'R' WHERE id = ?", (approved_id,)
        )
    attempts = [
        ("UPDATE paytables_paytableline SET pays_numerator = 5 WHERE paytable_id = ?", approved_id),
        ("DELETE FROM paytables_paytableline WHERE paytable_id = ?", approved_id),
        (
            "INSERT INTO paytables_paytableline (paytable_id, position, hand, min_rank, ranks, pays_numerator,"
            " pays_denominator) VALUES (?, 2, 'straight', '', '[]', 4, 1)",
            approved_id,
        ),
        ("UPDATE paytables_paytableline SET paytable_id = ? WHERE paytable_id = ?", (approved_id, draft_id)),
        ("UPDATE paytables_paytable SET basis = 'to_1' WHERE id = ?", approved_id),
        ("UPDATE paytables_paytable SET approval_reference = 'FORGED' WHERE id = ?", approved_id),
        ("UPDATE paytables_paytable SET status = 'draft' WHERE id = ?", approved_id),
        ("DELETE FROM paytables_paytable WHERE id = ?", approved_id),
    ]
    for statement, params in attempts:
        with pytest.raises(sqlite3.IntegrityError, match="paytable_immutable"), db:
            db.execute(statement, params if isinstance(params, tuple) else (params,))
    with db:
        db.execute("UPDATE paytables_paytable SET status = 'active' WHERE id = ?", (approved_id,))
        db.execute("UPDATE paytables_paytableline SET pays_numerator = 5 WHERE paytable_id = ?", (draft_id,))
    assert db.execute(
        "SELECT pays_numerator FROM paytables_paytableline WHERE paytable_id = ?", (approved_id,)
    ).fetchone() == (6,)
    assert db.execute("SELECT status, basis FROM paytables_paytable WHERE id = ?", (approved_id,)).fetchone() == (
        "active",
        "for_1",
    )
    db.close()

    # A client without the bypass function cannot delete anything approved (fails closed) ...
    bare = sqlite3.connect(database)
    with pytest.raises(sqlite3.OperationalError, match="audit_flush_bypass"), bare:
        bare.execute("DELETE FROM paytables_paytable WHERE id = ?", (approved_id,))
    bare.close()
    # ... and flush (bypass on) empties the tables.
    flushing = sqlite3.connect(database)
    flushing.create_function("audit_flush_bypass", 0, lambda: 1)
    with flushing:
        flushing.execute("DELETE FROM paytables_paytableline")
        flushing.execute("DELETE FROM paytables_paytable")
    assert flushing.execute("SELECT count(*) FROM paytables_paytable").fetchone() == (0,)
    flushing.close()
