"""The database router on its own: where reads and writes go with and without a stale-tolerant block."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import DEFAULT_DB_ALIAS, transaction
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse

from audit.models import AuditEvent
from casino import db_router
from casino.db_router import PrimaryReplicaRouter, replica_reads, stale_reads_allowed

router = PrimaryReplicaRouter()


@pytest.fixture
def replica_pretends_usable(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if a fresh replica were configured (the real one is exercised in test_db_router_replica.py)."""
    monkeypatch.setattr(db_router, "replica_usable", lambda: True)


def test_without_a_block_every_read_goes_to_the_primary() -> None:
    assert router.db_for_read(AuditEvent) == DEFAULT_DB_ALIAS


def test_without_a_configured_replica_a_block_reads_the_primary() -> None:
    with stale_reads_allowed() as alias:
        assert alias == DEFAULT_DB_ALIAS
        assert router.db_for_read(AuditEvent) == DEFAULT_DB_ALIAS


@pytest.mark.usefixtures("replica_pretends_usable")
def test_a_block_reads_the_replica_and_writes_the_primary() -> None:
    with stale_reads_allowed() as alias:
        assert alias == db_router.REPLICA
        assert router.db_for_read(AuditEvent) == db_router.REPLICA
        assert router.db_for_write(AuditEvent) == DEFAULT_DB_ALIAS
    assert router.db_for_read(AuditEvent) == DEFAULT_DB_ALIAS


@pytest.mark.usefixtures("replica_pretends_usable")
def test_after_a_write_the_block_reads_its_own_writes_on_the_primary() -> None:
    with stale_reads_allowed():
        router.db_for_write(AuditEvent)
        assert router.db_for_read(AuditEvent) == DEFAULT_DB_ALIAS


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("replica_pretends_usable")
def test_inside_a_transaction_reads_stay_on_the_primary() -> None:
    with stale_reads_allowed(), transaction.atomic():
        assert router.db_for_read(AuditEvent) == DEFAULT_DB_ALIAS


def test_only_the_primary_is_ever_migrated() -> None:
    assert router.allow_migrate(DEFAULT_DB_ALIAS, "audit") is True
    assert router.allow_migrate(db_router.REPLICA, "audit") is False


@pytest.mark.usefixtures("replica_pretends_usable")
def test_a_streamed_response_reads_its_rows_where_the_view_read() -> None:
    seen: list[str] = []

    def rows() -> Any:
        for _ in range(3):
            seen.append(router.db_for_read(AuditEvent))
            yield b"row\n"

    @replica_reads
    def view(request: HttpRequest) -> HttpResponse:
        return StreamingHttpResponse(rows())

    response = view(HttpRequest())
    assert router.db_for_read(AuditEvent) == DEFAULT_DB_ALIAS  # the view has returned...
    assert b"".join(response.streaming_content) == b"row\n" * 3  # ...and its body is read now
    assert seen == [db_router.REPLICA] * 3
