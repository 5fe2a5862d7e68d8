"""The reports API: exactly the documented keys (typed in the OpenAPI schema), the band flag, clear errors for bad
input, CSV, and every endpoint checks its role."""

from __future__ import annotations

import math
from datetime import date

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from floor.gaming_day import gaming_day
from floor.selectors.reports import Z95
from paytables.models import Paytable
from tables.models import Table
from tests.floor.conftest import REPORT_DAY as DAY
from tests.floor.conftest import api_for, summary_row

pytestmark = pytest.mark.django_db

ROW_KEYS = {
    "table_id",
    "table",
    "rounds",
    "handle_cents",
    "paid_cents",
    "win_cents",
    "theo_win_cents",
    "hold",
    "theo_hold",
    "hold_low",
    "hold_high",
    "outside_band",
}


def test_the_tables_report_has_exactly_the_documented_keys_and_flags_a_hold_outside_its_band(
    two_tables: list[Table], floor_user: User, house_paytable: Paytable
) -> None:
    answer = api_for(floor_user).get(f"/api/v1/reports/tables/?from={DAY}&to={DAY}").json()
    assert set(answer) == {"rows", "totals"}
    assert [set(row) for row in answer["rows"]] == [ROW_KEYS, ROW_KEYS]
    assert set(answer["totals"]) == ROW_KEYS - {"table_id", "table"}
    a, b = answer["rows"]
    analysis = house_paytable.analysis
    theo_hold = 1 - float(analysis.return_ratio)
    half = Z95 * math.sqrt(1_000 * 1_000**2 * analysis.variance) / 1_000_000
    assert a["theo_hold"] == pytest.approx(theo_hold)
    assert (a["hold_low"], a["hold_high"]) == (pytest.approx(theo_hold - half), pytest.approx(theo_hold + half))
    assert (a["hold"], a["outside_band"]) == (0.03, False)
    assert (b["hold"], b["outside_band"]) == (-0.4, True)
    assert answer["totals"]["handle_cents"] == 2_000_000
    assert answer["totals"]["theo_win_cents"] == a["theo_win_cents"] + b["theo_win_cents"]


def test_the_schema_types_every_key_of_the_tables_report(floor_user: User) -> None:
    schema = api_for(floor_user).get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/v1/reports/tables/"]["get"]
    assert {p["name"] for p in operation["parameters"] if p.get("required")} == {"from", "to"}
    ref = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    report = schema["components"]["schemas"][ref]
    row = schema["components"]["schemas"][report["properties"]["rows"]["items"]["$ref"].rsplit("/", 1)[-1]]
    types = {name: (spec.get("type"), spec.get("nullable", False)) for name, spec in row["properties"].items()}
    assert types == {
        "table_id": ("integer", False),
        "table": ("string", False),
        "rounds": ("integer", False),
        "handle_cents": ("integer", False),
        "paid_cents": ("integer", False),
        "win_cents": ("integer", False),
        "theo_win_cents": ("integer", True),
        "hold": ("number", True),
        "theo_hold": ("number", True),
        "hold_low": ("number", True),
        "hold_high": ("number", True),
        "outside_band": ("boolean", False),
    }
    assert set(row["required"]) == ROW_KEYS


def test_a_paytable_without_an_analysis_gives_no_theory_rather_than_a_wrong_one(
    rng_tables: list[Table], floor_user: User, house_paytable: Paytable
) -> None:
    house_paytable.analysis.delete()
    summary_row(rng_tables[0], house_paytable, rounds=1, handle=1_000, win=100, squares=1_000_000)
    [row] = api_for(floor_user).get(f"/api/v1/reports/tables/?from={DAY}&to={DAY}").json()["rows"]
    assert (row["hold"], row["theo_win_cents"], row["theo_hold"], row["hold_low"], row["outside_band"]) == (
        0.1,
        None,
        None,
        None,
        False,
    )


@pytest.mark.parametrize(
    ("query", "status", "code", "field"),
    [
        ("from=2025-03-18&to=2025-03-17", 400, "from_after_to", "from"),
        ("to=2025-03-17", 400, "missing_date", "from"),
        ("from=2025-03-17", 400, "missing_date", "to"),
        ("from=17/03/2025&to=2025-03-17", 400, "bad_date", "from"),
        ("from=2025-03-17&to=2025-03-17&table=999999", 404, "unknown_table", "table"),
        ("from=2025-03-17&to=2025-03-17&table=abc", 404, "unknown_table", "table"),
        ("from=2025-03-17&to=2025-03-17&dealer=nobody", 404, "unknown_dealer", "dealer"),
        ("from=2025-03-17&to=2025-03-17&shift=brunch", 400, "unknown_shift", "shift"),
        ("from=2025-03-17&to=2025-03-17&type=roulette", 400, "bad_table_type", "type"),
    ],
)
def test_bad_report_input_gets_a_clear_error(floor_user: User, query: str, status: int, code: str, field: str) -> None:
    response = api_for(floor_user).get(f"/api/v1/reports/tables/?{query}")
    assert response.status_code == status
    assert response.json()["error"]["code"] == code
    assert response.json()["error"]["field"] == field
    assert response.json()["error"]["message"]


