"""The hash chain: events are sealed in commit order after commit, and verify_audit names the first broken link."""

from __future__ import annotations

import threading
import time

import pytest
from django.core.management import call_command
from django.db import connection, connections, transaction

from audit import tasks as audit_tasks
from audit.chain import GENESIS_HASH, HASHED_FIELDS, event_hash
from audit.models import AuditEvent, ChainVerification
from audit.services import SEAL_LOCK_KEY, audit_chain_seal, audit_chain_verify, audit_record
from audit.tasks import seal_chain
from tests.audit.actions import THING_TOUCH
from tests.audit.tampering import tamper


def _events(n: int, **extra: object) -> list[AuditEvent]:
    return [
        audit_record(action=THING_TOUCH, object_type="test.thing", object_id=i, **extra)  # type: ignore[arg-type]
        for i in range(n)
    ]


def _verify_exit(capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    try:
        call_command("verify_audit")
    except SystemExit as exc:
        return int(exc.code or 0), capsys.readouterr().err
    return 0, capsys.readouterr().out


@pytest.mark.django_db
def test_a_transaction_queues_one_sealing_job_that_chains_its_events(django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=False) as callbacks, transaction.atomic():
        events = _events(3)
    assert len(callbacks) == 1, "one sealing job per transaction, not one per event"
    seal_chain.apply()  # what the queued job runs
    sealed = list(AuditEvent.objects.filter(id__in=[e.id for e in events]).order_by("sequence"))
    assert [e.sequence for e in sealed] == [1, 2, 3]
    assert sealed[0].prev_hash == GENESIS_HASH
    assert [e.prev_hash for e in sealed[1:]] == [e.hash for e in sealed[:-1]]


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_seals_events_right_after_commit(celery_worker: object) -> None:
    with transaction.atomic():
        event = _events(1)[0]
    deadline = time.monotonic() + 15
    while AuditEvent.objects.get(id=event.id).sequence is None:
        assert time.monotonic() < deadline, "the worker did not seal the committed event"
        time.sleep(0.1)
    assert audit_chain_verify().ok


@pytest.mark.django_db
def test_each_hash_is_sha256_over_the_previous_hash_and_the_canonical_event() -> None:
    _events(2, reason="why", after={"amount_cents": 500, "cards": ["As", "Kd"]})
    audit_chain_seal()
    rows = list(AuditEvent.objects.order_by("sequence").values(*HASHED_FIELDS, "prev_hash", "hash"))
    assert rows[1]["hash"] == event_hash(rows[0]["hash"], rows[1])
    changed = dict(rows[1], reason="another reason")
    assert event_hash(rows[0]["hash"], changed) != rows[1]["hash"]


@pytest.mark.django_db
def test_rolled_back_events_never_reach_the_chain(django_capture_on_commit_callbacks) -> None:
    def failing_service() -> None:
        with transaction.atomic():
            _events(2)
            raise RuntimeError("business rule failed")

    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError):
        failing_service()
    assert not AuditEvent.objects.exists()


@pytest.mark.django_db
def test_verify_audit_passes_on_an_intact_chain(capsys: pytest.CaptureFixture[str]) -> None:
    _events(5)
    code, out = _verify_exit(capsys)
    assert code == 0
    assert "audit chain OK: 5 events verified" in out
    check = ChainVerification.objects.get()
    assert check.ok
    assert check.last_sequence == 5


@pytest.mark.django_db
def test_verify_audit_names_the_exact_row_edited_behind_the_trigger(capsys: pytest.CaptureFixture[str]) -> None:
    events = _events(6)
    audit_chain_seal()
    victim = AuditEvent.objects.get(id=events[3].id)
    tamper("UPDATE audit_auditevent SET reason = 'nothing happened' WHERE id = %s", [victim.id])
    code, err = _verify_exit(capsys)
    assert code == 1
    assert f"BROKEN at event id {victim.id} (sequence {victim.sequence})" in err
    assert "hash does not match" in err
    check = ChainVerification.objects.first()
    assert check is not None
    assert not check.ok
    assert check.first_broken_id == victim.id


@pytest.mark.django_db
def test_verify_audit_names_the_gap_left_by_a_deleted_row(capsys: pytest.CaptureFixture[str]) -> None:
    events = _events(4)
    audit_chain_seal()
    gone = AuditEvent.objects.get(id=events[1].id)
    tamper("DELETE FROM audit_auditevent WHERE id = %s", [gone.id])
    code, err = _verify_exit(capsys)
    assert code == 1
    assert f"sequence {gone.sequence} is missing" in err
    assert f"event id {events[2].id}" in err


