"""Running play_game and replay_game on a game record from the tests: its output, or its exit code when refused."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command


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
