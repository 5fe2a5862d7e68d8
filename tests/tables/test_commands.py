"""replay_round (a record file, or --round ID against what was paid) and simulate_rounds."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from tables.models import HandOutcome, Round, Table
from tables.selectors.records import round_replay_verdict
from tests.tables.helpers import ok, play_manual
from tests.tables.test_round_api import ROWS, SEATS

pytestmark = pytest.mark.django_db


def test_replay_round_reads_a_design_9_record(tmp_path: Path) -> None:
    record = {
        "paytable": {
            "basis": "for_1",
            "lines": [{"hand": "two_pair", "pays": 2}, {"hand": "one_pair", "min_rank": "J", "pays": 1}],
        },
        "rows": [r.split() for r in ROWS],
        "seats": [{"seat": 1, "bet_cents": 100, "circles": 3, "held": ["Js", "Jh"]}],
    }
    path = tmp_path / "round.json"
    path.write_text(json.dumps(record))
    out = StringIO()
    call_command("replay_round", str(path), "--json", stdout=out)
    result = json.loads(out.getvalue())
    # Three jacks match no line of this paytable; the two two-pair hands pay 2 for 1.
    assert [h["return_cents"] for h in result["seats"][0]["hands"]] == [0, 200, 200]
    assert result["seats"][0]["net_cents"] == 100
    assert result["table_net_cents"] == -100


def test_replay_round_names_a_bad_card_in_a_record(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(
        json.dumps(
            {
                "paytable": {"basis": "for_1", "lines": [{"hand": "flush", "pays": 6}]},
                "rows": [["Zz", "2h", "3h", "4h", "5h"]] * 3,
                "seats": [],
            }
        )
    )
    with pytest.raises(CommandError, match="Zz"):
        call_command("replay_round", str(path))


def test_replay_round_checks_a_stored_round_and_reports_a_tampered_payout(
    manual_table: Table, dealer_api: APIClient
) -> None:
    state = play_manual(dealer_api, manual_table.pk, SEATS, ROWS)
    out = StringIO()
    call_command("replay_round", "--round", str(state["id"]), stdout=out)
    assert "OK" in out.getvalue()
    assert round_replay_verdict(state["id"]) == {"ok": True, "differences": [], "checked": True, "phase": "settled"}
    HandOutcome.objects.filter(round_id=state["id"], seat_number=3).update(paid_cents=1, return_cents=1)
    out = StringIO()
    with pytest.raises(CommandError) as raised:
        call_command("replay_round", "--round", str(state["id"]), stdout=out)
    assert raised.value.returncode == 1
    assert "seat 3 circle 1 return_cents: recomputed 9000, recorded 1" in out.getvalue()
    verdict = round_replay_verdict(state["id"])
    assert verdict["ok"] is False
    assert any("ledger" in line for line in verdict["differences"]) is False or verdict["differences"]


def test_an_exported_round_replays_clean_from_its_file(
    manual_table: Table, dealer_api: APIClient, tmp_path: Path
) -> None:
    state = play_manual(dealer_api, manual_table.pk, SEATS, ROWS)
    path = tmp_path / "export.json"
    path.write_text(json.dumps(ok(dealer_api.get(f"/api/v1/rounds/{state['id']}/export/"))))
    out = StringIO()
    call_command("replay_round", str(path), "--json", stdout=out)
    assert json.loads(out.getvalue())["differences"] == []


def test_simulate_rounds_plays_and_settles_rng_rounds(rng_table: Table, floor_user: User) -> None:
    out = StringIO()
    call_command("simulate_rounds", "--table", rng_table.name, "--rounds", "3", "--seed", "1", "--json", stdout=out)
    summary = json.loads(out.getvalue())
    assert (summary["rounds"], summary["hands"]) == (3, 3 * 7 * 3)
    assert summary["table_net_cents"] == summary["stakes_cents"] - summary["returns_cents"]
    assert Round.objects.filter(table=rng_table, phase__in=["settled", "awaiting_approval"]).count() == 3


def test_simulate_rounds_refuses_a_manual_table(manual_table: Table) -> None:
    with pytest.raises(CommandError, match="rng"):
        call_command("simulate_rounds", "--table", manual_table.name, "--rounds", "1")
