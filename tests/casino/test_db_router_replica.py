"""Against a real streaming replica: compliance and the floor reports read it, services never do, and a lagging or
dead replica is skipped.

Replay on the replica is paused so that it visibly lacks what the primary has just written: a page that does not
show a fresh event read the replica; one that shows it read the primary.
"""

from __future__ import annotations

import csv
import io
import socket
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.db import transaction
from django.test import Client, override_settings

from audit.models import AuditEvent
from audit.services import audit_record
from casino.db_router import REPLICA, replica_lag_seconds, stale_reads_allowed
from paytables.models import Paytable, PaytableLine
from paytables.services import paytable_clone
from tables.models import CardSource
from tests.audit.actions import THING_TOUCH
from tests.casino.replica_support import Replica, replica_alias, require_replica_url
from tests.floor.conftest import REPORT_DAY, summary_row
from tests.tables.conftest import HOUSE_TO_1, make_paytable, open_table

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _event(marker: str) -> AuditEvent:
    with transaction.atomic():
        return audit_record(action=THING_TOUCH, object_type="tests.probe", object_repr=marker)


@pytest.fixture
def replica(require_postgres: None) -> Iterator[Replica]:
    control = Replica(require_replica_url())
    control.resume()  # a test stopped half-way must not leave the next one paused
    with replica_alias(control.host, control.port), override_settings(DATABASE_REPLICA_CHECK_SECONDS=0):
        try:
            yield control
        finally:
            control.resume()


@pytest.fixture
def paused(replica: Replica) -> tuple[Replica, str, str]:
    """The replica has an older event but not the fresh one written after its replay was paused."""
    older, fresh = f"older-{uuid.uuid4().hex[:8]}", f"fresh-{uuid.uuid4().hex[:8]}"
    _event(older)
    replica.wait_replayed()
    replica.pause()
    _event(fresh)
    replica.wait_received(replica.primary_lsn())  # it has the WAL, it only has not applied it
    return replica, older, fresh


@pytest.fixture
def compliance_client(compliance_user: User) -> Client:
    client = Client()
    client.force_login(compliance_user)
    return client


def _listed(client: Client, marker: str) -> bool:
    """Does the compliance event list show the probe event `marker` (searched for by its text)?"""
    response = client.get("/compliance/", {"q": marker})
    assert response.status_code == 200
    return f'<span class="object">{marker}</span>' in response.content.decode()


def test_compliance_screens_read_the_replica(paused: Any, compliance_client: Client) -> None:
    _, older, fresh = paused
    with override_settings(DATABASE_REPLICA_MAX_LAG_SECONDS=600):
        assert _listed(compliance_client, older)
        assert not _listed(compliance_client, fresh)


def test_the_compliance_api_and_csv_export_read_the_replica(paused: Any, compliance_client: Client) -> None:
    _, older, fresh = paused
    with override_settings(DATABASE_REPLICA_MAX_LAG_SECONDS=600):
        api = compliance_client.get("/api/v1/audit/events/", {"q": fresh}).json()
        exported = b"".join(compliance_client.get("/compliance/export.csv").streaming_content).decode()
    assert api["results"] == []
    assert older in exported
    assert fresh not in exported
    # The export's own audit event is a write: it went to the primary, replay or not.
    assert AuditEvent.objects.filter(action="audit_export").exists()


def test_a_lagging_replica_is_skipped_until_it_catches_up(paused: Any, compliance_client: Client) -> None:
    replica, _, fresh = paused
    with override_settings(DATABASE_REPLICA_MAX_LAG_SECONDS=0.3):
        deadline = time.monotonic() + 10
        while replica_lag_seconds() <= 0.3:
            assert time.monotonic() < deadline, "the paused replica never reported lag"
            time.sleep(0.1)
        assert _listed(compliance_client, fresh)  # too far behind: the primary answered
    replica.resume()
    replica.wait_replayed()
    with override_settings(DATABASE_REPLICA_MAX_LAG_SECONDS=0.3):
        # Other writers may share the primary (another run on this server): "caught up" is within the bound, soon.
        deadline = time.monotonic() + 10
        while replica_lag_seconds() > 0.3:
            assert time.monotonic() < deadline, "the resumed replica never caught up"
            time.sleep(0.1)
        assert _listed(compliance_client, fresh)  # caught up: the replica answers again


