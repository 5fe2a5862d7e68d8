"""flush empties the audit trail, so it runs only with DEBUG on, with --i-know, or under the test suite."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core import mail
from django.core.management import CommandError, call_command
from django.test import override_settings

from audit.models import AuditEvent
from audit.services import audit_record
from tests.audit.actions import THING_TOUCH


@pytest.fixture
def outside_the_test_environment() -> Iterator[None]:
    """As in a production shell: no test environment (pytest-django sets one up, with mail.outbox)."""
    outbox = mail.outbox
    del mail.outbox
    try:
        yield
    finally:
        mail.outbox = outbox


@pytest.mark.django_db
@pytest.mark.usefixtures("outside_the_test_environment")
@override_settings(DEBUG=False)
def test_flush_with_debug_off_is_refused_and_the_trail_stays() -> None:
    audit_record(action=THING_TOUCH, object_type="test")
    with pytest.raises(CommandError, match="--i-know"):
        call_command("flush", interactive=False, verbosity=0)
    assert AuditEvent.objects.filter(action=THING_TOUCH.code).exists()


@pytest.mark.django_db
@pytest.mark.usefixtures("outside_the_test_environment")
@override_settings(DEBUG=False)
def test_flush_with_debug_off_runs_when_the_operator_says_i_know() -> None:
    audit_record(action=THING_TOUCH, object_type="test")
    call_command("flush", "--i-know", interactive=False, verbosity=0)
    assert not AuditEvent.objects.exists()


@pytest.mark.django_db
@pytest.mark.usefixtures("outside_the_test_environment")
@override_settings(DEBUG=True)
def test_flush_with_debug_on_runs() -> None:
    audit_record(action=THING_TOUCH, object_type="test")
    call_command("flush", interactive=False, verbosity=0)
    assert not AuditEvent.objects.exists()
