"""Running play_game and replay_game on a game record from the tests: its output, or its exit code when refused."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from tables.models import HomeGame
from tables.selectors.home_records import game_record


def run(command: str, tmp_path: Path, record: dict[str, Any], *args: str) -> str:
    """What `manage.py <command> FILE.json <args>` prints (stdout and stderr) for this record."""
    path = tmp_path / f"{command}.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out = StringIO()
    call_command(command, str(path), *args, stdout=out, stderr=out)
    return out.getvalue()


def refused(command: str, tmp_path: Path, record: dict[str, Any], *args: str) -> tuple[int | str | None, str]:
    """The exit code and output of a command that must stop on this record."""
    path = tmp_path / f"{command}-refused.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out = StringIO()
    with pytest.raises(SystemExit) as stopped:
        call_command(command, str(path), *args, stdout=out, stderr=out)
    return stopped.value.code, out.getvalue()


def plays_again(record: dict[str, Any], tmp_path: Path) -> dict[str, Any]:
    """play_game prints what replay_game does for this record, and the game it played exports the same hands; returns
    what replay_game printed."""
    replayed: dict[str, Any] = json.loads(run("replay_game", tmp_path, record, "--json"))
    assert json.loads(run("play_game", tmp_path, record, "--json")) == replayed
    again = game_record(HomeGame.objects.order_by("-pk").first())  # type: ignore[arg-type]
    assert again["hands"] == record["hands"]
    return replayed
