"""Celery application, configured from Django settings (start workers with `celery -A casino.celery:app worker`)."""

import os

from celery import Celery
from kombu import Queue

from casino.queues import ALL_QUEUES, DEFAULT_QUEUE, route_task

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

app = Celery("casino")
app.config_from_object("django.conf:settings", namespace="CELERY")
# One queue per kind of job (casino/queues.py): a worker started without -Q consumes all of them; production
# starts one worker per kind (deploy/) so settlement never waits behind an analysis or a report.
app.conf.task_default_queue = DEFAULT_QUEUE
app.conf.task_queues = tuple(Queue(name, routing_key=name) for name in ALL_QUEUES)
app.conf.task_routes = (route_task,)
app.autodiscover_tasks()


@app.task(name="casino.ping")
def ping() -> str:
    """Answer 'pong': proves a worker consumes the broker (health checks, tests)."""
    return "pong"
