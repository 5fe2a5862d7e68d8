"""An exception summary stored before nested money read as dollars ("Paid: seat 1: 125000") shows dollars on the
queue, the case's page and a daily report made now: the words are worked out again from the case's event when
read, and the stored summary is left as it was written."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from audit.daily_report import report_data
from audit.exception_scan import exceptions_scan
from audit.models import ExceptionCase
from audit.services import audit_chain_seal, audit_record

pytestmark = pytest.mark.django_db

OLD = "Round voided: misdeal (Paid: seat 1: 125000; Returned: seat 3: 300)"


def old_style_case() -> ExceptionCase:
    """A void case whose stored summary has bare cents, as the scan wrote it before money inside maps was dollars."""
    audit_record(action="round_void", round=9, reason="misdeal", after={"paid": {"1": 125_000}, "returned": {"3": 300}})
    audit_chain_seal()
    exceptions_scan()
    case = ExceptionCase.objects.get(kind="void")
    ExceptionCase.objects.filter(pk=case.pk).update(summary=OLD)
    return ExceptionCase.objects.get(pk=case.pk)


def test_the_queue_and_the_case_page_show_old_summaries_in_dollars(compliance_user: User) -> None:
    case = old_style_case()
    client = Client()
    client.force_login(compliance_user)
    for url in ("/compliance/exceptions/?status=all", f"/compliance/exceptions/{case.pk}/"):
        page = client.get(url).content.decode()
        assert "Paid: seat 1: $1,250.00" in page, url
        assert "Returned: seat 3: $3.00" in page, url
        assert "125000" not in page, url
    assert ExceptionCase.objects.get(pk=case.pk).summary == OLD  # nothing stored is rewritten


def test_a_daily_report_made_now_lists_the_void_in_dollars(compliance_user: User) -> None:
    case = old_style_case()
    voids = report_data(case.gaming_day)["voids"]
    assert [row["summary"] for row in voids] == ["Round voided: misdeal (Paid: seat 1: $1,250.00; Returned: seat 3: "
                                                 "$3.00)"]
