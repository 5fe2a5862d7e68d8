"""A queue per kind of job: Celery's own router sends each task to its kind's queue; a bare worker consumes all."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from casino.celery import app
from casino.queues import ALL_QUEUES, DEFAULT_QUEUE, queue_for


def routed_queue(task_name: str) -> str:
    """The queue Celery itself would publish `task_name` to (through task_routes)."""
    task = app.tasks.get(task_name)
    route = app.amqp.router.route({}, task_name, (), {}, task)
    return str(route["queue"].name)


@pytest.fixture
def private_default_queue() -> Iterator[str]:
    """What the celery_worker fixture does: a default queue of its own for the test's worker."""
    previous = app.conf.task_default_queue
    app.conf.task_default_queue = "test-private"
    try:
        yield "test-private"
    finally:
        app.conf.task_default_queue = previous


@pytest.mark.parametrize(
    ("task_name", "queue"),
    [
        ("tables.settle_round", "settlement"),
        ("audit.tasks.seal_chain", "audit"),
        ("audit.tasks.seal_stragglers", "audit"),
        ("audit.tasks.verify_chain", "audit"),
        ("paytables.analyze_paytable", "analysis"),
        ("reports.shift_summary", "reports"),
        ("casino.ping", DEFAULT_QUEUE),
    ],
)
def test_each_kind_of_job_is_published_to_its_own_queue(task_name: str, queue: str) -> None:
    assert queue_for(task_name) == queue
    assert routed_queue(task_name) == queue


def test_every_registered_task_has_a_declared_queue() -> None:
    app.loader.import_default_modules()
    for name in app.tasks:
        if not name.startswith("celery."):
            assert routed_queue(name) in ALL_QUEUES, name


def test_a_worker_started_without_queues_consumes_every_kind() -> None:
    assert {queue.name for queue in app.conf.task_queues} == set(ALL_QUEUES)


def test_a_private_default_queue_keeps_every_job_on_it(private_default_queue: str) -> None:
    assert routed_queue("tables.settle_round") == private_default_queue
    assert routed_queue("paytables.analyze_paytable") == private_default_queue


def test_an_explicit_queue_wins_over_the_kind() -> None:
    route = app.amqp.router.route({"queue": "reports"}, "casino.ping", (), {}, app.tasks["casino.ping"])
    assert route["queue"].name == "reports"
