"""Nobody quietly rewrites the trail: chain checks are append-only, and good heads are signed outside the database."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction
from django.test import override_settings

from audit import db_guard
from audit.chain import GENESIS_HASH, HASHED_FIELDS, event_hash
from audit.models import AuditEvent, ChainVerification
from audit.services import audit_chain_seal, audit_chain_verify, audit_record
from audit.tasks import verify_chain
from tests.audit.actions import THING_TOUCH
from tests.audit.tampering import tamper

KEY = "test-anchor-key-kept-off-the-database-host"


@pytest.fixture
def anchor_file(tmp_path: Path) -> Any:
    path = tmp_path / "anchors.log"
    with override_settings(AUDIT_ANCHOR_KEY=KEY, AUDIT_ANCHOR_FILE=str(path)):
        yield path


def _events(n: int) -> list[AuditEvent]:
    return [audit_record(action=THING_TOUCH, object_type="test.thing", object_id=i) for i in range(n)]


def _verify(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    try:
        call_command("verify_audit", *args)
    except SystemExit as exc:
        captured = capsys.readouterr()
        return int(exc.code or 0), captured.err + captured.out
    return 0, capsys.readouterr().out


def _rewrite_history(event_id: int) -> None:
    """The attack: edit a sealed event, recompute every hash after it, and rewrite the stored chain heads."""
    tamper("UPDATE audit_auditevent SET reason = 'nothing happened' WHERE id = %s", [event_id])
    prev_hash = GENESIS_HASH
    for row in AuditEvent.objects.order_by("sequence").values(*HASHED_FIELDS):
        digest = event_hash(prev_hash, row)
        tamper("UPDATE audit_auditevent SET prev_hash = %s, hash = %s WHERE id = %s", [prev_hash, digest, row["id"]])
        prev_hash = digest
    for check in ChainVerification.objects.filter(last_sequence__isnull=False):
        new_head = AuditEvent.objects.get(sequence=check.last_sequence).hash
        tamper(
            "UPDATE audit_chainverification SET last_hash = %s WHERE id = %s",
            [new_head, check.id],
            table=db_guard.CHECK_TABLE,
        )


@pytest.mark.django_db
def test_stored_chain_checks_refuse_update_and_delete() -> None:
    _events(2)
    audit_chain_seal()
    report = audit_chain_verify()
    check = ChainVerification.objects.get()
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        ChainVerification.objects.filter(id=check.id).update(last_hash="0" * 64)
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        ChainVerification.objects.filter(id=check.id).delete()
    assert ChainVerification.objects.get().last_hash == report.last_hash


@pytest.mark.django_db
def test_postgres_refuses_truncating_the_chain_checks(require_postgres: None) -> None:
    audit_chain_verify()
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("TRUNCATE audit_chainverification")
    assert ChainVerification.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_flush_still_empties_the_chain_checks() -> None:
    audit_chain_verify()
    call_command("flush", interactive=False, verbosity=0)
    assert not ChainVerification.objects.exists()


@pytest.mark.django_db
def test_a_good_check_logs_and_appends_a_signed_anchor(anchor_file: Path, caplog: pytest.LogCaptureFixture) -> None:
    _events(3)
    audit_chain_seal()
    with caplog.at_level(logging.INFO, logger="audit.anchors"):
        report = audit_chain_verify()
    (line,) = anchor_file.read_text().splitlines()
    assert line.startswith(f"audit-anchor sequence=3 hash={report.last_hash} checked_at=")
    assert " mac=" in line
    assert line in caplog.text  # the log line is an anchor too
    assert KEY not in anchor_file.read_text() + caplog.text


@pytest.mark.django_db
def test_rewriting_events_chain_and_stored_heads_fails_against_the_signed_anchors(
    anchor_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events = _events(4)
    assert _verify(capsys)[0] == 0  # seals, verifies and signs the head (sequence 4)
    _rewrite_history(events[1].id)
    # What the attack achieves against the database alone: every link and the stored head agree again.
    code, output = _verify(capsys)
    assert code == 0, output
    # The signed anchor was made before the attack and cannot be re-signed without the key.
    code, output = _verify(capsys, "--anchors", str(anchor_file))
    assert code == 1
    assert "BROKEN" in output
    assert "anchor signed at" in output
    assert "chain rewritten" in output
    assert ChainVerification.objects.first().ok is False  # the failed check is stored too


@pytest.mark.django_db
def test_the_periodic_check_compares_with_the_anchor_file(anchor_file: Path) -> None:
    events = _events(3)
    assert verify_chain.apply().get()["ok"]
    _rewrite_history(events[0].id)
    result = verify_chain.apply().get()
    assert result["ok"] is False
    assert "chain rewritten" in result["message"]


@pytest.mark.django_db
def test_a_cut_tail_fails_against_the_signed_anchors(anchor_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    events = _events(3)
    assert _verify(capsys)[0] == 0
    tamper("DELETE FROM audit_auditevent WHERE id = %s", [events[2].id])
    tamper("DELETE FROM audit_chainverification", table=db_guard.CHECK_TABLE)
    code, output = _verify(capsys, "--no-seal", "--anchors", str(anchor_file))
    assert code == 1
    assert "events after sequence 2 are missing" in output


@pytest.mark.django_db
def test_a_forged_anchor_line_is_refused(anchor_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    events = _events(2)
    assert _verify(capsys)[0] == 0
    _rewrite_history(events[0].id)
    # The attacker also rewrites the anchor file, but cannot compute the MAC of the new head.
    new_head = AuditEvent.objects.get(sequence=2).hash
    text = anchor_file.read_text()
    anchor_file.write_text(text.replace(text.split("hash=")[1].split(" ")[0], new_head))
    code, output = _verify(capsys, "--anchors", str(anchor_file))
    assert code == 1
    assert "signature does not match" in output


@pytest.mark.django_db
def test_anchors_in_a_log_file_are_found_among_other_lines(
    anchor_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _events(2)
    assert _verify(capsys)[0] == 0
    log = tmp_path / "web.log"
    log.write_text(f"2026-01-01 INFO something else\n2026-01-01 INFO audit chain head: {anchor_file.read_text()}")
    code, output = _verify(capsys, "--anchors", str(log))
    assert code == 0, output
    assert "1 signed anchors match" in output


@pytest.mark.django_db
def test_checking_anchors_needs_the_key(anchor_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _events(1)
    assert _verify(capsys)[0] == 0
    with override_settings(AUDIT_ANCHOR_KEY=""):
        code, output = _verify(capsys, "--anchors", str(anchor_file))
    assert code == 1
    assert "AUDIT_ANCHOR_KEY is not set" in output


@pytest.mark.django_db
def test_an_anchor_signed_with_another_key_is_refused(anchor_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _events(1)
    assert _verify(capsys)[0] == 0
    with override_settings(AUDIT_ANCHOR_KEY="another-key"):
        code, output = _verify(capsys, "--anchors", str(anchor_file))
    assert code == 1
    assert "signature does not match" in output
