"""Every time in the API is written one way, as DRF writes it: a Triple Draw round's times (built by hand for speed)
read like a home game's (serialized), in the casino's time zone, UTC as "Z" (the compliance tester saw "+00:00" on
rounds and "Z" on games)."""

from __future__ import annotations

import pytest
from django.test import override_settings
from rest_framework import serializers
from rest_framework.test import APIClient

from tables.models import Round, Table
from tests.tables.test_bad_input import betting_round

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("zone", "endings"), [("UTC", ("Z",)), ("America/New_York", ("-05:00", "-04:00"))])
def test_a_rounds_times_read_as_drf_writes_them(manual_table: Table, dealer_api: APIClient, zone: str,
                                                endings: tuple[str, ...]) -> None:
    with override_settings(TIME_ZONE=zone):
        round_id = betting_round(dealer_api, manual_table)
        answer = dealer_api.get(f"/api/v1/rounds/{round_id}/").json()
        started = Round.objects.get(pk=round_id).started_at
        assert answer["started_at"] == serializers.DateTimeField().to_representation(started)
        assert answer["started_at"].endswith(endings)  # New York: five hours behind UTC, four in summer
