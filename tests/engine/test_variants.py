"""Variant registry and announced options with their defaults (DESIGN 7)."""

from __future__ import annotations

import pytest

from casino.engine.cards import Rank, parse_cards
from casino.engine.errors import RulesError, UnknownVariantError
from casino.engine.variants import VARIANTS, get_variant


def test_registry_holds_the_five_variant_codes() -> None:
    assert set(VARIANTS) == {"five-card-draw", "pregnant-threes", "three-legged-race", "freak-of-nature", "triple-draw"}
    assert all(rules.code == code for code, rules in VARIANTS.items())


# Pregnant Threes: "All threes, sixes and nines are wild: twelve wild cards in the deck."
def test_pregnant_threes_has_twelve_wild_cards() -> None:
    rules = get_variant("pregnant-threes")
    assert rules.wild.ranks == {Rank.THREE, Rank.SIX, Rank.NINE}
    assert len(rules.wild.indices) == 12


def test_pregnant_threes_announced_draws_and_mandatory_draw() -> None:
    rules = get_variant("pregnant-threes", draws=2, cards_per_draw=3, draw="mandatory")
    assert (rules.draws, rules.cards_per_draw, rules.draw_is_mandatory) == (2, 3, True)
    defaults = get_variant("pregnant-threes")
    assert (defaults.draws, defaults.cards_per_draw, defaults.draw) == (1, 3, "optional")


# Three Legged Race: "for up to six players"; "Every player still in the hand shall discard exactly three cards".
def test_three_legged_race_defaults() -> None:
    rules = get_variant("three-legged-race")
    assert rules.max_players == 6
    assert (rules.cards_per_draw, rules.draw) == (3, "mandatory")
    assert (rules.legs_to_win, rules.uncontested_scores_leg, rules.tie, rules.forced_play) == (
        2,
        True,
        "each_scores",
        False,
    )
    assert not rules.wild


# "Wild cards. The dealer may name a wild card before the game begins."
def test_three_legged_race_may_name_a_wild_card() -> None:
    assert get_variant("three-legged-race", wild_ranks=["2"]).wild.ranks == {Rank.TWO}
    assert get_variant("three-legged-race", wild_cards="Js").wild.cards == set(parse_cards("Js"))


def test_freak_of_nature_slides_and_defaults_to_no_wild_at_the_bottom() -> None:
    rules = get_variant("freak-of-nature")
    assert rules.sliding_wild
    assert rules.has_wild_cards
    assert rules.freak_bottom == "no_wild"
    assert get_variant("freak-of-nature", freak_bottom="aces").freak_bottom == "aces"


def test_five_card_draw_discards_three_or_four_keeping_an_ace() -> None:
    rules = get_variant("five-card-draw")
    assert rules.max_discard() == 3
    assert rules.max_discard(keeps_ace=True) == 4


def test_hand_options_are_announced_per_game() -> None:
    rules = get_variant("pregnant-threes", five_of_a_kind="below_straight_flush", wild_duplicates_in_flush=False)
    assert rules.options.five_of_a_kind == "below_straight_flush"
    assert rules.options.wild_duplicates_in_flush is False


def test_unknown_variant_names_the_code() -> None:
    with pytest.raises(UnknownVariantError) as error:
        get_variant("seven-card-stud")
    assert error.value.token == "seven-card-stud"


@pytest.mark.parametrize(
    ("code", "options", "token"),
    [
        ("triple-draw", {"kill_cards": ["Kd"]}, "kill_cards"),
        ("five-card-draw", {"legs_to_win": 3}, "legs_to_win"),
        ("three-legged-race", {"legs_to_win": 9}, "9"),
        ("three-legged-race", {"tie": "coin_flip"}, "coin_flip"),
        ("pregnant-threes", {"draw": "sometimes"}, "sometimes"),
        ("pregnant-threes", {"kill_cards": ["Kx"]}, "Kx"),
        ("five-card-draw", {"wild_ranks": ["Z"]}, "Z"),
        ("three-legged-race", {"forced_play": "yes"}, "yes"),
        ("five-card-draw", {"wild_cards": ["Kd"], "kill_cards": ["Kd"]}, "Kd"),
    ],
)
def test_bad_announced_options_name_the_offending_value(code: str, options: dict[str, object], token: str) -> None:
    with pytest.raises(RulesError) as error:
        get_variant(code, **options)
    assert error.value.token == token


def test_rules_dict_records_every_announced_option() -> None:
    rules = get_variant("three-legged-race", ante_cents=100, small_bet_cents=200, big_bet_cents=400, legs_to_win=3)
    data = rules.rules_dict()
    assert data["legs_to_win"] == 3
    assert data["ante_cents"] == 100
    assert data["tie"] == "each_scores"
    rules.verify_stakes()
    with pytest.raises(RulesError):
        get_variant("three-legged-race").verify_stakes()


@pytest.mark.parametrize(
    ("code", "options"),
    [
        ("pregnant-threes", {"kill_cards": ["Kd", "Js"], "draws": 2, "draw": "mandatory", "ante_cents": 50}),
        ("three-legged-race", {"wild_ranks": ["2"], "legs_to_win": 3, "tie": "nobody_scores"}),
        ("freak-of-nature", {"freak_bottom": "aces", "five_of_a_kind": "below_straight_flush"}),
        ("five-card-draw", {"wild_cards": ["Js", "Jh"], "max_discard": 4, "betting": "no_limit"}),
        ("triple-draw", {}),
    ],
)
def test_rules_dict_gives_the_same_rules_back(code: str, options: dict[str, object]) -> None:
    rules = get_variant(code, **options)
    data = rules.rules_dict()
    for name, value in options.items():
        assert sorted(data[name]) == sorted(value) if isinstance(value, list) else data[name] == value
    assert get_variant(code, **data) == rules
