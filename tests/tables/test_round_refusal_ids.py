"""A refusal about a round names the id an API client holds (and puts in the path), beside the table's round number
the dealer calls it by: "round 1 (id 46)". It said "round 1" only, which the client could not tell from round id 1."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tables.models import Round, Table
from tests.tables.helpers import start

pytestmark = pytest.mark.django_db


def _error(response: object) -> dict[str, str]:
    body = response.json()  # type: ignore[attr-defined]
    return dict(body["error"])


def test_wrong_phase_and_round_in_play_name_the_rounds_id(
    manual_table: Table, rng_table: Table, dealer_api: APIClient, floor_api: APIClient
) -> None:
    start(dealer_api, rng_table.pk)  # the other table's round takes the first id
    round_id = start(dealer_api, manual_table.pk)
    rnd = Round.objects.get(pk=round_id)
    assert rnd.number == 1
    assert rnd.pk != 1  # number and id differ
    ref = f"round 1 (id {rnd.pk})"

    refused = dealer_api.post(f"/api/v1/rounds/{round_id}/rows/", {}, format="json")
    assert refused.status_code == 409
    assert _error(refused) == {
        "code": "wrong_phase", "message": f"cannot record rows: {ref} is betting, not drawing"}

    # Starting another round while one is unfinished: the client learns which round to finish, by id.
    again = dealer_api.post(f"/api/v1/tables/{manual_table.pk}/rounds/")
    assert again.status_code == 409
    assert _error(again) == {"code": "round_in_play", "message": f"{ref} is still betting"}

    closing = floor_api.post(f"/api/v1/tables/{manual_table.pk}/close/")
    assert closing.status_code == 409
    assert f"{ref} is still betting" in _error(closing)["message"]

    floor_api.post(f"/api/v1/rounds/{round_id}/void/", {"reason": "test"}, format="json")
    voided = floor_api.post(f"/api/v1/rounds/{round_id}/void/", {"reason": "again"}, format="json")
    assert voided.status_code == 409
    assert _error(voided)["message"] == f"{ref} is already voided"