def test_a_replica_that_is_down_falls_back_to_the_primary(replica: Replica, compliance_client: Client) -> None:
    fresh = f"fresh-{uuid.uuid4().hex[:8]}"
    _event(fresh)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]
    with replica_alias("127.0.0.1", closed_port), override_settings(DATABASE_REPLICA_CHECK_SECONDS=60):
        began = time.monotonic()
        assert _listed(compliance_client, fresh)
        with stale_reads_allowed() as alias:
            assert alias == "default"
        assert time.monotonic() - began < 5  # the verdict is kept: one failed connection, not one a request


def test_services_read_and_write_the_primary_inside_a_stale_block(paused: Any, floor_user: User) -> None:
    replica, _, _ = paused
    draft = Paytable.objects.create(name=f"Fresh {uuid.uuid4().hex[:6]}", version=1, basis="for_1", status="draft")
    PaytableLine.objects.create(paytable=draft, position=1, hand="royal_flush", pays_numerator=800)
    replica.wait_received(replica.primary_lsn())
    with override_settings(DATABASE_REPLICA_MAX_LAG_SECONDS=600), stale_reads_allowed() as alias:
        assert alias == REPLICA
        # A plain read in the block uses the (paused) replica, which has not seen the draft...
        assert not Paytable.objects.filter(pk=draft.pk).exists()
        # ...but a service runs in its transaction on the primary: it finds the draft and writes its clone.
        clone = paytable_clone(paytable=draft, actor=floor_user)
        # After a write, the block reads its own writes (the primary).
        assert Paytable.objects.filter(pk=clone.pk).exists()
    assert Paytable.objects.get(pk=clone.pk).cloned_from_id == draft.pk


def test_floor_reports_read_the_replica_once_the_role_is_checked_on_the_primary(
    replica: Replica, floor_user: User, dealer_user: User
) -> None:
    paytable = make_paytable(HOUSE_TO_1, floor_user)
    early = open_table("Replayed", CardSource.RNG, paytable, floor_user, dealer_user)
    late = open_table("Not yet replayed", CardSource.RNG, paytable, floor_user, dealer_user)
    summary_row(early, paytable, rounds=100, handle=500_000, win=20_000, squares=100 * 5_000**2)
    reader = User.objects.create_user(f"reader-{uuid.uuid4().hex[:8]}")
    replica.wait_replayed()
    replica.pause()
    # On the primary only: the summary job wrote the second table's rows, and the reader became a floor supervisor.
    summary_row(late, paytable, rounds=40, handle=200_000, win=5_000, squares=40 * 5_000**2)
    reader.groups.add(Group.objects.get(name="floor"))
    replica.wait_received(replica.primary_lsn())
    browser = Client()
    browser.force_login(reader)
    days = {"from": REPORT_DAY, "to": REPORT_DAY}
    with override_settings(DATABASE_REPLICA_MAX_LAG_SECONDS=600):
        # Signed in as the page's charts are: the API loads the user (and so the role) afresh for the request.
        api = browser.get("/api/v1/reports/tables/", days)
        page = browser.get("/floor/reports/", days)
        export = browser.get("/floor/reports/export.csv", {**days, "report": "tables"})
        exported = b"".join(export.streaming_content).decode()  # type: ignore[attr-defined]
    # The role was granted after the pause: had a screen checked it on the replica, it would have refused.
    assert (api.status_code, page.status_code, export.status_code) == (200, 200, 200)
    # The figures are the replica's: the second table's rows are not there yet.
    assert [(row["table"], row["rounds"]) for row in api.json()["rows"]] == [("Replayed", 100)]
    assert '<th scope="row">Replayed</th>' in page.content.decode()
    assert '<th scope="row">Not yet replayed</th>' not in page.content.decode()
    assert [row[1:3] for row in csv.reader(io.StringIO(exported))][1:] == [["Replayed", "100"], ["Total", "100"]]
    replica.resume()
    replica.wait_replayed()
    with override_settings(DATABASE_REPLICA_MAX_LAG_SECONDS=600):
        caught_up = browser.get("/api/v1/reports/tables/", days).json()
    assert {row["table"]: row["rounds"] for row in caught_up["rows"]} == {"Replayed": 100, "Not yet replayed": 40}
