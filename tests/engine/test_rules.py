"""The one rules model (DESIGN 7 table): options per variant, defaults, errors naming the option, to_dict."""

from __future__ import annotations

import pytest

from casino.engine.cards import Rank, parse_cards
from casino.engine.errors import AnnouncementError, RulesError, UnknownVariantError
from casino.engine.rules.model import DiscardRule, Rules
from casino.engine.rules.options import OPTIONS, option_specs

STAKES = {"ante_cents": 100, "small_bet_cents": 200, "big_bet_cents": 400}
COMMON = ["ante_cents", "betting", "small_bet_cents", "big_bet_cents", "min_bet_cents", "kill_cards",
          "five_of_a_kind", "wild_duplicates_in_flush"]


# DESIGN 7 "applies to" column (kill cards: "any game may name them"; wild_cards goes with wild_ranks).
@pytest.mark.parametrize(
    ("code", "own"),
    [
        ("five-card-draw", ["max_discard", "max_discard_with_ace", "wild_ranks", "wild_cards"]),
        ("freak-of-nature", ["max_discard", "max_discard_with_ace", "freak_bottom"]),
        ("pregnant-threes", ["draws", "cards_per_draw", "draw"]),
        ("three-legged-race", ["wild_ranks", "wild_cards", "legs_to_win", "uncontested_scores_leg", "tie",
                               "forced_play"]),
        ("triple-draw", []),
    ],
)
def test_each_variant_takes_exactly_its_options(code: str, own: list[str]) -> None:
    expected = set(COMMON + own) if code != "triple-draw" else set()
    assert set(option_specs(code)) == expected


def test_the_option_table_holds_the_design_defaults_and_values() -> None:
    table = {spec.code: spec for spec in OPTIONS}
    assert table["betting"].default == "fixed_limit"
    assert table["betting"].choices == ("fixed_limit", "pot_limit", "no_limit")
    assert (table["max_discard"].default, table["max_discard"].minimum, table["max_discard"].maximum) == (3, 0, 5)
    assert table["max_discard_with_ace"].default == 4
    assert (table["draws"].default, table["draws"].minimum, table["draws"].maximum) == (1, 1, 3)
    assert (table["cards_per_draw"].default, table["cards_per_draw"].minimum, table["cards_per_draw"].maximum) == (
        3, 1, 5)
    assert (table["draw"].default, table["draw"].choices) == ("optional", ("optional", "mandatory"))
    assert table["kill_cards"].default == []
    assert table["five_of_a_kind"].choices == ("highest", "below_straight_flush")
    assert table["wild_duplicates_in_flush"].default is True
    assert (table["freak_bottom"].default, table["freak_bottom"].choices) == ("no_wild", ("no_wild", "aces"))
    assert (table["legs_to_win"].default, table["legs_to_win"].minimum, table["legs_to_win"].maximum) == (2, 1, 5)
    assert table["uncontested_scores_leg"].default is True
    assert (table["tie"].default, table["tie"].choices) == ("each_scores", ("each_scores", "nobody_scores"))
    assert table["forced_play"].default is False
    # "required" (ante always, the fixed bets under fixed limit); "big_bet_cents or required" (minimum bet).
    assert table["ante_cents"].required("no_limit")
    assert table["ante_cents"].default is None
    assert table["small_bet_cents"].required("fixed_limit")
    assert not table["small_bet_cents"].required("pot_limit")
    assert table["min_bet_cents"].required("pot_limit")
    assert table["min_bet_cents"].default_from == "big_bet_cents"
    assert table["legs_to_win"].to_dict()["default"] == 2


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("five-card-draw", {**STAKES, "betting": "fixed_limit", "max_discard": 3, "max_discard_with_ace": 4,
                            "kill_cards": [], "wild_ranks": [], "wild_cards": [], "five_of_a_kind": "highest",
                            "wild_duplicates_in_flush": True}),
        ("pregnant-threes", {**STAKES, "betting": "fixed_limit", "draws": 1, "cards_per_draw": 3, "draw": "optional",
                             "kill_cards": [], "five_of_a_kind": "highest", "wild_duplicates_in_flush": True}),
        ("three-legged-race", {**STAKES, "betting": "fixed_limit", "kill_cards": [], "wild_ranks": [],
                               "wild_cards": [], "five_of_a_kind": "highest", "wild_duplicates_in_flush": True,
                               "legs_to_win": 2, "uncontested_scores_leg": True, "tie": "each_scores",
                               "forced_play": False}),
        ("freak-of-nature", {**STAKES, "betting": "fixed_limit", "max_discard": 3, "max_discard_with_ace": 4,
                             "kill_cards": [], "five_of_a_kind": "highest", "wild_duplicates_in_flush": True,
                             "freak_bottom": "no_wild"}),
    ],
)
def test_to_dict_gives_every_option_of_the_variant_with_defaults_filled(code: str, expected: dict[str, object]) -> None:
    assert Rules.parse(code, STAKES).to_dict() == expected


