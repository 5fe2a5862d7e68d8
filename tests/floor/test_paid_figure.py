"""The reports' "Paid" is every return to the players, stakes included (README: paid = Σ returns; DESIGN §9: a
return is what a hand pays back, stake included): a push's returned bet counts, win = handle - paid, and the
column says so."""

from __future__ import annotations

import html

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from floor.gaming_day import gaming_day
from floor.summaries import summaries_rebuild
from paytables.models import Paytable
from tables.models import CardSource
from tests.floor.conftest import api_for
from tests.tables.conftest import open_table
from tests.tables.helpers import play_manual

pytestmark = pytest.mark.django_db

# House paytable (to 1): jacks or better pays 0 to 1, a push. Both seats hold all five cards, so no row card counts.
PUSH_AND_LOSS = {
    1: {"bet": 500, "circles": 1, "dealt": "Js Jh 4c 7d 9s", "held": "Js Jh 4c 7d 9s"},
    2: {"bet": 500, "circles": 1, "dealt": "2c 3d 5h 8s Ks", "held": "2c 3d 5h 8s Ks"},
}
ROWS = ["Ac 2h 5d Qs 6h", "4d 4h Kh 2d 7s", "As Ah 9h 9d Qh"]


def test_a_push_counts_as_paid_and_the_reports_page_says_stakes_are_included(
    floor_user: User, dealer_user: User, house_paytable: Paytable
) -> None:
    table = open_table("Push table", CardSource.MANUAL, house_paytable, floor_user, dealer_user)
    state = play_manual(api_for(dealer_user), table.pk, PUSH_AND_LOSS, ROWS)
    returns = {seat["seat"]: seat["outcomes"][0]["paid_cents"] for seat in state["seats"] if seat["outcomes"]}
    assert returns == {1: 500, 2: 0}  # the push gives its stake back; the loss gives nothing
    day = gaming_day(timezone.now())
    summaries_rebuild(first_day=day, last_day=day)
    report = api_for(floor_user).get(f"/api/v1/reports/tables/?from={day}&to={day}&table={table.pk}").json()
    totals = report["totals"]
    assert (totals["handle_cents"], totals["paid_cents"], totals["win_cents"]) == (1_000, 500, 500)
    client = Client()
    client.force_login(floor_user)
    page = html.unescape(client.get(f"/floor/reports/?from={day}&to={day}").content.decode())
    assert "Paid (stakes included)</th>" in page
    assert "paid = Σ returns to the players, stakes included (a winning bet's stake and a push's returned bet" in page
    assert "win = handle − paid" in page
