"""Shared fixtures: staff personas, service requirements (REQUIRE_SERVICES), a real Celery worker and approved
paytables from paytables/standard/."""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from typing import Any

# Playwright's sync fixtures run an event loop in this thread; Django would then refuse every ORM call.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
os.environ.setdefault("TESTING", "true")

import hypothesis
import pytest
from django.conf import settings
from django.contrib.auth.models import Group, Permission, User
from django.db import connection

from casino import broker
from tables.roles import sync_role_permissions
from tests.paytables.factories import make_paytable

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES", "") == "1"

# CI replays the same examples on every run so a landing is never decided by chance; local runs keep exploring.
hypothesis.settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI", "").lower() == "true":
    hypothesis.settings.load_profile("ci")


@pytest.fixture(scope="session", autouse=True)
def quick_password_hashing() -> Iterator[None]:
    """Every test hashes passwords with tests.hashers.QuickPBKDF2PasswordHasher (production's algorithm, fewer
    iterations); production's hashers stay listed after it, so any hash they made still verifies."""
    from django.test import override_settings

    with override_settings(PASSWORD_HASHERS=["tests.hashers.QuickPBKDF2PasswordHasher", *settings.PASSWORD_HASHERS]):
        yield


@pytest.fixture(autouse=True)
def broker_memory_per_test() -> Iterator[None]:
    """A send that fails marks the broker down in this process for BROKER_DOWN_SECONDS (casino/broker.py): a test
    that fakes a failed send must not leave the next few seconds of other tests believing Redis is gone."""
    yield
    from casino import broker

    broker._state.update(down_until=0.0, up_until=0.0, was_down=False)


def _missing(service: str, why: str) -> None:
    """A test that needs a service fails in CI (REQUIRE_SERVICES=1) and may skip on a laptop."""
    message = f"{service} is required for this test but {why}"
    if REQUIRE_SERVICES:
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


@pytest.fixture
def require_postgres(db: None) -> None:
    if connection.vendor != "postgresql":
        _missing("PostgreSQL", "DATABASE_URL does not point at PostgreSQL")


@pytest.fixture
def require_redis() -> str:
    if not settings.REDIS_URL:
        _missing("Redis", "REDIS_URL is not set")
    import redis

    try:
        redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        _missing("Redis", f"it does not answer at {settings.REDIS_URL}: {exc}")
    return str(settings.REDIS_URL)


@pytest.fixture
def celery_worker(require_redis: str) -> Iterator[Any]:
    """A real Celery worker thread on Redis, on a queue of its own so no other worker steals its tasks."""
    from celery.contrib.testing.worker import start_worker

    from casino.celery import app

    queue = f"test-{uuid.uuid4().hex[:8]}"
    previous = app.conf.task_default_queue
    app.conf.task_default_queue = queue
    try:
        with start_worker(app, pool="solo", perform_ping_check=False, queues=[queue], loglevel="WARNING") as worker:
            yield worker
    finally:
        app.conf.task_default_queue = previous


def _persona(username: str, role: str | None, **extra: Any) -> User:
    user = User.objects.create_user(username=username, password="pw-" + username, **extra)
    if role:
        if not Group.objects.filter(name=role).exists():
            # A transactional test's flush can leave the groups out; restore them exactly as migrate does.
            sync_role_permissions(Group, Permission)
        user.groups.add(Group.objects.get(name=role))
    return user


@pytest.fixture
def floor_user(db: None) -> User:
    """Fiona is a floor supervisor: she opens tables, approves payouts and voids."""
    return _persona("fiona", "floor", is_staff=True)


@pytest.fixture
def second_floor_user(db: None) -> User:
    """Fred is another floor supervisor: he approves the paytables Fiona drafts (nobody approves their own)."""
    return _persona("fred", "floor", is_staff=True)


@pytest.fixture
def dealer_user(db: None) -> User:
    """Dave is a dealer: he runs rounds on the tables he is assigned to."""
    return _persona("dave", "dealer")


@pytest.fixture
def other_dealer(db: None) -> User:
    """Olga is a dealer assigned elsewhere."""
    return _persona("olga", "dealer")


@pytest.fixture
def compliance_user(db: None) -> User:
    """Carl is a compliance officer: he reads everything and changes nothing."""
    return _persona("carl", "compliance", is_staff=True)


@pytest.fixture
def stranger(db: None) -> User:
    """Sam has an account but no role: he may do nothing."""
    return _persona("sam", None)


@pytest.fixture
def approved_paytable(floor_user: User) -> Callable[..., Any]:
    """approved_paytable("jacks_or_better_9_6") (a file in paytables/standard/) or approved_paytable({DESIGN 6
    JSON}): an approved version 1, approved by Fiona, with no analysis job queued."""
    def approve(document: Any, **options: Any) -> Any:
        return make_paytable(document, floor_user, **options)

    return approve


@pytest.fixture
def assert_audited(db: None) -> Any:
    """assert_audited(action, **fields): an event with those fields was written during this test (returns it)."""
    from tests.audit.helpers import assert_audited as check
    from tests.audit.helpers import last_event_id

    start = last_event_id()

    def assert_event(action: str, *, count: int | None = None, **fields: Any) -> Any:
        return check(action, since_id=start, count=count, **fields)

    return assert_event


@pytest.fixture
def fresh_broker_state() -> Iterator[None]:
    """The test starts with a broker this process has never seen down (casino.broker remembers an outage)."""
    saved = dict(broker._state)
    broker._state.update(down_until=0.0, up_until=0.0, was_down=False, client=None)
    yield
    broker._state.clear()
    broker._state.update(saved)
