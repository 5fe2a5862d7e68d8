"""The exception rules of issue 16, on real rounds and events: limits, paytable returns, reporting thresholds, voids,
corrections, rulings, late settlement and lockouts each file one case in the queue, and only once."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test.utils import override_settings
from django.utils import timezone

from audit.exception_scan import exceptions_scan
from audit.models import ExceptionCase, SeatDayTotal
from audit.services import audit_chain_seal, audit_event, audit_record, audit_record_many
from paytables.models import Paytable
from tables.models import Table
from tables.services.tables import table_update_limits
from tests.audit.actions import CARD_CORRECT, RULING_OVERRIDE
from tests.tables.conftest import client_for
from tests.tables.helpers import play_manual

ROWS = ["2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d", "2h 3h 4h 5h 6h"]
ROYAL = {"bet": 500, "circles": 1, "dealt": "As Ks Qs Js Ts", "held": "As Ks Qs Js Ts"}
NOTHING = {"bet": 500, "circles": 1, "dealt": "7s 8h 9d Jc Kd", "held": ""}


def _scan() -> list[ExceptionCase]:
    audit_chain_seal()
    exceptions_scan()
    return list(ExceptionCase.objects.order_by("id"))


def _kinds() -> list[str]:
    return [case.kind for case in _scan()]


@pytest.mark.django_db
def test_lowering_a_tables_approval_threshold_is_an_exception(manual_table: Table, floor_user: User) -> None:
    # The issue: "Lowering a table's approval threshold from $10,000 to $25 is not an exception."
    _scan()
    table_update_limits(
        table=manual_table,
        actor=floor_user,
        min_bet_cents=manual_table.min_bet_cents,
        max_bet_cents=manual_table.max_bet_cents,
        max_payout_per_seat_cents=manual_table.max_payout_per_seat_cents,
        supervisor_approval_threshold_cents=2500,
    )
    case = _scan()[-1]
    assert case.kind == "limit_change"
    assert case.table_id == manual_table.pk
    assert "Approval threshold: $25.00" in case.summary
    assert case.caused_by == floor_user.get_username()


@pytest.mark.django_db
def test_a_seat_paid_at_least_the_reporting_threshold_is_an_exception(
    manual_table: Table, dealer_user: User
) -> None:
    # Royal flush on Jacks or Better 9/6 (for 1): $5 x 800 = $4,000, above the $1,200 W-2G level.
    _scan()
    state = play_manual(client_for(dealer_user), manual_table.pk, {1: ROYAL, 2: NOTHING}, ROWS)
    payouts = [c for c in _scan() if c.kind == "large_payout"]
    assert [(c.seat_number, c.amount_cents, c.round_id) for c in payouts] == [(1, 400_000, state["id"])]
    assert "$4,000.00" in payouts[0].summary


@pytest.mark.django_db
@override_settings(AUDIT_REPORTING_THRESHOLD_CENTS=500_000)
def test_a_payout_under_a_configured_threshold_is_not(manual_table: Table, dealer_user: User) -> None:
    play_manual(client_for(dealer_user), manual_table.pk, {1: ROYAL}, ROWS)
    assert "large_payout" not in _kinds()


@pytest.mark.django_db
@override_settings(AUDIT_CASH_REPORTING_THRESHOLD_CENTS=700_000)
def test_a_seats_payouts_in_one_gaming_day_reaching_the_cash_threshold_file_one_case(
    manual_table: Table, dealer_user: User
) -> None:
    api = client_for(dealer_user)
    play_manual(api, manual_table.pk, {1: ROYAL}, ROWS)
    assert "cash_reporting" not in _kinds()  # $4,000 so far
    play_manual(api, manual_table.pk, {1: ROYAL}, ROWS)
    play_manual(api, manual_table.pk, {1: ROYAL}, ROWS)
    cash = [c for c in _scan() if c.kind == "cash_reporting"]
    assert [(c.seat_number, c.amount_cents) for c in cash] == [(1, 800_000)]  # once, when it crossed
    total = SeatDayTotal.objects.get(table_id=manual_table.pk, seat_number=1)
    assert total.paid_cents == 1_200_000


@pytest.mark.django_db
def test_voids_corrections_rulings_and_lockouts_are_exceptions(compliance_user: User) -> None:
    audit_record(action="round_void", round=9, reason="misdeal")
    audit_record(action=CARD_CORRECT, reason="wrong card keyed")
    audit_record(action=RULING_OVERRIDE, reason="Rob is right")
    audit_record(action="user_locked_out", object_repr="mallory")
    audit_record(action="seat_join")
    assert _kinds() == ["void", "correction", "override", "failed_logins"]


@pytest.mark.django_db
def test_scanning_twice_files_nothing_new() -> None:
    audit_record(action="round_void", round=9, reason="misdeal")
    assert len(_scan()) == 1
    exceptions_scan()
    assert ExceptionCase.objects.count() == 1


@pytest.mark.django_db
def test_a_scan_reads_in_chunks_and_a_bounded_scan_stops_where_it_was_told(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("audit.exception_scan.SCAN_CHUNK", 2)
    for number in range(5):
        audit_record(action="round_void", round=number + 1, reason="misdeal")
    audit_chain_seal()

    assert exceptions_scan(max_events=3) == 3  # the first three events' cases, read two and one at a time
    assert exceptions_scan() == 2  # the rest, from where it stopped
    assert exceptions_scan() == 0
    assert sorted(case.round_id for case in ExceptionCase.objects.all()) == [1, 2, 3, 4, 5]


def _at(moment: dt.datetime, **fields: Any) -> Any:
    event = audit_event(**fields)
    event.occurred_at = moment
    return event


@pytest.mark.django_db
def test_a_round_settled_more_than_a_minute_after_its_rows_is_an_exception() -> None:
    now = timezone.now()
    audit_record_many(
        [
            _at(now - dt.timedelta(seconds=200), action="rows_record", round=41, after={"rows": []}),
            _at(now - dt.timedelta(seconds=100), action="round_settlement", round=41, after={"phase": "settled"}),
            _at(now - dt.timedelta(seconds=50), action="rows_record", round=42, after={"rows": []}),
            _at(now - dt.timedelta(seconds=20), action="round_settlement", round=42, after={"phase": "settled"}),
        ]
    )
    late = [c for c in _scan() if c.kind == "late_settlement"]
    assert [c.round_id for c in late] == [41]
    assert "100 s after" in late[0].summary


@pytest.mark.django_db
@pytest.mark.parametrize(("returned", "flagged"), [("1/2", True), ("99/100", False), ("101/100", True)])
def test_a_paytable_put_in_use_with_a_return_outside_the_band_is_an_exception(
    jacks_for_1: Paytable, returned: str, flagged: bool
) -> None:
    # The analysis is a job: it may finish before or after the paytable is put in use; both orders are judged.
    audit_record(action="paytable_mark_active", obj=jacks_for_1, after={"status": "active"})
    audit_record(action="paytable_analysis_done", obj=jacks_for_1, after={"return": returned})
    cases = [c for c in _scan() if c.kind == "paytable_return"]
    assert bool(cases) is flagged
    if flagged:
        assert str(jacks_for_1) in cases[0].summary
        assert "band 85.00%–100.00%" in cases[0].summary