def test_to_dict_gives_the_stakes_of_the_betting_structure_only() -> None:
    rules = Rules.parse("five-card-draw", {"ante_cents": 50, "betting": "no_limit", "big_bet_cents": 400})
    data = rules.to_dict()
    assert data["min_bet_cents"] == 400  # "big_bet_cents or required"
    assert "small_bet_cents" not in data
    assert "big_bet_cents" not in data
    assert Rules.parse("five-card-draw", data) == rules


def test_ranking_needs_no_stakes_so_an_unannounced_ante_is_left_out() -> None:
    data = Rules.parse("freak-of-nature").to_dict()
    assert "ante_cents" not in data
    assert data["freak_bottom"] == "no_wild"


def test_pregnant_threes_announced_draws_and_mandatory_draw() -> None:
    rules = Rules.parse("pregnant-threes", {"draws": 2, "cards_per_draw": 3, "draw": "mandatory"})
    assert (rules.draws, rules.cards_per_draw, rules.draw_is_mandatory, rules.draw_rounds) == (2, 3, True, 2)
    defaults = Rules.parse("pregnant-threes")
    assert (defaults.draws, defaults.cards_per_draw, defaults.draw) == (1, 3, "optional")


# Pregnant Threes: "under two draws of three, mandatory, each player must discard exactly three cards at each of
# two draws"; "optional" lets a player exchange 0 up to that many.
def test_pregnant_threes_discards_follow_the_announced_count_and_mode() -> None:
    mandatory = Rules.parse("pregnant-threes", {"draws": 2, "cards_per_draw": 3, "draw": "mandatory"}).discards
    assert mandatory == DiscardRule(3, 3, 3)
    assert mandatory.mandatory
    optional = Rules.parse("pregnant-threes", {"cards_per_draw": 2, "draw": "optional"}).discards
    assert optional == DiscardRule(0, 2, 2)
    assert optional.allows(0, keeps_ace=False)
    assert not optional.allows(3, keeps_ace=True)


# Three Legged Race: "for up to six players"; "Every player still in the hand shall discard exactly three cards".
def test_three_legged_race_defaults() -> None:
    rules = Rules.parse("three-legged-race")
    assert rules.seat_limit == 6
    assert rules.discards == DiscardRule(3, 3, 3)
    assert rules.discards.mandatory
    assert (rules.legs_to_win, rules.uncontested_scores_leg, rules.tie, rules.forced_play) == (
        2,
        True,
        "each_scores",
        False,
    )
    assert rules.plays_for_legs
    assert not rules.wild


# "Wild cards. The dealer may name a wild card before the game begins."
def test_three_legged_race_may_name_a_wild_card() -> None:
    assert Rules.parse("three-legged-race", {"wild_ranks": ["2"]}).wild.ranks == {Rank.TWO}
    assert Rules.parse("three-legged-race", {"wild_cards": "Js"}).wild.cards == set(parse_cards("Js"))


def test_pregnant_threes_keeps_its_own_wild_ranks() -> None:
    rules = Rules.parse("pregnant-threes")
    assert rules.wild.ranks == {Rank.THREE, Rank.SIX, Rank.NINE}
    assert rules.wild_ranks == frozenset()  # the announced extras: none
    assert "wild_ranks" not in rules.to_dict()


def test_freak_of_nature_slides_and_defaults_to_no_wild_at_the_bottom() -> None:
    rules = Rules.parse("freak-of-nature")
    assert rules.sliding_wild
    assert rules.has_wild_cards
    assert rules.freak_bottom == "no_wild"
    assert Rules.parse("freak-of-nature", {"freak_bottom": "aces"}).freak_bottom == "aces"


def test_five_card_draw_discards_three_or_four_keeping_an_ace() -> None:
    rules = Rules.parse("five-card-draw")
    assert rules.discards == DiscardRule(0, 3, 4)
    assert not rules.discards.allows(4, keeps_ace=False)
    assert rules.discards.allows(4, keeps_ace=True)


def test_keeping_an_ace_never_allows_fewer_than_the_plain_limit() -> None:
    assert Rules.parse("five-card-draw", {"max_discard": 5}).discards == DiscardRule(0, 5, 5)
    with pytest.raises(RulesError) as error:
        Rules.parse("five-card-draw", {"max_discard": 4, "max_discard_with_ace": 3})
    assert error.value.option == "max_discard_with_ace"


def test_hand_options_are_announced_per_game() -> None:
    rules = Rules.parse("pregnant-threes", {"five_of_a_kind": "below_straight_flush",
                                            "wild_duplicates_in_flush": False})
    assert rules.options.five_of_a_kind == "below_straight_flush"
    assert rules.options.wild_duplicates_in_flush is False


def test_unknown_variant_names_the_code() -> None:
    with pytest.raises(UnknownVariantError) as error:
        Rules.parse("seven-card-stud")
    assert error.value.token == "seven-card-stud"


