"""The OpenAPI schema describes what the API returns: a Python client generated from /api/schema/ by a maintained
generator (openapi-python-client) plays a whole Triple Draw round against a live server, reading typed fields."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from accounts.services import api_token_issue
from tables.models import Table

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]
PACKAGE = "casino_generated_client"


@pytest.fixture
def settlement(request: pytest.FixtureRequest) -> None:
    """Settlement runs where it runs in production: a real Celery worker when REDIS_URL is set, else eagerly."""
    if settings.REDIS_URL:
        request.getfixturevalue("celery_worker")


@pytest.fixture
def generated(tmp_path: Path) -> Iterator[ModuleType]:
    """Generate the client from the schema the app serves, and import it."""
    response = Client().get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps(response.json()))
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"project_name_override": PACKAGE, "package_name_override": PACKAGE}))
    result = subprocess.run(
        [sys.executable, "-m", "openapi_python_client", "generate", "--path", str(schema), "--meta", "none",
         "--config", str(config), "--output-path", str(tmp_path / PACKAGE)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    # The generator warns only about post-generation formatting (ruff is not on its PATH), never about the schema.
    skipped = [line for line in result.stdout.splitlines() if line.startswith("Unable to") or "Cannot" in line]
    assert skipped == [], result.stdout
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(tmp_path))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(f"{PACKAGE}.")]:
            del sys.modules[name]


def _api(package: ModuleType, name: str) -> Any:
    """The generated module of operation `name`: the client files each under its area (the schema's tag)."""
    areas = {"v1_me_retrieve": "sign_in", "v1_tables_retrieve": "tables"}
    area = areas.get(name, "triple_draw_rounds")
    return importlib.import_module(f"{package.__name__}.api.{area}.{name}")


def _model(package: ModuleType, name: str) -> Any:
    return getattr(importlib.import_module(f"{package.__name__}.models"), name)


def test_a_generated_client_plays_a_triple_draw_round_with_typed_answers(
    generated: ModuleType, live_server: Any, rng_table: Table, dealer_user: User, settlement: None
) -> None:
    client = generated.AuthenticatedClient(
        base_url=live_server.url, token=api_token_issue(user=dealer_user, actor=None).token, prefix="Token"
    )
    me = _api(generated, "v1_me_retrieve").sync(client=client)
    assert me.username == dealer_user.username

    table = _api(generated, "v1_tables_retrieve").sync(table_id=rng_table.pk, client=client)
    assert isinstance(table, _model(generated, "TableState"))
    assert table.name == "RNG 1"
    assert table.paytable.basis == "to_1"
    assert [seat.seat for seat in table.seats if seat.occupied] == list(range(1, 8))

    state = _api(generated, "v1_tables_rounds_create").sync(table_id=rng_table.pk, client=client)
    assert isinstance(state, _model(generated, "RoundState"))
    assert state.phase == "betting"
    assert state.seats[0].bets.additional_properties == {}

    bet = _model(generated, "RoundBetsInputRequest")
    for seat, circles in ((1, 3), (2, 1), (4, 2)):
        state = _api(generated, "v1_rounds_bets_create").sync(
            round_id=state.id, client=client, body=bet(seat=seat, amount_cents=1_000, circles=circles)
        )
    assert {seat.seat: seat.circles for seat in state.seats if seat.bet_cents} == {1: [1, 2, 3], 2: [1], 4: [1, 2]}
    assert state.totals.stakes_cents == 6 * 1_000

    state = _api(generated, "v1_rounds_close_bets_create").sync(round_id=state.id, client=client)
    assert state.paytable.name == "House Triple Draw"
    assert state.phase == "dealing"
    deal = _model(generated, "RoundDealInputRequest")
    state = _api(generated, "v1_rounds_deal_create").sync(round_id=state.id, client=client, body=deal())
    assert state.phase == "holding"
    dealt = {seat.seat: seat.dealt for seat in state.seats if seat.dealt}
    assert sorted(dealt) == [1, 2, 4]
    assert all(len(cards) == 5 for cards in dealt.values())

    hold = _model(generated, "RoundHoldsInputRequest")
    for seat, cards in dealt.items():
        state = _api(generated, "v1_rounds_holds_create").sync(
            round_id=state.id, client=client, body=hold(seat=seat, held=cards[:2])
        )
    assert state.phase == "drawing"
    assert state.missing_holds == []

    rows = _model(generated, "RoundRowsInputRequest")
    state = _api(generated, "v1_rounds_rows_create").sync(round_id=state.id, client=client, body=rows())
    assert state.phase in ("settling", "settled")
    assert len(state.rows) == 3

    deadline = time.monotonic() + 30
    while state.phase == "settling" and time.monotonic() < deadline:
        time.sleep(0.2)
        state = _api(generated, "v1_rounds_retrieve").sync(round_id=state.id, client=client)
    assert state.phase == "settled"
    outcomes = [outcome for seat in state.seats for outcome in seat.outcomes]
    assert len(outcomes) == 6
    assert all(isinstance(o.paid_cents, int) and o.hand for o in outcomes)
    assert state.totals.table_net_cents == state.totals.stakes_cents - sum(o.paid_cents for o in outcomes)

    replay = _api(generated, "v1_rounds_replay_retrieve").sync(round_id=state.id, client=client)
    assert replay.ok
    assert replay.checked
    assert replay.differences == []
    record = _api(generated, "v1_rounds_export_retrieve").sync(round_id=state.id, client=client)
    assert record.outcome.table_net_cents == state.totals.table_net_cents
    assert [seat.seat for seat in record.seats] == [1, 2, 4]
