"""The floor's payout queue in the admin (newest first: amount, table, seat, hand, dealer; approve or refuse each,
never in bulk), voiding a round from the admin with a reason, and rounds read in dollars and words."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from audit.models import AuditEvent
from paytables.models import Paytable
from tables.models import LedgerEntry, Round, Table
from tables.services.cards import rows_record
from tables.services.tables import table_update_limits
from tests.tables.conftest import client_for, open_table
from tests.tables.helpers import settle_now
from tests.tables.test_settlement import ROWS, to_drawing

pytestmark = pytest.mark.django_db

QUEUE = "/admin/tables/round/payouts/"


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def awaiting(table: Table, floor_user: User) -> Round:
    """A round whose seat 2 made a royal flush ($8,000.00 back on $20.00 staked): it waits for approval."""
    table_update_limits(
        table=table,
        actor=floor_user,
        min_bet_cents=500,
        max_bet_cents=10_000,
        max_payout_per_seat_cents=10_000_000,
        supervisor_approval_threshold_cents=500_000,
    )
    rnd = to_drawing(Table.objects.get(pk=table.pk), floor_user)
    rows_record(round=rnd, rows=ROWS, actor=floor_user)
    assert settle_now(rnd.pk) == "awaiting_approval"
    return Round.objects.get(pk=rnd.pk)


def test_the_queue_shows_amount_table_seat_hand_and_dealer_newest_first(
    manual_table: Table, floor_user: User, dealer_user: User, jacks_for_1: Paytable
) -> None:
    first = awaiting(manual_table, floor_user)
    second = awaiting(open_table("Manual 2", "manual", jacks_for_1, floor_user, dealer_user), floor_user)
    Round.objects.filter(pk=first.pk).update(dealer=dealer_user)
    page = logged_in(floor_user).get(QUEUE).content.decode()
    rows = re.findall(r'<tr id="payout-(\d+)"', page)
    assert rows == [str(second.pk), str(first.pk)]
    row = page[page.index(f'id="payout-{first.pk}"') :]
    row = row[: row.index("</tr>")]
    for shown in ("Manual 1", "Seat 2", "Royal flush", "$7,980.00", "$8,000.00", "dave", "Approve $7,980.00"):
        assert shown in row, shown
    assert "royal_flush" not in page


def test_payouts_are_never_approved_in_bulk(floor_user: User) -> None:
    page = logged_in(floor_user).get("/admin/tables/round/").content.decode()
    assert "approve_payouts" not in page
    assert "Payouts awaiting approval (0)" in page


def test_approving_from_the_queue_posts_the_payout(manual_table: Table, floor_user: User) -> None:
    rnd = awaiting(manual_table, floor_user)
    response = logged_in(floor_user).post(f"{QUEUE}{rnd.pk}/approve/", follow=True)
    assert "approved: the payout is posted" in response.content.decode()
    assert Round.objects.get(pk=rnd.pk).phase == "settled"
    assert LedgerEntry.objects.filter(round=rnd).exists()
    assert AuditEvent.objects.filter(action="round_approve_payout", round_id=rnd.pk, approver_username="fiona").exists()
    assert f'id="payout-{rnd.pk}"' not in response.content.decode()


def test_refusing_needs_a_reason_then_voids_the_round_and_pays_nothing(manual_table: Table, floor_user: User) -> None:
    rnd = awaiting(manual_table, floor_user)
    client = logged_in(floor_user)
    refused = client.post(f"{QUEUE}{rnd.pk}/refuse/", {"reason": "  "}, follow=True).content.decode()
    assert "refusing a payout needs a reason" in refused
    assert Round.objects.get(pk=rnd.pk).phase == "awaiting_approval"
    done = client.post(f"{QUEUE}{rnd.pk}/refuse/", {"reason": "row 1 misread by the shoe"}, follow=True)
    assert "refused: the round is voided" in done.content.decode()
    rnd.refresh_from_db()
    assert (rnd.phase, rnd.void_reason) == ("voided", "Payout refused: row 1 misread by the shoe")
    assert not LedgerEntry.objects.filter(round=rnd).exists()
    event = AuditEvent.objects.get(action="round_refuse_payout", round_id=rnd.pk)
    assert event.reason == "row 1 misread by the shoe"


def test_a_decision_on_a_round_no_longer_waiting_is_refused_with_a_message(
    manual_table: Table, floor_user: User
) -> None:
    rnd = awaiting(manual_table, floor_user)
    client = logged_in(floor_user)
    client.post(f"{QUEUE}{rnd.pk}/approve/")
    again = client.post(f"{QUEUE}{rnd.pk}/refuse/", {"reason": "late"}, follow=True).content.decode()
    assert "is settled, not awaiting_approval" in again
    assert Round.objects.get(pk=rnd.pk).phase == "settled"


@pytest.mark.parametrize("who", ["dealer_user", "compliance_user"])
def test_only_the_floor_sees_the_queue_and_decides(
    request: pytest.FixtureRequest, manual_table: Table, floor_user: User, who: str
) -> None:
    rnd = awaiting(manual_table, floor_user)
    user = request.getfixturevalue(who)
    user.is_staff = True
    user.save()
    client = logged_in(user)
    assert client.get(QUEUE).status_code == 403
    assert client.post(f"{QUEUE}{rnd.pk}/approve/").status_code == 403
    assert client.post(f"/admin/tables/round/{rnd.pk}/void/", {"reason": "x"}).status_code == 403
    assert Round.objects.get(pk=rnd.pk).phase == "awaiting_approval"


def test_voiding_from_the_admin_needs_a_reason(manual_table: Table, floor_user: User) -> None:
    rnd = to_drawing(manual_table, floor_user)
    client = logged_in(floor_user)
    page = client.get(f"/admin/tables/round/{rnd.pk}/change/").content.decode()
    assert f"/admin/tables/round/{rnd.pk}/void/" in page
    assert "Reason" in client.get(f"/admin/tables/round/{rnd.pk}/void/").content.decode()
    refused = client.post(f"/admin/tables/round/{rnd.pk}/void/", {"reason": ""}, follow=True).content.decode()
    assert "a void needs a reason" in refused.lower()
    assert Round.objects.get(pk=rnd.pk).phase == "drawing"
    client.post(f"/admin/tables/round/{rnd.pk}/void/", {"reason": "wrong deck in the shoe"})
    rnd.refresh_from_db()
    assert (rnd.phase, rnd.void_reason) == ("voided", "wrong deck in the shoe")
    assert AuditEvent.objects.filter(action="round_void", round_id=rnd.pk, reason="wrong deck in the shoe").exists()


def test_a_round_reads_in_dollars_cards_and_words(manual_table: Table, floor_user: User) -> None:
    rnd = awaiting(manual_table, floor_user)
    page = logged_in(floor_user).get(f"/admin/tables/round/{rnd.pk}/change/").content.decode()
    assert "$10.00" in page  # a bet
    assert "$8,000.00" in page  # the royal flush's return
    assert "Royal flush" in page
    assert "Ac Kc Qc Tc" in page
    assert "royal_flush" not in page
    assert '["' not in page  # no raw JSON lists


def test_the_api_refuses_a_payout_with_a_reason_and_only_for_the_floor(
    manual_table: Table, floor_user: User, dealer_user: User
) -> None:
    rnd = awaiting(manual_table, floor_user)
    url = f"/api/v1/rounds/{rnd.pk}/refuse/"
    denied = client_for(dealer_user).post(url, {"reason": "mine"}, format="json")
    assert (denied.status_code, denied.json()["error"]["code"]) == (403, "floor_only")
    blank = client_for(floor_user).post(url, {"reason": ""}, format="json")
    assert (blank.status_code, blank.json()["error"]["code"]) == (400, "reason_required")
    assert Round.objects.get(pk=rnd.pk).phase == "awaiting_approval"
    done = client_for(floor_user).post(url, {"reason": "shoe misread row 1"}, format="json")
    assert done.status_code == 200
    assert (done.json()["phase"], done.json()["void_reason"]) == ("voided", "Payout refused: shoe misread row 1")
    again = client_for(floor_user).post(url, {"reason": "twice"}, format="json")
    assert again.status_code == 409
