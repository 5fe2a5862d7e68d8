"""While a round waits for its settlement job, the tablet tells the dealer why, as soon as the job is late: the
job queue cannot be reached, or the job has not run within its lease; once it runs, the notice goes with the round."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.urls import reverse

from casino import broker
from outbox.models import OutboxJob
from tables.models import Round, Table
from tables.services.cards import rows_record
from tables.tasks import settle_round
from tests.tables.conftest import jacks_for_1, manual_table
from tests.tables.test_settlement import ROWS, to_drawing

__all__ = ["jacks_for_1", "manual_table"]  # fixtures

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_broker_state")]

UNREACHABLE = "redis://127.0.0.1:1/0"  # nothing listens on port 1: refused at once
QUEUE_DOWN = "Settlement is waiting: the job queue cannot be reached."
SENT_AGAIN = "Settlement is taking longer than it should: it has been sent again."


def _settling(table: Table, floor_user: User, capture: Any, *, sent: bool) -> Round:
    """Rows recorded; the settlement job sent (`sent`) or refused by a broker that is down."""
    rnd = to_drawing(table, floor_user)
    with mock.patch.object(broker, "send", return_value=sent), capture(execute=True):
        rows_record(round=rnd, rows=ROWS, actor=floor_user)
    return Round.objects.get(pk=rnd.pk)


def _screen(client: Client, table: Table) -> str:
    return client.get(reverse("tablet:table", args=[table.pk])).content.decode()


def _poll_token(page: str) -> str:
    return page.split("?v=", 1)[1].split('"', 1)[0]


def _poll(client: Client, table: Table, token: str) -> Any:
    return client.get(reverse("tablet:state", args=[table.pk]), {"v": token}, HTTP_HX_REQUEST="true")


@override_settings(REDIS_URL=UNREACHABLE, CELERY_TASK_ALWAYS_EAGER=False)
def test_a_round_whose_job_found_the_broker_down_says_the_queue_cannot_be_reached(
    manual_table: Table, floor_user: User, django_capture_on_commit_callbacks: Any
) -> None:
    rnd = _settling(manual_table, floor_user, django_capture_on_commit_callbacks, sent=False)
    client = Client()
    client.force_login(floor_user)
    page = _screen(client, manual_table)
    assert rnd.phase == "settling"
    assert QUEUE_DOWN in page
    assert "settles by itself as soon as the queue is back" in page
    # The settling line does not claim a queue holds the job: the outbox does, until the queue is back.
    assert "job held for the queue since" in page
    assert "job queued at" not in page
    # The poll keeps the notice up without redrawing the screen every second.
    assert _poll(client, manual_table, _poll_token(page)).status_code == 204


@override_settings(CELERY_TASK_ALWAYS_EAGER=False)
def test_a_job_on_time_shows_no_wait_and_one_past_its_lease_is_named_on_the_next_poll(
    manual_table: Table, floor_user: User, django_capture_on_commit_callbacks: Any, require_redis: str
) -> None:
    _settling(manual_table, floor_user, django_capture_on_commit_callbacks, sent=True)
    client = Client()
    client.force_login(floor_user)
    page = _screen(client, manual_table)
    assert QUEUE_DOWN not in page
    assert SENT_AGAIN not in page
    assert "job queued at" in page
    token = _poll_token(page)
    assert _poll(client, manual_table, token).status_code == 204

    # The copy sent was lost (a broker restarted without its queue, a worker killed): its lease runs out.
    job = OutboxJob.objects.get(task="tables.settle_round")
    OutboxJob.objects.filter(pk=job.pk).update(created_at=job.created_at - timedelta(seconds=job.lease_seconds))
    with mock.patch.object(broker, "send", return_value=True):  # the sweep the recovered broker may trigger
        late = _poll(client, manual_table, token)
    assert late.status_code == 200
    assert SENT_AGAIN in late.content.decode()

    # The worker runs it: the round is settled and the notice is gone.
    assert settle_round.apply(args=[job.args[0]], kwargs={"outbox_id": job.pk}).get() == "settled"
    settled = _poll(client, manual_table, _poll_token(late.content.decode())).content.decode()
    assert SENT_AGAIN not in settled
    assert "Settled" in settled
