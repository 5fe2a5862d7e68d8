"""The buy-in range a game record needs (what play_game makes its table with): the smallest buy-in, and the largest
stack a buy-in or chips added made, pots won before the chips were added included."""

from __future__ import annotations

from typing import Any

from casino.engine.home.buy_ins import buy_in_range
from casino.engine.home.record import GameRecord
from tests.engine.home_support import stacked_deck

STAKES = {"ante_cents": 100, "small_bet_cents": 200, "big_bet_cents": 400}
DECK = [str(card) for card in stacked_deck(1, {2: "2c 7d 9h Js Kc", 1: "3c 8d Th Qs Ac"})]


def _record(after: dict[str, Any], actions: tuple[str, ...] = ("2 fold",)) -> dict[str, Any]:
    """Ann and Bob sit down with $10; Bob folds the first hand: Ann has $11; then `after`."""
    return {"variant": "five-card-draw", "rules": STAKES,
            "players": [{"seat": seat, "name": name, "stack_cents": 1_000} for seat, name in ((1, "Ann"), (2, "Bob"))],
            "hands": [{"button": 1, "deck": DECK, "reshuffles": [], "actions": list(actions), "after": after}]}


def test_chips_added_to_a_stack_that_won_need_the_stack_they_make() -> None:
    assert buy_in_range(GameRecord.from_dict(_record({"chips": {"1": 100}}))) == (1_000, 1_200)


def test_without_chips_added_the_range_is_the_smallest_and_largest_buy_in() -> None:
    record = _record({"joins": [{"seat": 3, "name": "Cy", "stack_cents": 1_500}]})
    assert buy_in_range(GameRecord.from_dict(record)) == (1_000, 1_500)
    assert buy_in_range(GameRecord.from_dict(_record({}))) == (1_000, 1_000)  # Ann's $11 was won, not bought


def test_a_record_the_replay_refuses_needs_its_buy_ins_and_the_chips_added_before_the_refusal() -> None:
    record = _record({"chips": {"1": 100}, "joins": [{"seat": 3, "name": "Cy", "stack_cents": 900}]},
                     actions=("2 fold", "1 check"))  # an action after the hand's end: refused there
    assert buy_in_range(GameRecord.from_dict(record)) == (900, 1_000)
