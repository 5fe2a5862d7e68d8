"""One time zone, TIME_ZONE (default UTC), on every screen and in the exports; each screen says which it is."""

from __future__ import annotations

import csv
import datetime as dt
import io
import zoneinfo

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.utils import timezone

from audit.models import AuditEvent
from audit.services import audit_record

MALTA = "Europe/Malta"  # UTC+1 in winter, +2 in summer: a zone whose times differ from UTC


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def an_event() -> AuditEvent:
    return audit_record(action="seat_join", object_type="tables.seat", object_id="1")


def shown(moment: dt.datetime, zone: str) -> str:
    return moment.astimezone(zoneinfo.ZoneInfo(zone)).strftime("%Y-%m-%d %H:%M:%S")


@pytest.mark.parametrize("zone", ["UTC", MALTA])
def test_the_compliance_event_list_shows_times_in_the_zone_it_names(compliance_user: User, zone: str) -> None:
    event = an_event()
    with override_settings(TIME_ZONE=zone):
        page = signed_in(compliance_user).get("/compliance/").content.decode()
    assert f"Times are in {zone}" in page
    assert shown(event.occurred_at, zone) in page


@pytest.mark.parametrize("zone", ["UTC", MALTA])
def test_the_csv_export_writes_times_in_the_zone_with_their_offset(compliance_user: User, zone: str) -> None:
    event = an_event()
    with override_settings(TIME_ZONE=zone):
        response = signed_in(compliance_user).get("/compliance/export.csv?action=seat_join")
        content = b"".join(response.streaming_content).decode()  # the rows are written as they stream
    row = next(csv.DictReader(io.StringIO(content)))
    written = dt.datetime.fromisoformat(row["occurred_at"])
    assert written == event.occurred_at  # the same instant
    assert written.utcoffset() == event.occurred_at.astimezone(zoneinfo.ZoneInfo(zone)).utcoffset()


@pytest.mark.parametrize("zone", ["UTC", MALTA])
def test_the_dealer_tablet_names_its_time_zone(dealer_user: User, zone: str) -> None:
    with override_settings(TIME_ZONE=zone):
        page = signed_in(dealer_user).get("/tablet/").content.decode()
    assert f"Times in {zone}" in page


@pytest.mark.parametrize("zone", ["UTC", MALTA])
def test_the_admin_names_its_time_zone_and_shows_times_in_it(compliance_user: User, zone: str) -> None:
    event = an_event()
    with override_settings(TIME_ZONE=zone):
        page = signed_in(compliance_user).get("/admin/audit/auditevent/").content.decode()
        # The audit list writes its times to the second in one short shape ("2026-12-03 07:30:12").
        as_the_admin_writes_it = f"{timezone.localtime(event.occurred_at):%Y-%m-%d %H:%M:%S}"
    assert f"Times are in {zone}" in page
    assert as_the_admin_writes_it in page
