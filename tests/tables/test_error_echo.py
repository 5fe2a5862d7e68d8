"""A huge bad card string comes back as a short prefix in the error, not echoed whole (issue 15)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tables.models import Table
from tests.tables.helpers import ok
from tests.tables.test_bad_input import betting_round

pytestmark = pytest.mark.django_db


def test_a_200_kb_card_string_is_quoted_as_a_short_prefix(manual_table: Table, dealer_api: APIClient) -> None:
    round_id = betting_round(dealer_api, manual_table)
    ok(dealer_api.post(f"/api/v1/rounds/{round_id}/close-bets/"))
    huge = "Z" * 200_000
    cards = {"1": [huge, "Jh", "4c", "7d", "9s"], "2": ["Ac", "Kc", "Qc", "Tc", "2d"]}
    response = dealer_api.post(f"/api/v1/rounds/{round_id}/deal/", {"cards": cards}, format="json")
    assert response.status_code == 400, response.content[:300]
    assert len(response.content) < 1000
    # Refused at the edge: a card token is a few characters, so the error names the field, not the 200 KB value.
    error = response.json()["error"]
    assert error["field"] == "cards.1"
    assert "ZZZZ" * 10 not in error["message"]
