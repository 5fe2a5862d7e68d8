"""Running play_game and replay_game on a game record from the tests: its output, or its exit code when refused."""

from __future__ import annotations

import json
import re
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from tables.models import HomeGame
from tables.selectors.home_records import game_record


def run(command: str, tmp_path: Path, record: dict[str, Any], *args: str) -> str:
    """What `manage.py <command> FILE.json <args>` prints for this record. Nothing on stderr but play_game's note that
    the table it made for the record still has its game open."""
    path = tmp_path / f"{command}.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out, err = StringIO(), StringIO()
    call_command(command, str(path), *args, stdout=out, stderr=err)
    assert err.getvalue() == "" or (command == "play_game" and OPEN_NOTE.fullmatch(err.getvalue())), err.getvalue()
    return out.getvalue()


OPEN_NOTE = re.compile(r"Table 'play_game [^']+' was made for this record; its game 1 is still open \(the record does "
                       r"not close it\): the floor closes the game and the table when done with them.\n")


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