@pytest.mark.django_db
def test_a_rewritten_chain_is_caught_against_the_last_verified_head(capsys: pytest.CaptureFixture[str]) -> None:
    events = _events(3)
    audit_chain_seal()
    assert audit_chain_verify().ok  # this check remembers the hash at sequence 3
    # An attacker edits an event and recomputes every hash after it, so each link is consistent again.
    tamper("UPDATE audit_auditevent SET reason = 'rewritten' WHERE id = %s", [events[2].id])
    row = AuditEvent.objects.filter(id=events[2].id).values(*HASHED_FIELDS).get()
    new_hash = event_hash(AuditEvent.objects.get(sequence=2).hash, row)
    tamper("UPDATE audit_auditevent SET hash = %s WHERE id = %s", [new_hash, events[2].id])
    code, err = _verify_exit(capsys)
    assert code == 1
    assert f"event id {events[2].id}" in err
    assert "verified earlier" in err


@pytest.mark.django_db
def test_a_cut_off_tail_is_caught_against_the_last_verified_head() -> None:
    events = _events(3)
    audit_chain_seal()
    assert audit_chain_verify().ok
    tamper("DELETE FROM audit_auditevent WHERE id = %s", [events[2].id])
    report = audit_chain_verify()
    assert not report.ok
    assert report.first_broken_sequence == 3
    assert "missing" in report.message


def _commit_in_thread(started: threading.Event, release: threading.Event, result: list[int]) -> None:
    try:
        with transaction.atomic():
            result.append(_events(1)[0].id)
            started.set()
            release.wait(10)
    finally:
        connections.close_all()


@pytest.mark.django_db(transaction=True)
def test_a_lower_id_that_commits_later_is_sealed_after_the_rows_already_committed(require_postgres: None) -> None:
    started, release, slow = threading.Event(), threading.Event(), []
    writer = threading.Thread(target=_commit_in_thread, args=(started, release, slow))
    writer.start()
    assert started.wait(10)
    fast = _events(1)[0]  # autocommit: a higher id, committed first
    assert fast.id > slow[0]
    audit_chain_seal()
    assert AuditEvent.objects.get(id=fast.id).sequence == 1
    assert not AuditEvent.objects.filter(id=slow[0]).exists(), "still uncommitted, so invisible to the sealer"
    release.set()
    writer.join(10)
    audit_chain_seal()
    assert AuditEvent.objects.get(id=slow[0]).sequence == 2
    assert audit_chain_verify().ok


def _hold_seal_lock(locked: threading.Event, release: threading.Event) -> None:
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [SEAL_LOCK_KEY])
            locked.set()
            release.wait(10)
    finally:
        connections.close_all()


@pytest.mark.django_db(transaction=True)
def test_business_transactions_do_not_wait_for_a_busy_sealer(require_postgres: None) -> None:
    locked, release = threading.Event(), threading.Event()
    sealer = threading.Thread(target=_hold_seal_lock, args=(locked, release))
    sealer.start()
    try:
        assert locked.wait(10)
        begun = time.monotonic()
        with transaction.atomic():
            _events(20)
        assert time.monotonic() - begun < 2.0, "a business transaction waited on the chain lock"
    finally:
        release.set()
        sealer.join(10)
    assert audit_chain_seal() == 20


@pytest.mark.django_db(transaction=True)
def test_a_seal_job_that_finds_the_chain_busy_tries_again_in_the_job_not_as_a_delayed_job(
    require_postgres: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A delayed job (a countdown) is held unacked by the worker, and kombu 5.7 crashes a worker holding one when
    # Redis goes away: the job waits in itself instead.
    events = _events(2)
    delayed: list[object] = []
    monkeypatch.setattr(seal_chain, "apply_async", lambda *args, **kwargs: delayed.append(kwargs))
    monkeypatch.setattr(audit_tasks, "SEAL_RETRY_PAUSE_SECONDS", 0.3)
    locked, release = threading.Event(), threading.Event()
    sealer = threading.Thread(target=_hold_seal_lock, args=(locked, release))
    sealer.start()
    try:
        assert locked.wait(10)
        threading.Timer(0.4, release.set).start()  # the other sealer finishes during the job's first pause
        assert seal_chain() == 2  # called as a worker calls it (not eagerly)
    finally:
        release.set()
        sealer.join(10)
    assert delayed == []
    assert all(AuditEvent.objects.get(id=event.id).sequence for event in events)


@pytest.mark.django_db(transaction=True)
def test_a_seal_job_gives_up_after_its_tries_and_leaves_the_events_to_the_straggler_job(
    require_postgres: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    events = _events(1)
    monkeypatch.setattr(audit_tasks, "SEAL_RETRY_PAUSE_SECONDS", 0.05)
    locked, release = threading.Event(), threading.Event()
    sealer = threading.Thread(target=_hold_seal_lock, args=(locked, release))
    sealer.start()
    try:
        assert locked.wait(10)
        assert seal_chain() == 0
    finally:
        release.set()
        sealer.join(10)
    assert AuditEvent.objects.get(id=events[0].id).sequence is None
    assert audit_tasks.seal_stragglers() == 1
