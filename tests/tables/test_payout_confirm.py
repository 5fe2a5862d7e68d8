"""Approving a large payout on the table screen is one deliberate step: the form asks first and names each winning
seat's amount (a stray tap posted $100,000 at once), as the admin's payout queue does."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth.models import User

from tables.models import Round, Table
from tests.tables.test_payout_queue import awaiting, logged_in

pytestmark = pytest.mark.django_db


def test_the_table_screens_approve_button_confirms_and_names_the_amount(manual_table: Table, floor_user: User) -> None:
    rnd = awaiting(manual_table, floor_user)
    page = logged_in(floor_user).get(f"/tablet/tables/{manual_table.pk}/").content.decode()
    form = re.search(r'<form[^>]*action="[^"]*approve[^"]*"[^>]*>', page, re.DOTALL)
    assert form is not None, "the floor sees no approve form"
    confirm = re.search(r'data-confirm="([^"]*)"', form.group(0))
    assert confirm is not None, "approving asks nothing first"
    assert html.unescape(confirm.group(1)) == (
        f"Approve the payout of round {rnd.number} at {manual_table.name}? "
        "Seat 1 wins $40.00. Seat 2 wins $7,980.00. Seat 3 wins $80.00. The dealer then pays it from the tray."
    )
    assert Round.objects.get(pk=rnd.pk).phase == "awaiting_approval"
