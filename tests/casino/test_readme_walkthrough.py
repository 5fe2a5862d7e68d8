"""The README's API walkthrough works as written: its shell lines, extracted from the README, play a round on a live
server seeded by seed_demo, exactly as a new user pastes them."""

from __future__ import annotations

import re
import subprocess
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command

from tables.models import HomeHand, Round, Seat, Table

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]
README = Path(__file__).resolve().parents[2] / "README.md"
SECTION = "## Your first round through the API"


def blocks() -> list[str]:
    """The ```sh blocks of the walkthrough section, in order: a Triple Draw round, then a home-game hand."""
    text = README.read_text()
    assert SECTION in text, "the README lost its API walkthrough"
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    found = re.findall(r"```sh\n(.*?)```", section, re.S)
    assert len(found) == 2, "the walkthrough has a Triple Draw block and a home-game block"
    return found


def walkthrough() -> str:
    """The Triple Draw part, as pasted into a fresh shell."""
    return blocks()[0]


@pytest.fixture
def settlement(request: pytest.FixtureRequest) -> None:
    """Settlement runs where it runs in production: a real Celery worker when REDIS_URL is set, else eagerly."""
    if settings.REDIS_URL:
        request.getfixturevalue("celery_worker")


def run_walkthrough(live_server: Any, lines: str | None = None) -> subprocess.CompletedProcess[str]:
    script = "set -euo pipefail\n" + (walkthrough() if lines is None else lines)
    return subprocess.run(
        ["bash", "-c", script],
        env={"API": f"{live_server.url}/api/v1", "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def test_the_readme_walkthrough_plays_a_round_to_settled_twice(settlement: None, live_server: Any) -> None:
    call_command("seed_demo", "--force", stdout=StringIO())
    table = Table.objects.get(name="Triple Draw 1")
    before = set(Round.objects.filter(table=table).values_list("pk", flat=True))

    for attempt in (1, 2):  # the players leave at the end, so pasting it again works too
        result = run_walkthrough(live_server)
        assert result.returncode == 0, f"attempt {attempt}:\n{result.stdout}\n{result.stderr}"
        last = result.stdout.strip().splitlines()[-1]
        seat = r"\((\d), 1500, \d+, -?\d+\)"  # (seat, stake, return, net): $5 on each of three circles
        assert re.fullmatch(rf"\('(settled|awaiting_approval)', \[{seat}, {seat}\]\)", last), last

    played = Round.objects.filter(table=table).exclude(pk__in=before)
    assert played.count() == 2
    assert all(r.phase in {"settled", "awaiting_approval"} for r in played)
    assert not Seat.objects.filter(table=table, occupied=True).exists()


def test_a_wrong_password_stops_the_walkthrough_at_its_first_step(live_server: Any) -> None:
    call_command("seed_demo", "--force", stdout=StringIO())
    rounds = Round.objects.count()
    result = run_walkthrough(live_server, walkthrough().replace("dealer-demo-pw", "not-the-password"))
    assert result.returncode != 0
    assert "returned error: 400" in result.stderr
    assert Round.objects.count() == rounds
    assert not Seat.objects.filter(table__name="Triple Draw 1", occupied=True).exists()


def test_the_readme_home_hand_plays_a_hand_to_settled_with_its_result_in_words(
    settlement: None, live_server: Any
) -> None:
    call_command("seed_demo", "--force", stdout=StringIO())
    result = run_walkthrough(live_server, "\n".join(blocks()))
    assert result.returncode == 0, f"{result.stdout}\n{result.stderr}"
    last = result.stdout.strip().splitlines()[-1]
    assert last.startswith("('settled', ['"), last
    assert "Pot $" in last, last
    hand = HomeHand.objects.filter(game__table__name="Five Card Draw 1").latest("number")
    assert hand.number == 4  # the walkthrough's, after the three the demo played
    assert hand.status == "settled"
    assert hand.ledger_entries.filter(kind="award").exists()  # the pot went to its winner
