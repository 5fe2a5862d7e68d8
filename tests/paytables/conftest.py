"""Paytable fixtures: the Jacks or Better 9/6 schedule (DESIGN 6 JSON) and drafts made through the services."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from paytables.models import Paytable
from paytables.services import paytable_approve, paytable_create_draft
from tests.paytables.factories import standard_document

# The schedule of paytables/standard/jacks_or_better_9_6.json, as the services take it.
JACKS_9_6: list[dict[str, Any]] = standard_document("jacks_or_better_9_6")["lines"]


def jacks(**changes: Any) -> list[dict[str, Any]]:
    """A copy of the 9/6 schedule with some lines' pays changed, e.g. jacks(full_house=8)."""
    return [{**line, "pays": changes.get(line["hand"], line["pays"])} for line in JACKS_9_6]


@pytest.fixture
def draft(floor_user: User) -> Paytable:
    return paytable_create_draft(name="Jacks or Better 9/6", basis="for_1", lines=JACKS_9_6, actor=floor_user)


@pytest.fixture
def approved(draft: Paytable, second_floor_user: User) -> Paytable:
    return paytable_approve(paytable=draft, approval_reference="GC-2026-0042", actor=second_floor_user)
