"""The chain's true state on every compliance screen (when, by whom, how many; amber when stale, red when broken), a
verification started from the screen as a job with progress, and the schedule running in the embedded demo."""

from __future__ import annotations

import datetime as dt
import time
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.test.utils import override_settings
from django.utils import timezone

from audit import daily_report, local_beat
from audit.chain_status import chain_status
from audit.models import ChainVerification, DailyReport, VerificationRun
from audit.services import audit_chain_seal, audit_chain_verify, audit_record, chain_verification_run
from audit.tasks import SCHEDULED, verify_chain
from tests.audit.helpers import assert_audited, last_event_id


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _chain_html(client: Client) -> str:
    html = client.get("/compliance/").content.decode()
    start = html.index('<section class="chain')
    return html[start : html.index("</section>", start)]


@pytest.mark.django_db
def test_never_verified_is_amber_and_says_so(compliance_user: User) -> None:
    section = _chain_html(_client(compliance_user))
    assert 'class="chain stale"' in section
    assert "Never verified" in section
    assert "manage.py" not in section  # it offers the button instead of a command line
    assert "Verify the chain now" in section


@pytest.mark.django_db
def test_a_fresh_check_is_green_and_names_who_checked_when_and_how_many(compliance_user: User) -> None:
    for _ in range(3):
        audit_record(action="seat_join")
    verify_chain.apply()
    section = _chain_html(_client(compliance_user))
    assert 'class="chain ok"' in section
    assert f"by {SCHEDULED}" in section
    assert "3 events verified" in section


@pytest.mark.django_db
@override_settings(AUDIT_VERIFY_SECONDS=600)
def test_a_check_older_than_twice_the_schedule_turns_amber() -> None:
    audit_record(action="seat_join")
    audit_chain_seal()
    audit_chain_verify(checked_by="verify_audit command")
    checked = ChainVerification.objects.get().checked_at
    assert chain_status(now=checked + dt.timedelta(seconds=1199)).level == "ok"
    stale = chain_status(now=checked + dt.timedelta(seconds=1201))
    assert (stale.level, stale.headline) == ("stale", "Verification overdue")


@pytest.mark.django_db
def test_a_failed_check_is_red(compliance_user: User) -> None:
    from tests.audit.tampering import tamper

    event = audit_record(action="seat_join")
    audit_chain_seal()
    tamper("UPDATE audit_auditevent SET reason = 'x' WHERE id = %s", [event.id])
    audit_chain_verify(checked_by="verify_audit command")
    section = _chain_html(_client(compliance_user))
    assert 'class="chain broken"' in section
    assert "by verify_audit command" in section


@pytest.mark.django_db
def test_the_command_names_itself_as_the_checker() -> None:
    audit_record(action="seat_join")
    call_command("verify_audit", verbosity=0)
    assert ChainVerification.objects.get().checked_by == "verify_audit command"


@pytest.mark.django_db
def test_compliance_starts_a_verification_from_the_screen_and_follows_its_progress(
    compliance_user: User, django_capture_on_commit_callbacks: object
) -> None:
    for _ in range(4):
        audit_record(action="seat_join")
    client = _client(compliance_user)
    since = last_event_id()
    response = client.post("/compliance/chain/verify/", {"next": "/compliance/exceptions/"})
    assert response.status_code == 302
    run = VerificationRun.objects.get()
    assert response["Location"] == f"/compliance/exceptions/?verify={run.token}"
    assert_audited("chain_verify_request", since_id=since, actor=compliance_user)
    page = client.get(response["Location"]).content.decode()
    assert f'data-url="/compliance/chain/verify/{run.token}/"' in page  # the progress bar polls this
    assert client.get(f"/compliance/chain/verify/{run.token}/").json()["done"] is False

    chain_verification_run(run.token)  # what the job does

    state = client.get(f"/compliance/chain/verify/{run.token}/").json()
    assert state["done"] is True
    assert state["checked"] == state["total"] >= 5
    assert "events verified" in state["text"]
    assert ChainVerification.objects.get().checked_by == "carl"
    assert "by carl" in _chain_html(client)


@pytest.mark.django_db
@pytest.mark.parametrize("persona", ["floor_user", "dealer_user"])
def test_only_compliance_starts_a_verification(request: pytest.FixtureRequest, persona: str) -> None:
    response = _client(request.getfixturevalue(persona)).post("/compliance/chain/verify/")
    assert response.status_code == 403
    assert not VerificationRun.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_runs_the_requested_verification(compliance_user: User, celery_worker: object) -> None:
    audit_record(action="seat_join")
    _client(compliance_user).post("/compliance/chain/verify/")
    deadline = time.monotonic() + 20
    while VerificationRun.objects.get().finished_at is None:
        assert time.monotonic() < deadline, "the worker did not run the verification"
        time.sleep(0.2)
    run = VerificationRun.objects.select_related("verification").get()
    assert run.verification is not None
    assert run.verification.ok
    assert run.verification.checked_by == "carl"


@pytest.mark.django_db
def test_the_in_process_schedule_runs_every_job_at_start_and_then_on_its_schedule() -> None:
    audit_record(action="seat_join")
    last_run: dict[str, dt.datetime] = {}
    start = timezone.now()
    # The morning report is due from an hour after the gaming day ends: the job reads the clock at midday, so the
    # test does not depend on the hour it runs at (between 06:00 and 07:00 nothing was due).
    midday = timezone.localtime(start).replace(hour=12)
    with (
        mock.patch("audit.tasks.report_due", side_effect=lambda: daily_report.report_due(midday)),
        mock.patch("audit.tasks.previous_gaming_day", return_value=daily_report.previous_gaming_day(midday)),
    ):
        ran = local_beat.run_due(last_run, now=start)
    assert {"audit-verify-chain", "audit-seal-stragglers", "audit-daily-compliance-report"} <= set(ran)
    assert ChainVerification.objects.get().checked_by == SCHEDULED
    assert DailyReport.objects.count() == 1
    assert local_beat.run_due(last_run, now=start + dt.timedelta(seconds=5)) == []
    later = local_beat.run_due(last_run, now=start + dt.timedelta(seconds=61))
    assert "audit-seal-stragglers" in later  # every minute
    assert "audit-verify-chain" not in later  # every 900 s


def test_the_in_process_schedule_runs_only_in_an_eager_runserver(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.argv", ["manage.py", "runserver", "--noreload"])
    with override_settings(CELERY_TASK_ALWAYS_EAGER=True, AUDIT_LOCAL_BEAT=True):
        assert local_beat.wanted()
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False, AUDIT_LOCAL_BEAT=True):
        assert not local_beat.wanted()  # a broker: celery beat runs the schedule (Procfile)
    monkeypatch.setattr("sys.argv", ["pytest"])
    with override_settings(CELERY_TASK_ALWAYS_EAGER=True, AUDIT_LOCAL_BEAT=True):
        assert not local_beat.wanted()
