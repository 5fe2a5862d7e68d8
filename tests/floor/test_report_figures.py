"""The reports' figures for a range of gaming days equal those computed directly from the ledger and the locked
paytable versions' stored analyses, on simulated play over several gaming days, tables, paytables and dealers."""

from __future__ import annotations

import math
from collections import defaultdict
from datetime import date, timedelta
from fractions import Fraction
from typing import Any

import pytest
from django.contrib.auth.models import User

from floor.demo import played_at
from floor.gaming_day import day_window
from floor.models import TableHour, TableShift
from floor.selectors.reports import Z95
from floor.services.dealers import dealer_sign_in
from floor.summaries import summaries_rebuild
from paytables.models import PaytableAnalysis
from tables.models import LedgerAccount, LedgerEntry, Table
from tests.floor.conftest import api_for, local

pytestmark = pytest.mark.django_db

D1 = date(2025, 3, 17)  # a Monday far from the clock changes
D2, D3 = D1 + timedelta(days=1), D1 + timedelta(days=2)


def ledger_oracle(first: date, last: date, tables: list[Table]) -> dict[int, dict[str, Any]]:
    """Each table's figures computed bet by bet from the ledger's table-bankroll legs and the analyses."""
    start, end = day_window(first)[0], day_window(last)[1]
    analyses = {a.paytable_id: a for a in PaytableAnalysis.objects.all()}
    figures: dict[int, dict[str, Any]] = defaultdict(
        lambda: {"rounds": set(), "handle": 0, "paid": 0, "win": 0, "theo": Fraction(0), "variance": 0.0}
    )
    legs = LedgerEntry.objects.filter(
        account=LedgerAccount.TABLE_BANKROLL, posted_at__gte=start, posted_at__lt=end, table__in=tables
    ).select_related("bet", "round")
    for leg in legs:
        stake = leg.bet.amount_cents
        analysis = analyses[leg.round.paytable_id]
        row = figures[leg.table_id]
        row["rounds"].add(leg.round_id)
        row["handle"] += stake
        row["paid"] += stake - leg.amount_cents
        row["win"] += leg.amount_cents
        row["theo"] += stake * (1 - Fraction(analysis.return_exact))
        row["variance"] += stake * stake * analysis.variance
    return figures


def expected_row(row: dict[str, Any]) -> dict[str, Any]:
    handle = row["handle"]
    theo_hold = float(row["theo"] / handle)
    half = Z95 * math.sqrt(row["variance"]) / handle
    hold = row["win"] / handle
    return {
        "rounds": len(row["rounds"]),
        "handle_cents": handle,
        "paid_cents": row["paid"],
        "win_cents": row["win"],
        "theo_win_cents": round(row["theo"]),
        "hold": hold,
        "theo_hold": theo_hold,
        "hold_low": theo_hold - half,
        "hold_high": theo_hold + half,
        "outside_band": not theo_hold - half <= hold <= theo_hold + half,
    }


def assert_figures_match(answer: dict[str, Any], expected: dict[str, Any]) -> None:
    for key in ("rounds", "handle_cents", "paid_cents", "win_cents", "theo_win_cents", "outside_band"):
        assert answer[key] == expected[key], key
    for key in ("hold", "theo_hold", "hold_low", "hold_high"):
        assert answer[key] == pytest.approx(expected[key], rel=1e-12, abs=1e-15), key


@pytest.fixture
def simulated(play: Any, rng_tables: list[Table], dealer_user: User) -> list[Table]:
    """Three gaming days of play: A with Dave signed in (its rounds are started by the floor, so Dave comes from
    his session), B with no dealer; late-night and before-six rounds fall on the previous gaming day."""
    a, b = rng_tables
    with played_at(local(D1, 9)):
        dealer_sign_in(table=a, actor=dealer_user)
    play(a, local(D1, 10), rounds=5)
    play(b, local(D1, 15), rounds=4, seats=4, circles=3)
    play(a, local(D2, 23, 10), rounds=3, circles=1)
    play(a, local(D3, 5, 30), rounds=2)  # before 06:00: gaming day D2, grave shift
    play(b, local(D3, 12), rounds=3, seats=2)
    return [a, b]


def test_the_tables_report_equals_the_ledger_and_the_analyses_for_a_range(
    simulated: list[Table], floor_user: User
) -> None:
    for first, last in ((D1, D3), (D1, D2), (D2, D2), (D3, D3)):
        answer = api_for(floor_user).get(f"/api/v1/reports/tables/?from={first}&to={last}").json()
        oracle = ledger_oracle(first, last, simulated)
        assert [row["table_id"] for row in answer["rows"]] == sorted(
            oracle, key=lambda pk: Table.objects.get(pk=pk).name
        )
        for row in answer["rows"]:
            assert_figures_match(row, expected_row(oracle[row["table_id"]]))
        everything: dict[str, Any] = {
            "rounds": set(),
            "handle": 0,
            "paid": 0,
            "win": 0,
            "theo": Fraction(0),
            "variance": 0.0,
        }
        for row in oracle.values():
            everything["rounds"] |= row["rounds"]
            for key in ("handle", "paid", "win", "theo", "variance"):
                everything[key] += row[key]
        assert_figures_match(answer["totals"], expected_row(everything))


def test_gaming_days_split_at_the_start_hour_and_shifts_and_dealers_follow(
    simulated: list[Table], floor_user: User
) -> None:
    b = simulated[1]
    api = api_for(floor_user)
    d2 = api.get(f"/api/v1/reports/tables/?from={D2}&to={D2}").json()
    assert [(row["table"], row["rounds"]) for row in d2["rows"]] == [("Floor A", 5)]  # 3 at 23:10 + 2 at 05:30
    shifts = api.get(f"/api/v1/reports/groups/?from={D1}&to={D3}&by=shift").json()
    assert {row["key"]: row["rounds"] for row in shifts["rows"]} == {"day": 8, "swing": 4, "grave": 5}
    dealers = api.get(f"/api/v1/reports/groups/?from={D1}&to={D3}&by=dealer").json()
    assert {row["label"]: row["rounds"] for row in dealers["rows"]} == {"dave": 10, "(no dealer)": 7}
    only_b = api.get(f"/api/v1/reports/tables/?from={D1}&to={D3}&table={b.pk}&shift=swing").json()
    assert [(row["table"], row["rounds"]) for row in only_b["rows"]] == [("Floor B", 4)]


def test_the_job_built_summaries_equal_a_rebuild_from_the_ledger(simulated: list[Table]) -> None:
    def rows() -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        fields = (
            "table_id",
            "hour_start",
            "gaming_day",
            "shift",
            "hour_of_day",
            "dealer_id",
            "paytable_id",
            "rounds",
            "handle_cents",
            "paid_cents",
            "win_cents",
            "stake_squares",
        )
        shift_fields = [f for f in fields if f not in ("hour_start", "hour_of_day", "dealer_id")]
        return sorted(TableHour.objects.values_list(*fields)), sorted(TableShift.objects.values_list(*shift_fields))

    from_jobs = rows()
    assert from_jobs[0], "the summary job wrote nothing"
    shifts = {(table, day, shift) for table, day, shift, *_ in from_jobs[1]}
    assert len(shifts) == len(from_jobs[1]) == 4  # a row per table, gaming day and shift (one paytable each)
    TableHour.objects.all().delete()
    TableShift.objects.all().delete()
    summaries_rebuild(first_day=D1, last_day=D3)
    assert rows() == from_jobs
