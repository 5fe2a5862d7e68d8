"""`python manage.py analyze_paytable FILE.json` or `--paytable ID` (DESIGN 9): the exact analysis, readable by
default, `--json` for machines; a bad file is one clear line and exit code 1 (as play_game and replay_game)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.paytables.factories import make_paytable

ROOT = Path(__file__).resolve().parents[2]
STANDARD = ROOT / "paytables" / "standard"


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("analysis-cache")


def run(*args: str, cache_dir: Path) -> str:
    out = StringIO()
    call_command("analyze_paytable", *args, "--cache-dir", str(cache_dir), stdout=out)
    return out.getvalue()


def test_a_paytable_file_is_analysed_into_readable_figures(cache_dir: Path) -> None:
    text = run(str(STANDARD / "jacks_or_better_9_6.json"), cache_dir=cache_dir)
    assert "Jacks or Better 9/6 (for 1)" in text
    assert "return         0.995439" in text
    assert "hit frequency  0.454565" in text
    assert "493,512,264" in text  # the royal flush's combinations
    assert "one_pair J+                  1       0" in text  # pays in both bases
    assert "10,872,274,993,896" in text  # no line


def test_json_output_has_the_design_9_fields(cache_dir: Path) -> None:
    data = json.loads(run(str(STANDARD / "bonus_poker_8_5.json"), "--json", cache_dir=cache_dir))
    assert {"return", "hit_frequency", "variance", "lines"} <= set(data)
    assert round(data["return"], 6) == 0.991660
    assert [line["hand"] for line in data["lines"]][:3] == ["royal_flush", "straight_flush", "four_of_a_kind"]
    assert data["lines"][2]["ranks"] == ["A"]
    assert all(isinstance(line["combinations"], int) for line in data["lines"])


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "is not JSON"),
        ('{"basis": "for_1", "lines": [{"hand": "royal", "pays": 800}]}', "unknown hand code 'royal'"),
        ('{"basis": "for_1", "lines": [{"hand": "flush", "pays": -1}]}', "pays must not be negative"),
    ],
)
def test_a_bad_file_is_refused_with_exit_code_1(content: str, message: str, tmp_path: Path, cache_dir: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(CommandError, match=message) as raised:
        run(str(path), cache_dir=cache_dir)
    assert raised.value.returncode == 1


def test_a_missing_file_or_no_argument_is_refused(tmp_path: Path, cache_dir: Path) -> None:
    with pytest.raises(CommandError, match="cannot read") as raised:
        run(str(tmp_path / "missing.json"), cache_dir=cache_dir)
    assert raised.value.returncode == 1
    with pytest.raises(CommandError, match=r"FILE\.json or --paytable ID") as raised:
        run(cache_dir=cache_dir)
    assert raised.value.returncode == 1


def test_from_the_shell_a_bad_file_prints_one_line_and_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"basis": "for_1", "lines": [{"hand": "four_wild", "pays": 200}]}')
    env = dict(os.environ, CASINO_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("DATABASE_URL", None)
    done = subprocess.run(
        [sys.executable, "manage.py", "analyze_paytable", str(path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        f"CommandError: bad paytable in {path}: line 1 (four_wild): four_wild needs wild_ranks on the paytable"
    ]


@pytest.mark.django_db
def test_a_stored_paytable_is_analysed_by_id(cache_dir: Path) -> None:
    paytable = make_paytable("tens_or_better_6_5")
    data = json.loads(run("--paytable", str(paytable.pk), "--json", cache_dir=cache_dir))
    assert round(data["return"], 6) == 0.991388


@pytest.mark.django_db
def test_an_unknown_paytable_id_is_refused_with_exit_code_1(cache_dir: Path) -> None:
    with pytest.raises(CommandError, match="paytable 999999 does not exist") as raised:
        run("--paytable", "999999", cache_dir=cache_dir)
    assert raised.value.returncode == 1