def test_a_bad_grouping_is_refused(floor_user: User) -> None:
    response = api_for(floor_user).get(f"/api/v1/reports/groups/?from={DAY}&to={DAY}&by=colour")
    assert (response.status_code, response.json()["error"]["code"]) == (400, "bad_grouping")


REPORTS = ["tables", "groups", "hold-series", "hours", "home"]


@pytest.mark.parametrize("report", REPORTS)
def test_floor_and_compliance_read_reports_and_no_one_else(
    report: str, floor_user: User, compliance_user: User, dealer_user: User, count_user: User, stranger: User
) -> None:
    url = f"/api/v1/reports/{report}/?from={DAY}&to={DAY}"
    assert api_for(floor_user).get(url).status_code == 200
    assert api_for(compliance_user).get(url).status_code == 200
    for user in (dealer_user, count_user, stranger):
        response = api_for(user).get(url)
        assert response.status_code == 403, user
        assert response.json()["error"]["code"] == "permission_denied"
    assert APIClient().get(url).status_code == 401


def test_groups_series_and_hours_add_up_to_the_tables_report(two_tables: list[Table], floor_user: User) -> None:
    api = api_for(floor_user)
    tables = api.get(f"/api/v1/reports/tables/?from={DAY}&to={DAY}").json()
    for by in ("type", "pit", "dealer", "shift", "day"):
        groups = api.get(f"/api/v1/reports/groups/?from={DAY}&to={DAY}&by={by}").json()
        assert groups["totals"] == tables["totals"], by
    series = api.get(f"/api/v1/reports/hold-series/?from={DAY}&to={DAY}").json()
    assert [point["period"] for point in series["points"]] == [DAY]
    assert series["points"][0]["handle_cents"] == 2_000_000
    hours = api.get(f"/api/v1/reports/hours/?from={DAY}&to={DAY}").json()["hours"]
    assert len(hours) == 24
    assert {h["hour"]: h["handle_cents"] for h in hours if h["handle_cents"]} == {11: 2_000_000}


def browser_client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_csv_export_gives_the_same_figures(two_tables: list[Table], compliance_user: User) -> None:
    response = browser_client(compliance_user).get(f"/floor/reports/export.csv?from={DAY}&to={DAY}&report=tables")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    lines = b"".join(response.streaming_content).decode().splitlines()
    assert lines[0].startswith("key,label,rounds,handle_cents,paid_cents,win_cents,theo_win_cents,hold")
    assert lines[1].split(",")[1:6] == ["Floor A", "200", "1000000", "970000", "30000"]
    assert lines[-1].split(",")[1:4] == ["Total", "400", "2000000"]


def test_the_csv_never_hands_a_spreadsheet_a_formula(two_tables: list[Table], compliance_user: User) -> None:
    """A table's name is typed by staff: one named like a formula reaches the file as text (as the audit CSVs)."""
    Table.objects.filter(name="Floor A").update(name='=HYPERLINK("http://x.example","A")')
    response = browser_client(compliance_user).get(f"/floor/reports/export.csv?from={DAY}&to={DAY}&report=tables")
    text = b"".join(response.streaming_content).decode()
    assert ',"\'=HYPERLINK(""http://x.example"",""A"")",200,' in text
    assert ',=HYPERLINK' not in text
    assert ',"=HYPERLINK' not in text


@pytest.mark.parametrize(
    ("query", "message"),
    [("from=2025-03-18&to=2025-03-17", "is after to"), (f"from={DAY}&to={DAY}&report=pies", "report is tables")],
)
def test_a_bad_csv_request_says_what_is_wrong(floor_user: User, query: str, message: str) -> None:
    response = browser_client(floor_user).get(f"/floor/reports/export.csv?{query}")
    assert response.status_code == 400
    assert message in response.content.decode()


def test_the_reports_page_shows_the_figures_and_refuses_other_roles(
    two_tables: list[Table], floor_user: User, dealer_user: User, count_user: User
) -> None:
    page = browser_client(floor_user).get(f"/floor/reports/?from={DAY}&to={DAY}&by=pit")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Outside band" in text
    assert "Floor B" in text
    assert "$10,000.00" in text  # Floor A's handle
    assert 'data-url="/api/v1/reports/hold-series/' in text
    for user in (dealer_user, count_user):
        assert browser_client(user).get("/floor/reports/").status_code == 403
    assert Client().get("/floor/reports/").status_code == 302


def test_the_reports_page_explains_bad_input(floor_user: User) -> None:
    page = browser_client(floor_user).get("/floor/reports/?from=2025-03-18&to=2025-03-17")
    assert page.status_code == 400
    assert "from (2025-03-18) is after to (2025-03-17)" in page.content.decode()


def test_the_page_defaults_to_the_last_week(floor_user: User) -> None:
    page = browser_client(floor_user).get("/floor/reports/")
    today = gaming_day(timezone.now())
    assert page.status_code == 200
    assert f"to {today.isoformat()} (7 days)" in page.content.decode()
    assert isinstance(today, date)
