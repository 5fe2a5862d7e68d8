"""The evaluate and showdown commands (DESIGN 9): readable by default, --json for machines, bad input exits 2."""

from __future__ import annotations

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def run_json(*args: str) -> Any:
    out, _ = run(*args, "--json")
    return json.loads(out)


def exit_code(*args: str) -> tuple[int, str, str]:
    out, err = StringIO(), StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command(*args, stdout=out, stderr=err)
    return int(exited.value.code or 0), out.getvalue(), err.getvalue()


# Pregnant Threes: "A player holds 3♥6♣Q♠Q♦9♦ ... the player has five queens."
def test_evaluate_prints_the_hand_for_people() -> None:
    out, _ = run("evaluate", "--variant", "pregnant-threes", "3♥ 6♣ Q♠ Q♦ 9♦")
    assert "Five queens" in out
    assert "3h 6c Qs Qd 9d" in out


def test_evaluate_json_has_category_description_and_cards() -> None:
    data = run_json("evaluate", "--variant", "pregnant-threes", "3h 6c Qs Qd 9d")
    assert data["category"] == "five_of_a_kind"
    assert data["description"] == "Five queens"
    assert [card[0] for card in data["cards"]] == ["Q"] * 5
    assert data["held"] == ["3h", "6c", "Qs", "Qd", "9d"]


def test_evaluate_accepts_cards_as_separate_arguments_and_natural_hands() -> None:
    data = run_json("evaluate", "Ks", "Kd", "Kc", "7h", "7d")
    assert data["description"] == "Kings full of sevens"
    assert data["variant"] == "five-card-draw"


def test_evaluate_takes_announced_options() -> None:
    data = run_json(
        "evaluate", "--variant", "pregnant-threes", "--option", "wild_duplicates_in_flush=false", "As 3h 8s 5s 2s"
    )
    assert data["cards"] == ["As", "Ks", "8s", "5s", "2s"]
    dead = run_json("evaluate", "--variant", "pregnant-threes", "--option", "kill_cards=Kd", "Kd 3h 8s 5s 2s")
    assert dead["dead"] is True
    assert dead["kill_cards"] == ["Kd"]


def test_evaluate_freak_of_nature_uses_the_given_or_the_hands_own_wild_rank() -> None:
    assert run_json("evaluate", "--variant", "freak-of-nature", "5h 5d 9c 9s Kh")["description"] == "Four nines"
    sixes = run_json("evaluate", "--variant", "freak-of-nature", "--wild-rank", "6", "5h 5d 9c 9s Kh")
    assert sixes["description"] == "Nines and fives"
    assert sixes["wild_rank"] == "6"


# Freak of Nature, article 3: "Neither player holds a six, so fives become wild ... A wins."
def test_showdown_freak_of_nature_example() -> None:
    out, _ = run("showdown", "--variant", "freak-of-nature", "5♥ 5♦ 9♣ 9♠ K♥", "Q♠ Q♦ Q♣ 4♥ 7♦")
    assert "Wild: fives" in out
    assert "Four nines" in out
    data = run_json("showdown", "--variant", "freak-of-nature", "5♥ 5♦ 9♣ 9♠ K♥", "Q♠ Q♦ Q♣ 4♥ 7♦")
    assert data["winners"] == [0]
    assert data["wild_rank"] == "5"
    assert [hand["description"] for hand in data["hands"]] == ["Four nines", "Three queens"]


# "Had B held a six in place of the 7♦, sixes would have been wild instead."
def test_showdown_json_with_the_six() -> None:
    data = run_json("showdown", "--variant", "freak-of-nature", "5h 5d 9c 9s Kh", "Qs Qd Qc 4h 6d")
    assert data["winners"] == [1]
    assert data["wild_rank"] == "6"


def test_showdown_ties_and_kill_cards() -> None:
    tie = run_json("showdown", "As Kd 8c 5h 2s", "Ah Kc 8d 5s 2h")
    assert tie["winners"] == [0, 1]
    assert tie["wild_rank"] is None
    killed = run_json("showdown", "--option", "kill_cards=one_eyed_jacks", "Js As Ad Ac Ah", "2c 4d 7h 8s Tc")
    assert killed["winners"] == [1]
    assert killed["hands"][0]["dead"] is True


@pytest.mark.parametrize(
    ("args", "token"),
    [
        (["evaluate", "3h 6c Qz Qd 9d"], "Qz"),
        (["evaluate", "3h 6c Qs Qd"], "3h 6c Qs Qd"),
        (["evaluate", "3h 6c Qs Qs 9d"], "Qs"),
        (["evaluate", "--variant", "omaha", "3h 6c Qs Qd 9d"], "omaha"),
        (["evaluate", "--wild", "", "3h 6c Qs Qd 9d"], ""),
        (["evaluate", "--wild", "X", "3h 6c Qs Qd 9d"], "X"),
        (["evaluate", "--option", "tie=each_scores", "3h 6c Qs Qd 9d"], "tie"),
        (["showdown", "3h 6c Qs Qd 9d", "3h 2c 4s 5d 7d"], "3h"),
        (["showdown", "--variant", "freak-of-nature", "--option", "freak_bottom=kings", "3h 6c Qs Qd 9d"], "kings"),
    ],
)
def test_bad_input_prints_one_line_naming_the_token_and_exits_2(args: list[str], token: str) -> None:
    code, out, err = exit_code(*args)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert err.startswith("error: ")
    if token:
        assert repr(token) in err or token in err
    code, out, _ = exit_code(*args, "--json")
    assert code == 2
    assert json.loads(out)["error"]["token"] == token


def test_manage_py_exits_2_on_a_bad_card() -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "evaluate", "3h 6c Qz Qd 9d"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 2
    assert "Qz" in result.stderr
