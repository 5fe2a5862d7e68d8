"""Who, from where and in which request: middleware, sign-in hooks, Celery correlation and commands."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import transaction
from django.test import Client

from audit import receivers
from audit.context import Actor, acting_as, current_actor
from audit.models import AuditEvent
from audit.services import audit_record
from casino.celery import app
from tests.audit.actions import THING_FROM_COMMAND, THING_FROM_WORKER, THING_ONE, THING_TWO


@pytest.mark.django_db
def test_a_sign_in_is_recorded_with_the_request_id_and_client_address(floor_user: User, assert_audited: Any) -> None:
    client = Client(REMOTE_ADDR="10.1.2.3")
    response = client.post(
        "/accounts/login/", {"username": "fiona", "password": "pw-fiona"}, HTTP_X_REQUEST_ID="req-42"
    )
    assert response.status_code == 302
    assert response["X-Request-ID"] == "req-42"
    event = assert_audited("user_login", actor=floor_user, obj=floor_user)
    assert (event.correlation_id, event.client_address) == ("req-42", "10.1.2.3")
    assert (event.actor_role, event.actor_kind) == ("floor", "user")


@pytest.mark.django_db
def test_a_sign_out_is_recorded(floor_user: User, assert_audited: Any) -> None:
    client = Client()
    client.force_login(floor_user)
    client.post("/accounts/logout/")
    assert_audited("user_logout", actor=floor_user)


@pytest.mark.django_db
def test_a_caller_request_id_that_is_not_an_id_is_replaced(floor_user: User) -> None:
    response = Client().get("/healthz", HTTP_X_REQUEST_ID="bad id\r\nInjected: yes")
    assert response["X-Request-ID"] != "bad id\r\nInjected: yes"
    assert len(response["X-Request-ID"]) == 32


@pytest.mark.django_db
def test_every_event_of_one_request_shares_its_correlation_id(floor_user: User) -> None:
    with acting_as(Actor(user=floor_user, kind="user", correlation_id="corr-1")), transaction.atomic():
        first = audit_record(action=THING_ONE)
        second = audit_record(action=THING_TWO)
    assert first.correlation_id == second.correlation_id == "corr-1"
    assert first.actor_username == "fiona"


@pytest.mark.django_db
def test_events_outside_any_request_are_written_as_the_system() -> None:
    event = audit_record(action=THING_ONE)
    assert (event.actor_kind, event.actor_username, event.actor_id) == ("system", "system", None)
    assert event.correlation_id


class _RecordingCommand(BaseCommand):
    def handle(self, *args: Any, **options: Any) -> None:
        with transaction.atomic():
            audit_record(action=THING_FROM_COMMAND)


@pytest.mark.django_db
def test_management_commands_act_as_the_system() -> None:
    call_command(_RecordingCommand())
    event = AuditEvent.objects.get(action="thing_from_command")
    assert (event.actor_kind, event.actor_id) == ("system", None)


def test_a_queued_task_carries_the_correlation_id_of_what_queued_it() -> None:
    headers: dict[str, Any] = {}
    with acting_as(Actor(kind="user", correlation_id="req-77")):
        receivers.on_before_task_publish(headers=headers)
    assert headers[receivers.CORRELATION_HEADER] == "req-77"
    # On the worker the task request exposes the message headers as attributes.
    task = SimpleNamespace(name="tables.tasks.settle_round", request=SimpleNamespace(audit_correlation_id="req-77"))
    receivers.on_task_prerun(task_id="t1", task=task)
    try:
        actor = current_actor()
        assert (actor.kind, actor.correlation_id) == ("worker", "req-77")
        assert actor.name == "celery:tables.tasks.settle_round"
    finally:
        receivers.on_task_postrun(task_id="t1")
    assert current_actor().correlation_id != "req-77"


@app.task(name="tests.audit.record_event")
def record_event_task() -> int:
    """A task that writes one event, as a service called from a task would."""
    with transaction.atomic():
        return audit_record(action=THING_FROM_WORKER).id


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_task_runs_under_the_queuing_requests_correlation_id(celery_worker: Any) -> None:
    with acting_as(Actor(kind="user", correlation_id="req-worker-1")):
        result = record_event_task.delay()
    event = AuditEvent.objects.get(id=result.get(timeout=20))
    assert (event.correlation_id, event.actor_kind) == ("req-worker-1", "worker")
    assert event.actor_username == "celery:tests.audit.record_event"


@pytest.mark.django_db
def test_behind_our_proxy_the_client_address_is_the_hop_the_proxy_added(floor_user: User, settings: Any) -> None:
    settings.AUDIT_TRUST_X_FORWARDED_FOR = True
    Client(REMOTE_ADDR="127.0.0.1").post(
        "/accounts/login/",
        {"username": "fiona", "password": "pw-fiona"},
        HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.9",  # the first hop is whatever the client claimed
    )
    assert AuditEvent.objects.get(action="user_login").client_address == "203.0.113.9"
