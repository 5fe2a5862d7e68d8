"""The daily compliance summary (issue 16 item 5): produced by the morning job for the gaming day that ended, kept,
and shown as a page, a CSV and a PDF with exceptions by kind, voids, large payouts and the chain's state."""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Iterator
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.test.utils import override_settings
from django.utils import timezone

from audit import daily_report
from audit.daily_report import previous_gaming_day
from audit.exception_scan import exceptions_scan
from audit.models import DailyReport
from audit.services import audit_chain_seal, audit_record
from audit.tasks import daily_compliance_report, verify_chain
from floor.gaming_day import gaming_day
from tests.audit.helpers import assert_audited


@pytest.fixture
def morning_job_at_midday() -> Iterator[None]:
    """The job reads the clock: at midday the ended day's report is due, whatever hour the tests run at (between
    the gaming day's start and an hour later it is not due yet, by design)."""
    midday = timezone.localtime(timezone.now()).replace(hour=12)
    with (
        mock.patch("audit.tasks.report_due", side_effect=lambda: daily_report.report_due(midday)),
        mock.patch("audit.tasks.previous_gaming_day", return_value=daily_report.previous_gaming_day(midday)),
    ):
        yield


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
@override_settings(TIME_ZONE="America/Los_Angeles", FLOOR_GAMING_DAY_START_HOUR=6)
def test_the_gaming_day_is_the_floors() -> None:
    # 05:30 local on 2 December still belongs to the gaming day of 1 December (it starts at 06:00).
    moment = dt.datetime(2026, 12, 2, 5, 30, tzinfo=timezone.get_current_timezone())
    assert previous_gaming_day(moment) == gaming_day(moment) - dt.timedelta(days=1) == dt.date(2026, 11, 30)


@pytest.mark.django_db
def test_the_morning_job_produces_and_keeps_the_report_of_the_day(compliance_user: User) -> None:
    audit_record(action="round_void", round=5, reason="misdeal")
    audit_record(action="round_void", round=6, reason="dealer error")
    audit_record(action="user_locked_out", object_repr="mallory")
    audit_chain_seal()
    exceptions_scan()
    verify_chain.apply()
    today = gaming_day(timezone.now())
    daily_compliance_report.apply(kwargs={"day": today.isoformat()})
    report = DailyReport.objects.get()
    assert report.gaming_day == today
    assert report.created_by == "scheduled job"
    assert_audited("daily_report_create", obj=report)
    kinds = {row["kind"]: row["count"] for row in report.data["exceptions_by_kind"]}
    assert kinds["Void"] == 2
    assert kinds["Repeated failed sign-ins"] == 1
    assert report.data["voids_total"] == 2
    assert report.data["chain"]["state"] == "Verified"

    daily_compliance_report.apply(kwargs={"day": today.isoformat()})
    assert DailyReport.objects.count() == 1  # kept as produced, not made again

    client = _client(compliance_user)
    listing = client.get("/compliance/reports/").content.decode()
    assert today.isoformat() in listing
    page = client.get(f"/compliance/reports/{today.isoformat()}/").content.decode()
    assert "misdeal" in page
    assert "dealer error" in page
    rows = list(csv.reader(io.StringIO(client.get(f"/compliance/reports/{today.isoformat()}/csv/").content.decode())))
    assert ["Void", "2"] in rows
    assert any("misdeal" in cell for row in rows for cell in row)
    pdf = client.get(f"/compliance/reports/{today.isoformat()}/pdf/")
    assert pdf["Content-Type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF-")
    assert len(pdf.content) > 1000


@pytest.mark.django_db
@pytest.mark.usefixtures("morning_job_at_midday")
def test_the_job_reports_on_yesterdays_gaming_day_by_default() -> None:
    daily_compliance_report.apply()
    midday = timezone.localtime(timezone.now()).replace(hour=12)
    assert DailyReport.objects.get().gaming_day == gaming_day(midday) - dt.timedelta(days=1)


@pytest.mark.django_db
@pytest.mark.usefixtures("morning_job_at_midday")
@pytest.mark.parametrize("persona", ["floor_user", "dealer_user"])
def test_only_compliance_reads_the_reports(request: pytest.FixtureRequest, persona: str) -> None:
    daily_compliance_report.apply()
    day = DailyReport.objects.get().gaming_day.isoformat()
    client = _client(request.getfixturevalue(persona))
    for url in ("/compliance/reports/", f"/compliance/reports/{day}/", f"/compliance/reports/{day}/pdf/"):
        assert client.get(url).status_code == 403
