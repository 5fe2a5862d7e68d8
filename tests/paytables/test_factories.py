"""The one approved-paytable factory: every standard file comes back exactly as written, fractions included."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from paytables.seed import standard_paytable_files
from paytables.selectors import paytable_as_dict
from tests.paytables.factories import standard_document

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("stem", [path.stem for path in standard_paytable_files()])
def test_every_standard_file_becomes_an_approved_paytable_with_its_schedule(
    approved_paytable: Callable[..., Any], stem: str
) -> None:
    paytable = approved_paytable(stem)
    assert paytable.status == "approved"
    assert paytable.approval_reference
    assert paytable_as_dict(paytable) == standard_document(stem)


def test_a_fractional_pay_keeps_its_exact_value(approved_paytable: Callable[..., Any]) -> None:
    document = {
        "name": "Three for two",
        "basis": "to_1",
        "lines": [{"hand": "flush", "pays": "3/2"}, {"hand": "one_pair", "min_rank": "J", "pays": 1}],
    }
    assert paytable_as_dict(approved_paytable(document)) == document
