"""replay_game: a home-game record (DESIGN 9) replayed from the command line, and refused at an illegal action."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.engine.home_support import stacked_deck

STAKES = {"ante_cents": 100, "betting": "fixed_limit", "small_bet_cents": 200, "big_bet_cents": 400}
PLAYERS = [
    {"seat": 1, "name": "Ann", "stack_cents": 10_000},
    {"seat": 2, "name": "Bob", "stack_cents": 10_000},
    {"seat": 3, "name": "Cy", "stack_cents": 10_000},
]


def _deck(button: int, hands: dict[int, str], stock: str = "") -> list[str]:
    return [str(card) for card in stacked_deck(button, hands, stock)]


def _three_legged_race() -> dict[str, Any]:
    return {
        "variant": "three-legged-race",
        "rules": {**STAKES, "legs_to_win": 2},
        "players": PLAYERS,
        "hands": [
            {
                "button": 1,
                "deck": _deck(
                    1, {1: "Qs Qd 9c 4c 5c", 2: "Jc Jh 4d 5d 7c", 3: "Tc 9d 4s 5s 7h"}, "Js 6d 2c 2d 3d 8d 8c 8h 3s"
                ),
                "reshuffles": [],
                "actions": [
                    "2 check",
                    "3 check",
                    "1 check",
                    "2 draw 4d 5d 7c",
                    "3 draw 4s 5s 7h",
                    "1 draw 9c 4c 5c",
                    "2 check",
                    "3 check",
                    "1 check",
                ],
            },
            {
                "button": 2,
                "deck": _deck(2, {1: "Kc Kh 3c 4d 5h", 2: "2h 3h 6h 7d 8s", 3: "Ah Kd 4h 6s 7s"}, "2s 9s Ts Ks 9h Jd"),
                "actions": [
                    "3 bet 200",
                    "1 call",
                    "2 fold",
                    "3 draw 4h 6s 7s",
                    "1 draw 3c 4d 5h",
                    "3 bet 400",
                    "1 call",
                ],
            },
            {
                "button": 3,
                "deck": _deck(
                    3, {1: "2h 3h 4s 7d 9c", 2: "Ac Ad 5s 8s Qh", 3: "Kh Qc 2c 3s 8d"}, "Tc Jh 6c As 4c 5c Td Th 4d"
                ),
                "actions": [
                    "1 check",
                    "2 check",
                    "3 check",
                    "1 draw 2h 3h 4s",
                    "2 draw 5s 8s Qh",
                    "3 draw 2c 3s 8d",
                    "1 bet 400",
                    "2 call",
                    "3 fold",
                ],
            },
        ],
    }


def _run(tmp_path: Path, record: dict[str, Any], *args: str) -> str:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out = StringIO()
    call_command("replay_game", str(path), *args, stdout=out, stderr=out)
    return out.getvalue()


def test_a_three_legged_race_replays_to_the_documented_output(tmp_path: Path) -> None:
    result = json.loads(_run(tmp_path, _three_legged_race(), "--json"))
    assert result == {
        "hands": [
            {
                "wild_rank": None,
                "dead": [],
                "pots": [{"amount_cents": 300, "winners": []}],
                "legs": {"1": 0, "2": 1, "3": 0},
            },
            {
                "wild_rank": None,
                "dead": [],
                "pots": [{"amount_cents": 1_800, "winners": []}],
                "legs": {"1": 1, "2": 1, "3": 0},
            },
            {
                "wild_rank": None,
                "dead": [],
                "pots": [{"amount_cents": 2_900, "winners": [2]}],
                "legs": {"1": 1, "2": 2, "3": 0},
            },
        ],
        "stacks": {"1": 8_700, "2": 12_200, "3": 9_100},
        "carried_pot_cents": 0,
        "game_winner": 2,
        "game_winners": [2],
    }


def test_the_plain_output_reads_for_people(tmp_path: Path) -> None:
    text = _run(tmp_path, _three_legged_race())
    # Money in dollars with its sign, as on every other screen and report ("pot 29.00" read as a count).
    assert "pot $3.00 stays in the pot" in text
    assert "pot $29.00 won by seat 2" in text
    assert "Stacks: seat 1 $87.00, seat 2 $122.00, seat 3 $91.00" in text
    assert "Game won by seat 2" in text


def test_a_freak_of_nature_record_reports_the_wild_rank_and_a_kill(tmp_path: Path) -> None:
    record = {
        "variant": "freak-of-nature",
        "rules": {**STAKES, "kill_cards": ["Kd"]},
        "players": PLAYERS,
        "hands": [
            {
                "button": 3,
                "deck": _deck(3, {1: "5h 5d 9c 9s Kh", 2: "Qs Qd Qc 4h 7d", 3: "Kd 2c 3c 8h Jd"}),
                "actions": ["1 check", "2 check", "1 draw", "2 draw", "1 bet 400", "2 call"],
            }
        ],
    }
    result = json.loads(_run(tmp_path, record, "--json"))
    assert result["hands"] == [
        {"wild_rank": "5", "dead": [3], "pots": [{"amount_cents": 1_100, "winners": [1]}], "legs": {}}
    ]
    assert result["stacks"] == {"1": 10_600, "2": 9_500, "3": 9_900}


def test_an_illegal_action_stops_the_replay_with_exit_1_naming_it(tmp_path: Path) -> None:
    record = _three_legged_race()
    record["hands"][1]["actions"][3] = "3 draw 4h 6s"  # two cards: Three Legged Race needs exactly three
    with pytest.raises(SystemExit) as stopped:
        _run(tmp_path, record, "--json")
    assert stopped.value.code == 1


def test_the_refusal_names_the_action_its_index_and_the_rule(tmp_path: Path) -> None:
    record = _three_legged_race()
    record["hands"][0]["actions"][1] = "1 check"  # seat 3 is to act
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out, err = StringIO(), StringIO()
    with pytest.raises(SystemExit):
        call_command("replay_game", str(path), stdout=out, stderr=err)
    message = err.getvalue()
    assert "hands[0].actions[1] = '1 check'" in message
    assert "out_of_turn" in message
    assert "players act in turn" in message

    out = StringIO()
    with pytest.raises(SystemExit):
        call_command("replay_game", str(path), "--json", stdout=out)
    assert json.loads(out.getvalue())["error"] | {"message": ""} == {
        "code": "out_of_turn",
        "message": "",
        "rule": "players act in turn, clockwise from the dealer's left",
        "hand": 0,
        "index": 1,
        "action": "1 check",
    }


def test_a_record_with_a_missing_announcement_is_refused(tmp_path: Path) -> None:
    record = {
        "variant": "pregnant-threes",
        "rules": {**STAKES, "draws": 2, "cards_per_draw": 3},
        "players": PLAYERS,
        "hands": [],
    }
    with pytest.raises(SystemExit):
        _run(tmp_path, record)


def test_a_missing_file_is_a_command_error(tmp_path: Path) -> None:
    with pytest.raises(CommandError):
        call_command("replay_game", str(tmp_path / "nope.json"))


def _manual_freak_of_nature() -> dict[str, Any]:
    # Freak of Nature, article 3: "Neither player holds a six, so fives become wild ... A wins." Played with physical
    # cards: the record holds the betting, the counts drawn and the hands shown, not a deck.
    return {
        "variant": "freak-of-nature",
        "rules": {**STAKES, "kill_cards": ["Kd"]},
        "players": PLAYERS,
        "hands": [
            {
                "button": 3,
                "manual": True,
                "actions": ["1 check", "2 check", "3 killed Kd", "1 draw 1", "2 draw 2", "1 bet 400", "2 call",
                            "2 show Qs Qd Qc 4h 7d", "1 show 5h 5d 9c 9s Kh"],
            },
            {
                "button": 1,
                "deck": _deck(1, {1: "Qs Qd 9c 4c 5c", 2: "Jc Jh 4d 5d 7c", 3: "Tc 9d 4s 5s 7h"}),
                "actions": ["2 fold", "3 fold"],
            },
        ],
    }


def _manual_muck() -> dict[str, Any]:
    # Freak of Nature with physical cards: Cy mucks at the showdown, so fives are wild from the two hands shown.
    return {
        "variant": "freak-of-nature",
        "rules": STAKES,
        "players": PLAYERS,
        "hands": [{
            "button": 3,
            "manual": True,
            "actions": ["1 check", "2 check", "3 check", "1 draw 1", "2 draw 2", "3 draw 0", "1 bet 400", "2 call",
                        "3 call", "3 muck", "2 show Qs Qd Qc 4h 7d", "1 show 5h 5d 9c 9s Kh"],
        }],
    }


def test_a_manual_hand_with_a_muck_replays_to_the_shown_hands_result(tmp_path: Path) -> None:
    result = json.loads(_run(tmp_path, _manual_muck(), "--json"))
    assert result["hands"] == [{"wild_rank": "5", "dead": [], "pots": [{"amount_cents": 1_500, "winners": [1]}],
                                "legs": {}}]
    assert result["stacks"] == {"1": 11_000, "2": 9_500, "3": 9_500}


def test_a_manual_hand_replays_from_its_counts_kills_and_shown_hands(tmp_path: Path) -> None:
    result = json.loads(_run(tmp_path, _manual_freak_of_nature(), "--json"))
    assert result["hands"] == [
        {"wild_rank": "5", "dead": [3], "pots": [{"amount_cents": 1_100, "winners": [1]}], "legs": {}},
        {"wild_rank": None, "dead": [], "pots": [{"amount_cents": 300, "winners": [1]}], "legs": {}},
    ]
    assert result["stacks"] == {"1": 10_800, "2": 9_400, "3": 9_800}
    text = _run(tmp_path, _manual_freak_of_nature())
    assert text.splitlines()[:2] == ["Hand 1, wild rank 5, dead: 3", "  pot $11.00 won by seat 1"]


@pytest.mark.parametrize(
    ("index", "action", "code"),
    [
        (8, "1 show 5h 5d 9c Qs Kh", "card_already_seen"),  # the queen of spades is in seat 2's hand
        (3, "1 draw 4", "wrong_discard_count"),  # four only keeping an ace
        (2, "3 killed Ks", "not_a_kill_card"),
        (3, "1 draw 3c 4d", "bad_action"),  # a manual hand records the count, not the cards
    ],
)
def test_an_illegal_manual_action_stops_the_replay_naming_it(
    tmp_path: Path, index: int, action: str, code: str
) -> None:
    record = _manual_freak_of_nature()
    record["hands"][0]["actions"][index] = action
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out = StringIO()
    with pytest.raises(SystemExit) as stopped:
        call_command("replay_game", str(path), "--json", stdout=out)
    assert stopped.value.code == 1
    error = json.loads(out.getvalue())["error"]
    assert (error["code"], error["hand"], error["index"], error["action"]) == (code, 0, index, action)


def test_a_manual_hand_with_a_deck_is_refused(tmp_path: Path) -> None:
    record = _manual_freak_of_nature()
    record["hands"][0]["deck"] = record["hands"][1]["deck"]
    with pytest.raises(SystemExit) as stopped:
        _run(tmp_path, record)
    assert stopped.value.code == 1


def test_the_plain_output_names_the_earlier_player_of_a_seat_and_what_the_close_paid_them(tmp_path: Path) -> None:
    from tests.engine.test_home_seat_reuse import FIRST, SECOND
    from tests.engine.test_home_seat_reuse import _record as seat_reuse_record

    text = _run(tmp_path, seat_reuse_record(FIRST, SECOND, close="floor close -- end of the session"))
    # Ann left seat 1 to Dee: her dollar in the carried pot is hers, and she took $100 home.
    assert ("carried pot $10.00 back to its contributors: seat 1 $1.00, seat 2 $4.00, seat 3 $4.00, "
            "seat 1's player 1 $1.00") in text
    assert "Earlier players: seat 1's player 1 $100.00" in text
