"""announcement_refusals: every wrong option of an announcement at once, each by name, and nothing exactly when
Rules.announce accepts it (it stays the authority: the combination is judged by it, once each option passes alone)."""

from __future__ import annotations

import pytest

from casino.engine.errors import AnnouncementError
from casino.engine.rules.model import Rules
from casino.engine.rules.refusals import announcement_refusals

STAKES = {"ante_cents": 100, "small_bet_cents": 200, "big_bet_cents": 400}
THREES = {"draws": 1, "cards_per_draw": 3, "draw": "optional"}  # Pregnant Threes must announce its draws


def refused(variant: str, data: dict[str, object]) -> dict[str, str]:
    return {exc.option or "": exc.message for exc in announcement_refusals(variant, data)}


def test_each_wrong_option_is_named_in_one_answer() -> None:
    wrong = refused("five-card-draw", {**STAKES, "max_discard": 9, "kill_cards": "Zz", "five_of_a_kind": "top"})
    assert set(wrong) == {"max_discard", "kill_cards", "five_of_a_kind"}
    assert wrong["max_discard"] == "option max_discard must be an integer 0-5, got 9"
    assert wrong["five_of_a_kind"].startswith("option five_of_a_kind must be one of ")


def test_fixed_limit_bets_under_no_limit_are_each_refused_by_name() -> None:
    wrong = refused("three-legged-race", {**STAKES, "betting": "no_limit", "min_bet_cents": 300})
    assert wrong == {
        "small_bet_cents": "option small_bet_cents applies only to fixed_limit betting, not no_limit",
        "big_bet_cents": "option big_bet_cents applies only to fixed_limit betting, not no_limit (it stands in only "
                         "for min_bet_cents when that is not announced)",
    }


def test_a_missing_option_is_named_beside_a_wrong_one() -> None:
    wrong = refused("pregnant-threes", {**THREES, "small_bet_cents": 200, "big_bet_cents": 400, "draws": 7})
    assert set(wrong) == {"ante_cents", "draws"}
    assert wrong["ante_cents"] == "option ante_cents must be announced before the deal (Pregnant Threes)"


def test_the_combination_is_judged_once_each_option_passes_alone() -> None:
    data = {**STAKES, "wild_ranks": ["J"], "kill_cards": ["Js"]}
    assert refused("five-card-draw", data) == {
        "kill_cards": "card Js cannot be both wild and a kill card (jacks are announced wild in wild_ranks)"}
    low_ace = {**STAKES, "max_discard": 3, "max_discard_with_ace": 2}
    assert list(refused("freak-of-nature", low_ace)) == ["max_discard_with_ace"]
    # Each alone would pass with the other's default: together they are right, as announce says.
    assert refused("freak-of-nature", {**STAKES, "max_discard": 1, "max_discard_with_ace": 2}) == {}


@pytest.mark.parametrize(("variant", "data"), [
    ("five-card-draw", STAKES),
    ("five-card-draw", {"ante_cents": 100, "betting": "no_limit", "big_bet_cents": 400}),  # the big bet stands in
    ("five-card-draw", {**STAKES, "betting": "pot_limit"}),
    ("five-card-draw", {**STAKES, "tie": "each_scores"}),  # not this game's option
    ("pregnant-threes", {**STAKES, "draws": 2, "cards_per_draw": 2, "draw": "mandatory"}),
    ("pregnant-threes", {**STAKES, **THREES, "kill_cards": ["3s"]}),
    ("pregnant-threes", STAKES),  # its draws left out
    ("three-legged-race", {**STAKES, "legs_to_win": 0}),
    ("freak-of-nature", {**STAKES, "freak_bottom": "aces", "kill_cards": ["Ah"]}),
    ("triple-draw", {}),
])
def test_it_refuses_exactly_what_announce_refuses(variant: str, data: dict[str, object]) -> None:
    try:
        Rules.announce(variant, data)
        first = None
    except AnnouncementError as exc:
        first = exc.option
    options = {refusal.option for refusal in announcement_refusals(variant, data)}
    if first is None:
        assert options == set()
    else:
        assert first in options


def test_every_combination_refused_is_named_not_only_the_first() -> None:
    """The big bet below the small bet and a wild kill card, in one answer (the kill card came only once the bets
    were put right); and a combination beside an option wrong on its own."""
    data = {**THREES, "ante_cents": 100, "small_bet_cents": 400, "big_bet_cents": 200, "kill_cards": ["3h", "Kd"]}
    wrong = refused("pregnant-threes", data)
    assert set(wrong) == {"big_bet_cents", "kill_cards"}
    assert wrong["kill_cards"].startswith("card 3h cannot be both wild and a kill card")
    aces = {**STAKES, "freak_bottom": "aces", "kill_cards": ["As"], "max_discard": 3, "max_discard_with_ace": 2}
    assert set(refused("freak-of-nature", aces)) == {"max_discard_with_ace", "kill_cards"}
    alone = {**STAKES, "legs_to_win": 9, "wild_ranks": ["J"], "kill_cards": ["Js"]}
    assert set(refused("three-legged-race", alone)) == {"legs_to_win", "kill_cards"}