@pytest.mark.parametrize(
    ("code", "options", "token", "option"),
    [
        ("triple-draw", {"kill_cards": ["Kd"]}, "kill_cards", "kill_cards"),
        ("five-card-draw", {"legs_to_win": 3}, "legs_to_win", "legs_to_win"),
        ("three-legged-race", {"legs_to_win": 9}, "9", "legs_to_win"),
        ("three-legged-race", {"tie": "coin_flip"}, "coin_flip", "tie"),
        ("pregnant-threes", {"draw": "sometimes"}, "sometimes", "draw"),
        ("pregnant-threes", {"kill_cards": ["Kx"]}, "Kx", "kill_cards"),
        ("five-card-draw", {"wild_ranks": ["Z"]}, "Z", "wild_ranks"),
        ("three-legged-race", {"forced_play": "yes"}, "yes", "forced_play"),
        ("five-card-draw", {"wild_cards": ["Kd"], "kill_cards": ["Kd"]}, "Kd", "kill_cards"),
        ("five-card-draw", {"ante_cents": -1}, "-1", "ante_cents"),
        ("five-card-draw", {"betting": "spread"}, "spread", "betting"),
        ("five-card-draw", {"kill_cards": 3.5}, "3.5", "kill_cards"),
    ],
)
def test_bad_options_name_the_offending_value_and_the_option(
    code: str, options: dict[str, object], token: str, option: str
) -> None:
    with pytest.raises(RulesError) as error:
        Rules.parse(code, options)
    assert error.value.token == token
    assert error.value.option == error.value.field == option
    assert option in error.value.message or f"card {token}" in error.value.message


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
def test_to_dict_gives_the_same_rules_back(code: str, options: dict[str, object]) -> None:
    rules = Rules.parse(code, options)
    data = rules.to_dict()
    for name, value in options.items():
        assert sorted(data[name]) == sorted(value) if isinstance(value, list) else data[name] == value
    assert Rules.parse(code, data) == rules


def test_kill_card_presets_are_written_out_as_cards() -> None:
    rules = Rules.parse("pregnant-threes", {"kill_cards": ["one_eyed_jacks", "man_with_the_axe"]})
    assert rules.kill_cards == frozenset(parse_cards("Js Jh Kd"))
    assert rules.to_dict()["kill_cards"] == ["Kd", "Js", "Jh"]


def test_a_game_must_announce_its_stakes_before_the_first_card() -> None:
    rules = Rules.parse("three-legged-race", {**STAKES, "legs_to_win": 3})
    rules.verify_playable()
    with pytest.raises(RulesError) as error:
        Rules.parse("three-legged-race").verify_playable()
    assert error.value.option == "ante_cents"
    with pytest.raises(RulesError) as error:
        Rules.parse("five-card-draw", {"ante_cents": 0, "betting": "pot_limit"}).verify_playable()
    assert error.value.option == "min_bet_cents"
    with pytest.raises(RulesError) as error:
        Rules.parse("five-card-draw", {**STAKES, "small_bet_cents": 0}).verify_playable()
    assert error.value.option == "small_bet_cents"


@pytest.mark.parametrize(
    ("code", "options", "missing"),
    [
        ("five-card-draw", {"small_bet_cents": 200, "big_bet_cents": 400}, "ante_cents"),
        ("five-card-draw", {"ante_cents": 100, "small_bet_cents": 200}, "big_bet_cents"),
        ("five-card-draw", {"ante_cents": 100, "betting": "no_limit"}, "min_bet_cents"),
        # Pregnant Threes 2.2: "Before the deal, the dealer shall announce" the draws, cards per draw and mode.
        ("pregnant-threes", {**STAKES, "cards_per_draw": 3, "draw": "optional"}, "draws"),
        ("pregnant-threes", {**STAKES, "draws": 1, "draw": "optional"}, "cards_per_draw"),
        ("pregnant-threes", {**STAKES, "draws": 1, "cards_per_draw": 3}, "draw"),
    ],
)
def test_an_announcement_names_the_option_it_lacks(code: str, options: dict[str, object], missing: str) -> None:
    with pytest.raises(AnnouncementError) as error:
        Rules.announce(code, options)
    assert error.value.option == missing
    assert error.value.code == "bad_announcement"


def test_an_announcement_is_for_a_home_game() -> None:
    with pytest.raises(AnnouncementError) as error:
        Rules.announce("triple-draw", {})
    assert error.value.option == "variant"


def test_an_announcement_round_trips_through_to_dict() -> None:
    rules = Rules.announce("three-legged-race", {**STAKES, "legs_to_win": 3, "tie": "nobody_scores",
                                                 "forced_play": True, "wild_ranks": ["2"],
                                                 "kill_cards": ["one_eyed_jacks"]})
    assert Rules.announce("three-legged-race", rules.to_dict()) == rules
    assert Rules.announce("pregnant-threes", Rules.parse("pregnant-threes", STAKES).to_dict()).draws == 1
