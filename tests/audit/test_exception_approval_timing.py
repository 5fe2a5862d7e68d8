"""A payout held for the floor's approval is reported when it is paid: the settlement that stops at
awaiting_approval files no "Seat 1 paid $4,000.00" case and adds nothing to the seat's cash-reporting total for the
day (the queue said "has been paid" while the dealer's screen said "Do not pay"); the approval files them, and a
refused payout (the round is voided, nothing paid) files none."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from audit.models import ExceptionCase, SeatDayTotal
from tables.models import Round, Table
from tables.services.approvals import round_approve_payout, round_refuse_payout
from tests.audit.test_exception_rules import ROWS, ROYAL, _scan
from tests.tables.conftest import client_for
from tests.tables.helpers import play_manual

pytestmark = pytest.mark.django_db


def _held_royal(table: Table, dealer: User) -> Round:
    """A $4,000 royal flush on a table whose floor approves payouts from $1,000."""
    Table.objects.filter(pk=table.pk).update(supervisor_approval_threshold_cents=100_000)
    state = play_manual(client_for(dealer), table.pk, {1: ROYAL}, ROWS)
    rnd = Round.objects.get(pk=state["id"])
    assert rnd.phase == "awaiting_approval"
    return rnd


def _payout_cases() -> list[ExceptionCase]:
    return [c for c in _scan() if c.kind in ("large_payout", "cash_reporting")]


def test_a_held_payout_is_reported_once_when_approved_not_when_it_stops_for_approval(
    manual_table: Table, dealer_user: User, floor_user: User
) -> None:
    _scan()
    rnd = _held_royal(manual_table, dealer_user)
    assert _payout_cases() == []
    assert not SeatDayTotal.objects.exists()

    round_approve_payout(round=rnd, actor=floor_user)
    cases = [c for c in _payout_cases() if c.kind == "large_payout"]
    assert [(c.seat_number, c.amount_cents, c.round_id) for c in cases] == [(1, 400_000, rnd.pk)]
    assert "$4,000.00" in cases[0].summary
    assert len([c for c in _payout_cases() if c.kind == "large_payout"]) == 1  # scanning again files nothing new


def test_a_refused_payout_is_never_reported_as_paid(manual_table: Table, dealer_user: User, floor_user: User) -> None:
    _scan()
    rnd = _held_royal(manual_table, dealer_user)
    round_refuse_payout(round=rnd, reason="card mark found on the royal", actor=floor_user)
    assert _payout_cases() == []
    assert not SeatDayTotal.objects.exists()
