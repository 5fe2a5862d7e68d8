"""Concurrent writes on PostgreSQL: row locks keep versions unique and approvals consistent."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connections

from casino.errors import WrongPhase
from paytables.models import Paytable
from paytables.selectors import paytable_as_dict
from paytables.services import paytable_approve, paytable_clone, paytable_create_draft, paytable_line_set
from tests.paytables.conftest import JACKS_9_6, jacks

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def race(*actions: Callable[[], Any]) -> list[Any]:
    """Run the actions at once, each in its own thread and connection; return each result or exception."""
    barrier = threading.Barrier(len(actions))
    results: list[Any] = [None] * len(actions)

    def run(index: int, action: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[index] = action()
        except Exception as exc:  # the test inspects what each one met
            results[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, a)) for i, a in enumerate(actions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def test_simultaneous_clones_get_consecutive_versions(require_postgres: None, floor_user: User) -> None:
    source = paytable_create_draft(name="Jacks or Better 9/6", basis="for_1", lines=JACKS_9_6, actor=floor_user)
    results = race(*(lambda: paytable_clone(paytable=source, actor=floor_user) for _ in range(4)))
    assert all(isinstance(result, Paytable) for result in results), results
    assert sorted(Paytable.objects.values_list("version", flat=True)) == [1, 2, 3, 4, 5]


def test_an_edit_racing_an_approval_never_changes_what_was_approved(
    require_postgres: None, floor_user: User, second_floor_user: User
) -> None:
    draft = paytable_create_draft(name="Jacks or Better 9/6", basis="for_1", lines=JACKS_9_6, actor=floor_user)
    edited, approved = race(
        lambda: paytable_line_set(paytable=draft, lines=jacks(full_house=8, flush=5), actor=floor_user),
        lambda: paytable_approve(paytable=draft, approval_reference="GC-1", actor=second_floor_user),
    )
    assert isinstance(approved, Paytable)
    final = Paytable.objects.get(pk=draft.pk)
    assert final.status == "approved"
    if isinstance(edited, WrongPhase):  # the approval won: the schedule is the original one
        assert paytable_as_dict(final)["lines"] == JACKS_9_6
    else:  # the edit won and the approval came after it
        assert isinstance(edited, Paytable), edited
        assert paytable_as_dict(final)["lines"] == jacks(full_house=8, flush=5)
    from audit.models import AuditEvent

    assert AuditEvent.objects.get(action="paytable_approve").after["lines"] == paytable_as_dict(final)["lines"]
