"""The floor view's description names every kind of alert it raises: a dealer's floor call was an alert on the page
but missing from the list above it, so a supervisor reading the page did not know the tablet could call them."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings

from floor.selectors.floor_view import floor_view
from paytables.models import Paytable
from tables.models import CardSource, Round, Table
from tables.services.cards import rows_record
from tables.services.rounds import round_floor_call
from tests.floor.conftest import payouts_need_approval
from tests.floor.test_floor_view import codes, tile
from tests.tables.conftest import open_table
from tests.tables.helpers import settle_now
from tests.tables.test_settlement import ROWS, to_drawing

pytestmark = pytest.mark.django_db


def test_the_description_lists_the_floor_call_the_view_alerts_on(
    manual_table: Table, floor_user: User, dealer_user: User
) -> None:
    rnd = to_drawing(manual_table, floor_user)
    round_floor_call(round=rnd, actor=dealer_user, reason="dispute at seat 2")
    assert "floor_call" in codes(manual_table)
    client = Client()
    client.force_login(floor_user)
    page = client.get("/floor/").content.decode()
    hint = re.search(r'<p class="hint">(.*?)</p>', page, re.DOTALL)
    assert hint is not None
    assert "floor call" in html_text(hint.group(1))
    assert "dispute at seat 2" in page


def html_text(fragment: str) -> str:
    return re.sub(r"<[^>]+>", "", fragment).replace("&#x27;", "'").replace("&#39;", "'")


def test_a_payout_alert_names_each_seats_winnings_and_hand(manual_table: Table, floor_user: User) -> None:
    """The supervisor sees what waits for them before walking over: "seat 2 wins $7,980.00, Royal flush"."""
    payouts_need_approval(manual_table, floor_user)
    rnd = to_drawing(manual_table, floor_user)
    rows_record(round=rnd, rows=ROWS, actor=floor_user)
    assert settle_now(rnd.pk) == Round.Phase.AWAITING_APPROVAL
    (alert,) = [a for a in tile(manual_table).alerts if a.code == "payout_approval"]
    assert alert.text == f"Round {rnd.number}: payout awaiting approval: seat 2 wins $7,980.00, Royal flush"


@override_settings(FLOOR_IDLE_MINUTES=0)
def test_the_alert_list_puts_a_waiting_payout_above_idle_tables(
    manual_table: Table, floor_user: User, dealer_user: User, jacks_paytable: Paytable
) -> None:
    """'Aardvark' sorts first among the tiles; its idle line came above the payout at 'Manual F'."""
    open_table("Aardvark", CardSource.RNG, jacks_paytable, floor_user, dealer_user)
    payouts_need_approval(manual_table, floor_user)
    rnd = to_drawing(manual_table, floor_user)
    rows_record(round=rnd, rows=ROWS, actor=floor_user)
    assert settle_now(rnd.pk) == Round.Phase.AWAITING_APPROVAL
    listed = [(tile.table.name, alert.code) for tile, alert in floor_view().alerts]
    assert listed[0] == ("Manual F", "payout_approval")
    assert ("Aardvark", "idle") in listed[1:]
