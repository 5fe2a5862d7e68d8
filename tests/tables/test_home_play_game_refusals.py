"""play_game refuses what replay_game refuses, in the same words: house charges other than the table's announced
charge, a stock the record does not hold, and the refusals the services name by code only; a --user who cannot act
is a one-line error. The records are the tester's (tests/tables/data/home_records/)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError

from tables.models import HomeGame, Table
from tables.services.home_games import game_open
from tests.tables.home_commands import refused, run

RECORDS = Path(__file__).parent / "data" / "home_records"


def record(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RECORDS / f"{name}.json").read_text(encoding="utf-8"))
    return data


def both_refuse(tmp_path: Path, data: dict[str, Any], *args: str) -> dict[str, Any]:
    """Both commands stop with exit 1 and the same JSON error (and the same words without --json); the error."""
    replayed = refused("replay_game", tmp_path, data, "--json")
    played = refused("play_game", tmp_path, data, "--json", *args)
    assert replayed[0] == played[0] == 1
    assert json.loads(played[1]) == json.loads(replayed[1])
    assert refused("play_game", tmp_path, data, *args)[1] == refused("replay_game", tmp_path, data)[1]
    assert not HomeGame.objects.exists()  # nothing of the refused record is stored
    error: dict[str, Any] = json.loads(played[1])["error"]
    assert error["rule"]
    return error


@pytest.mark.parametrize("name", [
    "fcd_rake_wrong", "fcd_rake_antes_only", "fcd_reshuffle_missing", "fcd_reshuffle_bad", "fon_award_noreason",
    "fon_award_then_action", "tlr_forced_fold", "fcd_manual_ace_missing",
])
def test_play_game_refuses_as_replay_game_does_in_the_same_words_with_the_rule(
    tmp_path: Path, floor_user: User, name: str
) -> None:
    both_refuse(tmp_path, record(name))


def test_a_rake_other_than_the_announced_rake_is_refused_naming_the_hand_and_the_rule(
    tmp_path: Path, floor_user: User
) -> None:
    # 10 % of the $14 pot is $1.40 (under the $1.50 cap); the record says $0.50.
    error = both_refuse(tmp_path, record("fcd_rake_wrong"))
    assert error == {
        "code": "house_charge",
        "message": "hand 0, after: the record's rake from seat 1 is $0.50; the announced rake (10% of each pot bet "
                   "into, at most $1.50) takes $1.40",
        "rule": "the house takes only the charge its table announced: rake (10% of each pot bet into, at most $1.50)",
        "hand": 0, "index": 6, "action": "after",
    }


def test_no_rake_on_a_hand_of_antes_only(tmp_path: Path, floor_user: User) -> None:
    error = both_refuse(tmp_path, record("fcd_rake_antes_only"))
    assert (error["hand"], error["code"]) == (1, "house_charge")
    assert "from seat 2 is $0.20" in error["message"]
    assert error["message"].endswith("takes $0.00")


def test_the_right_rake_plays_and_round_trips(tmp_path: Path, floor_user: User) -> None:
    data = record("fcd_rake")
    played = json.loads(run("play_game", tmp_path, data, "--json"))
    assert played == json.loads(run("replay_game", tmp_path, data, "--json"))


@pytest.mark.parametrize(("where", "hand"), [("before", 0), ("after", 0)])
def test_a_time_charge_other_than_the_announced_one_is_refused(
    tmp_path: Path, floor_user: User, where: str, hand: int
) -> None:
    data = copy.deepcopy(record("fcd_time"))  # $5.00 a seat
    if where == "before":
        data["before"]["house"]["2"] = 400
    else:
        data["hands"][0]["after"]["house"]["2"] = 400
    error = both_refuse(tmp_path, data)
    assert (error["code"], error["hand"], error["action"]) == ("house_charge", hand, where)
    assert "time charge from seat 2 is $4.00" in error["message"]


def test_no_time_charge_after_the_last_hand(tmp_path: Path, floor_user: User) -> None:
    data = copy.deepcopy(record("fcd_time"))
    data["hands"][-1]["after"] = {"house": {"1": 500}}
    error = both_refuse(tmp_path, data)
    assert (error["code"], error["hand"], error["action"]) == ("house_charge", 1, "after")


def test_a_record_without_its_charge_is_checked_against_the_table_it_plays_on(
    tmp_path: Path, floor_user: User, home_table: Callable[..., Table]
) -> None:
    # replay_game cannot check a record that does not say its charge; the table's services take theirs and
    # play_game refuses where the record says otherwise.
    data = record("fcd_rake_wrong")
    del data["house"]
    assert json.loads(run("replay_game", tmp_path, data, "--json"))["stacks"]["1"] == 10550
    table = home_table("five-card-draw", charge="rake", rake_basis_points=1_000, rake_cap_cents=150)
    code, out = refused("play_game", tmp_path, data, "--json", "--table", table.name)
    assert code == 1
    error = json.loads(out)["error"]
    assert (error["code"], error["hand"], error["action"]) == ("house_charge", 0, "after")
    assert "takes $1.40" in error["message"]


def test_a_stock_the_record_does_not_hold_is_never_dealt(tmp_path: Path, floor_user: User) -> None:
    # Seven players drawing three each run the stock out at action 12; the record gives no reshuffle.
    error = both_refuse(tmp_path, record("fcd_reshuffle_missing"))
    assert (error["code"], error["hand"], error["index"], error["action"]) == (
        "bad_reshuffle", 0, 12, "6 draw 4s Jh 5c")
    assert error["message"] == ("hand 0, action 12 ('6 draw 4s Jh 5c'): the stock ran out and the record gives no "
                                "reshuffle")


@pytest.mark.parametrize("who", ["dealer_user", "compliance_user"])
def test_a_user_who_may_not_make_a_table_is_a_one_line_error(
    tmp_path: Path, floor_user: User, who: str, request: pytest.FixtureRequest
) -> None:
    user: User = request.getfixturevalue(who)
    with pytest.raises(CommandError) as stopped:
        run("play_game", tmp_path, record("fon_example"), "--user", user.username)
    message = str(stopped.value)
    assert "\n" not in message
    assert message.startswith(f"{user.username} cannot make a table for the record")
    assert "--table" in message
    assert not HomeGame.objects.exists()


def test_an_unknown_user_is_named(tmp_path: Path, floor_user: User) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record("fon_example")), encoding="utf-8")
    with pytest.raises(CommandError, match="no active user named 'nosuchuser'"):
        call_command("play_game", str(path), "--user", "nosuchuser", stdout=StringIO())


def test_a_leave_at_an_empty_seat_is_refused_in_replay_games_words(tmp_path: Path, floor_user: User) -> None:
    # Seat 5 never sat down: play_game said the service's "nobody is seated at seat 5 in this game".
    data = copy.deepcopy(record("fcd_rake"))
    data["hands"][0]["actions"].append("5 leave")
    error = both_refuse(tmp_path, data)
    assert error == {
        "code": "not_in_hand",
        "message": "hand 0, action 6 ('5 leave'): seat 5 is not in the game",
        "rule": "only a seated player can leave",
        "hand": 0, "index": 6, "action": "5 leave",
    }


def test_a_table_with_a_game_open_or_other_rules_is_named_not_the_record(
    tmp_path: Path, floor_user: User, dealer_user: User, home_table: Callable[..., Table]
) -> None:
    # Found by the API's user test: a table whose game was open stopped the record at "hands[0].actions[-1] =
    # 'open'", blaming the record; other rules said only "does not announce the record's rules".
    data = record("fon_example")
    table = home_table("freak-of-nature", rules=dict(data["rules"]))
    game_open(table=table, actor=dealer_user, players=[{"seat": 1, "name": "Ann", "buy_in_cents": 5_000}])
    with pytest.raises(CommandError, match=f"table {table.name} has game 1 open: the floor closes it first"):
        run("play_game", tmp_path, data, "--table", table.name)
    other = home_table("freak-of-nature", rules={**data["rules"], "ante_cents": data["rules"]["ante_cents"] + 100})
    with pytest.raises(CommandError) as stopped:
        run("play_game", tmp_path, data, "--table", other.name)
    assert f"ante_cents: table {data['rules']['ante_cents'] + 100}, record {data['rules']['ante_cents']}" in str(
        stopped.value)


def test_a_table_made_for_a_record_that_leaves_its_game_open_is_said_on_stderr(
    tmp_path: Path, floor_user: User
) -> None:
    # The table stands on the floor's live view, its game in play, until the floor closes it: the operator is told;
    # stdout stays replay_game's.
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record("fon_example")), encoding="utf-8")
    out, err = StringIO(), StringIO()
    call_command("play_game", str(path), stdout=out, stderr=err)
    assert "is still open (the record does not close it)" in err.getvalue()
    assert out.getvalue() == run("replay_game", tmp_path, record("fon_example"))
