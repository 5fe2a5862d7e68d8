"""After-commit sealing jobs are coalesced: while one is queued and not started, further commits queue none."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import transaction
from django.test import override_settings

from audit import seal_queue
from audit.models import AuditEvent
from audit.services import audit_event, audit_record, audit_record_many
from audit.tasks import seal_chain
from casino.celery import app
from tests.audit.actions import THING_TOUCH


@pytest.fixture
def seal_queue_name(require_redis: str) -> Iterator[tuple[Any, str]]:
    """A queue of its own with no worker on it, so the test sees exactly the jobs its commits queue."""
    import redis

    client = redis.Redis.from_url(require_redis)
    queue = f"test-seal-{uuid.uuid4().hex[:8]}"
    prefix = app.conf.broker_transport_options.get("global_keyprefix", "")  # CELERY_KEY_PREFIX (CI sets one)
    previous = app.conf.task_default_queue
    app.conf.task_default_queue = queue
    try:
        yield client, prefix + queue  # the queue's list as Redis names it
    finally:
        app.conf.task_default_queue = previous
        lists = [prefix + queue, *(f"{prefix}{queue}\x06\x16{step}" for step in (3, 6, 9))]  # kombu's priority lists
        client.delete(*lists, f"{prefix}_kombu.binding.{queue}", f"{prefix}_kombu.binding_permanent.{queue}")
        for key in client.keys(f"audit:seal-pending:*:{queue}"):
            client.delete(key)


def _queued_jobs(client: Any, queue: str) -> list[dict[str, Any]]:
    lists = [queue, *(f"{queue}\x06\x16{step}" for step in (3, 6, 9))]
    messages = [json.loads(raw) for name in lists for raw in client.lrange(name, 0, -1)]
    return [m for m in messages if m["headers"]["task"] == "audit.tasks.seal_chain"]


def _run(job: dict[str, Any]) -> None:
    """What a worker does with the queued message: run the job with the arguments it was sent."""
    import base64

    args, kwargs, _ = json.loads(base64.b64decode(job["body"]))
    seal_chain.apply(args=args, kwargs=kwargs)


def _commit_event(n: int) -> AuditEvent:
    with transaction.atomic():
        return audit_record(action=THING_TOUCH, object_type="test.thing", object_id=n)


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_commits_while_a_sealing_job_is_pending_queue_no_more_and_that_job_seals_them_all(
    seal_queue_name: tuple[Any, str],
) -> None:
    client, queue = seal_queue_name
    events = [_commit_event(n) for n in range(5)]
    jobs = _queued_jobs(client, queue)
    assert len(jobs) == 1, "one pending job serves every commit until it starts"
    _run(jobs[0])
    assert all(AuditEvent.objects.get(id=e.id).sequence is not None for e in events)


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_commit_after_the_pending_job_started_queues_a_job_of_its_own(seal_queue_name: tuple[Any, str]) -> None:
    client, queue = seal_queue_name
    _commit_event(1)
    first = _queued_jobs(client, queue)
    assert len(first) == 1
    client.delete(queue, *(f"{queue}\x06\x16{step}" for step in (3, 6, 9)))  # a worker took the message
    _run(first[0])  # the job has started (and finished): the next commit cannot count on it
    late = _commit_event(2)
    second = _queued_jobs(client, queue)
    assert len(second) == 1, "a commit after the pending job started must queue its own"
    _run(second[0])
    assert AuditEvent.objects.get(id=late.id).sequence is not None


@pytest.mark.django_db
def test_a_batch_of_events_is_written_in_order_in_the_callers_transaction() -> None:
    def write_then_fail() -> None:
        with transaction.atomic():
            audit_record_many([audit_event(action=THING_TOUCH, object_type="test.thing", object_id=1)])
            raise RuntimeError("roll back")

    with pytest.raises(RuntimeError):
        write_then_fail()
    assert not AuditEvent.objects.filter(action="thing_touch").exists()
    saved = audit_record_many(
        [audit_event(action=THING_TOUCH, object_type="test.thing", object_id=n, seat_number=n) for n in range(3)]
    )
    rows = list(AuditEvent.objects.filter(action="thing_touch").order_by("id").values_list("id", "seat_number"))
    assert rows == [(e.id, n) for n, e in enumerate(saved)]


def test_redis_down_queues_the_seal_job_and_says_so_in_one_line(caplog: pytest.LogCaptureFixture) -> None:
    saved, seal_queue._client = seal_queue._client, None
    try:
        with (
            override_settings(REDIS_URL="redis://127.0.0.1:1/0", CELERY_TASK_ALWAYS_EAGER=False),
            caplog.at_level("WARNING", logger="audit.seal_queue"),
        ):
            assert seal_queue.claim("audit") == (True, "")  # queue a job, as if none were pending
    finally:
        seal_queue._client = saved
    [record] = caplog.records
    assert record.exc_info is None  # no traceback on every audited write while Redis is down
    assert "could not check for a pending seal job (ConnectionError: " in record.getMessage()
