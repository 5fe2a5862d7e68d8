"""Compliance downloads a Triple Draw round's record from the round's page: the DESIGN 9 record replay_round reads
was the API's alone (a token needed), so the screens offered no way to re-run the replay an auditor is told to."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from tables.models import Round, Table
from tables.selectors.records import round_export
from tests.tables.conftest import client_for
from tests.tables.helpers import play_manual

pytestmark = pytest.mark.django_db

ROWS = ["2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d", "2h 3h 4h 5h 6h"]


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_round_record_downloads_named_and_replays_to_the_stored_outcome(
    manual_table: Table, dealer_user: User, compliance_user: User, tmp_path: Path
) -> None:
    state = play_manual(client_for(dealer_user), manual_table.pk,
                        {1: {"bet": 500, "circles": 2, "dealt": "Js Jh 8c 7s 9s", "held": "Js Jh"}}, ROWS)
    rnd = Round.objects.get(pk=state["id"])
    client = _client(compliance_user)
    url = f"/compliance/rounds/{rnd.pk}/record.json"
    assert f'href="{url}"' in client.get(f"/compliance/rounds/{rnd.pk}/").content.decode()
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="manual-1-round-{rnd.number}-record.json"'
    assert json.loads(response.content) == json.loads(json.dumps(round_export(rnd)))
    path = tmp_path / "round.json"
    path.write_bytes(response.content)
    out = StringIO()
    call_command("replay_round", str(path), "--json", stdout=out)
    assert json.loads(out.getvalue())["table_net_cents"] == -sum(s["net_cents"] or 0 for s in state["seats"])
    assert _client(dealer_user).get(url).status_code == 403
    assert client.get("/compliance/rounds/999999999/record.json").status_code == 404
