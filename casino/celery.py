"""Celery application, configured from Django settings (start workers with `celery -A casino.celery:app worker`)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

app = Celery("casino")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="casino.ping")
def ping() -> str:
    """Answer 'pong': proves a worker consumes the broker (health checks, tests)."""
    return "pong"
