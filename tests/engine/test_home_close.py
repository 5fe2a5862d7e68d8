"""The floor closing a game (DESIGN 7: "the floor's ruling is final") as the game record's `close` line: the carried
pot back to each player's own chips in it, or by ruling to one seat; replayed, exported, and refused with its rule."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from casino.engine.cards import ALL_CARDS
from casino.engine.home import errors as e
from casino.engine.home.errors import IllegalAction
from casino.engine.home.game import GameClose, HomeGame
from casino.engine.home.record import GameRecord, export_record
from casino.engine.home.replay import ReplayError, apply_action, replay
from casino.engine.rules.model import Rules
from tests.engine.home_support import stacked_deck

STAKES = {"ante_cents": 100, "small_bet_cents": 200, "big_bet_cents": 400}
# Seat 2 bets, seat 3 calls, seat 1 folds; seat 2's three jacks win a leg: 700 stays in the middle
# (seat 1 put in 100, seats 2 and 3 300 each).
FIRST = {"button": 1, "deck": [str(card) for card in stacked_deck(
    1, {1: "Qs Qd 9c 4c 5c", 2: "Jc Jh 4d 5d 7c", 3: "Tc 9d 4s 5s 7h"}, "Js 6d 2c 2d 3d 8d 8c 8h 3s")],
    "reshuffles": [], "actions": ["2 bet 200", "3 call", "1 fold", "2 draw 4d 5d 7c", "3 draw 4s 5s 7h", "2 check",
                                  "3 check"]}
# Seat 3 bets and is left alone (the bet uncalled goes back): a leg, and 1,000 stays (100 more from each).
SECOND = {"button": 2, "deck": [str(card) for card in ALL_CARDS], "reshuffles": [],
          "actions": ["3 bet 200", "1 fold", "2 fold"]}


def _record(*hands: dict[str, Any], close: str | None = None, **rules: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "variant": "three-legged-race", "rules": {**STAKES, **rules},
        "players": [{"seat": seat, "name": f"P{seat}", "stack_cents": 10_000} for seat in (1, 2, 3)],
        "hands": [copy.deepcopy(hand) for hand in hands]}
    if close is not None:
        record["close"] = close
    return record


def test_a_record_without_a_close_still_reads_and_keeps_the_pot_carried() -> None:
    result = replay(GameRecord.from_dict(_record(FIRST)))
    assert "close" not in result
    assert result["carried_pot_cents"] == 700
    assert result["stacks"] == {"1": 9_900, "2": 9_700, "3": 9_700}


def test_the_floor_closing_gives_each_player_their_own_chips_in_the_carried_pot_back() -> None:
    result = replay(GameRecord.from_dict(_record(FIRST, SECOND, close="floor close -- end of the session")))
    assert result["hands"][1]["legs"] == {"1": 0, "2": 1, "3": 1}
    assert result["close"] == {"reason": "end of the session", "award_seat": None, "carried_pot_cents": 1_000,
                               "paid": {"1": 200, "2": 400, "3": 400}}
    assert result["stacks"] == {"1": 10_000, "2": 10_000, "3": 10_000}
    assert result["carried_pot_cents"] == 0
    assert result["game_winner"] is None


def test_the_floor_can_award_the_whole_carried_pot_to_one_seat_by_ruling() -> None:
    result = replay(GameRecord.from_dict(_record(FIRST, close="floor close award 3 -- seat 2 conceded")))
    assert result["close"] == {"reason": "seat 2 conceded", "award_seat": 3, "carried_pot_cents": 700,
                               "paid": {"3": 700}}
    assert result["stacks"] == {"1": 9_900, "2": 9_700, "3": 10_400}
    assert result["carried_pot_cents"] == 0


def test_the_close_says_in_words_where_the_carried_pot_went() -> None:
    # The tablet's game-over notice (the last hand's result still reads "Pot ... stays in the middle").
    names = {1: "Ann", 2: "Bob", 3: "Cy"}

    def closed(line: str) -> GameClose:
        done = replay(GameRecord.from_dict(_record(FIRST, close=line)))["close"]
        paid = {int(seat): cents for seat, cents in done["paid"].items()}
        return GameClose(done["reason"], done["award_seat"], done["carried_pot_cents"], paid)

    assert closed("floor close -- end of the session").words(names) == (
        "The carried pot of $7.00 went back to the players who put it in: $1.00 to Ann, $3.00 to Bob, $3.00 to Cy")
    assert closed("floor close award 3 -- seat 2 conceded").words(names) == (
        "The carried pot of $7.00 went to Cy by the floor's ruling (seat 2 conceded)")
    assert closed("floor close award 3 -- seat 2 conceded").words() == (
        "The carried pot of $7.00 went to Seat 3 by the floor's ruling (seat 2 conceded)")
    assert GameClose("closed early", None, 0, {}).words(names) == ""  # nothing carried, nothing to say


def test_a_player_who_left_gets_their_chips_in_the_carried_pot_back_too() -> None:
    first = {**FIRST, "actions": [*FIRST["actions"], "1 leave"]}
    result = replay(GameRecord.from_dict(_record(first, close="floor close -- the game broke up")))
    assert result["close"]["paid"] == {"1": 100, "2": 300, "3": 300}
    assert result["stacks"] == {"1": 10_000, "2": 10_000, "3": 10_000}


def test_a_close_with_nothing_carried_moves_no_chips() -> None:
    result = replay(GameRecord.from_dict(_record(close="floor close award 2 -- closed before any hand")))
    assert result["close"] == {"reason": "closed before any hand", "award_seat": 2, "carried_pot_cents": 0,
                               "paid": {}}
    assert result["stacks"] == {"1": 10_000, "2": 10_000, "3": 10_000}


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("floor close award 9 -- seat 9 never played", e.NO_PLAYER),
        ("floor close -- ", e.REASON_REQUIRED),
        ("floor close award 3 --   ", e.REASON_REQUIRED),
        ("floor close award 3", "bad_action"),
        ("floor close", "bad_action"),
        ("floor close to 3 -- a typo", "bad_action"),
    ],
)
def test_a_bad_close_stops_the_replay_naming_the_line_and_the_rule(line: str, code: str) -> None:
    with pytest.raises(ReplayError) as refused:
        replay(GameRecord.from_dict(_record(FIRST, close=line)))
    assert (refused.value.code, refused.value.hand, refused.value.index, refused.value.action) == (code, 1, 0, line)
    assert refused.value.rule


def test_a_game_already_won_cannot_be_closed_by_the_floor() -> None:
    with pytest.raises(ReplayError) as refused:
        replay(GameRecord.from_dict(_record(FIRST, close="floor close -- too late", legs_to_win=1)))
    assert refused.value.code == e.GAME_OVER


def test_the_close_is_the_games_line_not_a_hands_action() -> None:
    first = {**FIRST, "actions": [*FIRST["actions"][:6], "floor close -- in the wrong place"]}
    with pytest.raises(ReplayError) as refused:
        replay(GameRecord.from_dict(_record(first)))
    assert (refused.value.code, refused.value.hand, refused.value.index) == ("bad_action", 0, 6)
    assert "\"close\"" in refused.value.reason


def test_the_close_must_be_a_line() -> None:
    with pytest.raises(Exception, match="close"):
        GameRecord.from_dict({**_record(FIRST), "close": {"award_seat": 3}})


def _played() -> HomeGame:
    table = HomeGame(Rules.announce("three-legged-race", STAKES), dict.fromkeys((1, 2, 3), 10_000))
    hand = table.start_hand(button=1, deck=GameRecord.from_dict(_record(FIRST)).hands[0].deck)
    for text in FIRST["actions"]:
        apply_action(hand, text, game=table)
    return table


def test_a_refused_close_changes_nothing_and_a_closed_game_takes_no_more_hands() -> None:
    table = _played()
    before = (dict(table.stacks), table.carried_pot_cents, dict(table.carried_contributions))
    for reason, seat in (("", None), ("", 3), ("nobody there", 9)):
        assert not table.can_close(reason, seat)
        with pytest.raises(IllegalAction):
            table.close(reason, seat)
        assert (dict(table.stacks), table.carried_pot_cents, dict(table.carried_contributions)) == before
    closed = table.close("  end   of the session ")
    assert closed.line == "floor close -- end of the session"
    assert sum(table.stacks.values()) == 30_000
    with pytest.raises(IllegalAction) as refused:
        table.close("again")
    assert refused.value.code == e.GAME_OVER
    with pytest.raises(IllegalAction) as refused:
        table.start_hand(button=2, deck=list(ALL_CARDS))
    assert refused.value.code == e.GAME_OVER
    assert not table.can_leave(2)
    with pytest.raises(IllegalAction):
        table.join(4, 5_000)
    with pytest.raises(IllegalAction):
        table.adjust(2, 100)


def test_a_hand_in_play_must_end_before_the_floor_closes_the_game() -> None:
    table = _played()
    table.start_hand(button=2, deck=list(ALL_CARDS))
    with pytest.raises(IllegalAction) as refused:
        table.close("mid-hand")
    assert refused.value.code == e.WRONG_PHASE


@pytest.mark.parametrize("award", [None, 2])
def test_an_exported_closed_game_replays_to_the_same_stacks(award: int | None) -> None:
    table = _played()
    closed = table.close("end of the session", award)
    record = export_record(table)
    assert record["close"] == closed.line
    result = replay(GameRecord.from_dict(record))
    assert result["close"] == closed.to_dict()
    assert result["stacks"] == {str(seat): stack for seat, stack in sorted(table.stacks.items())}
