"""The announced rules in words, as the dealer tablet shows them to players (DESIGN 7: "shown on the dealer tablet")."""

from __future__ import annotations

from casino.engine.money import money, stake
from casino.engine.rules.model import Rules
from casino.engine.rules.words import describe_rules

STAKES = {"ante_cents": 100, "small_bet_cents": 200, "big_bet_cents": 400}


def test_money_and_stakes_read_as_dealers_say_them() -> None:
    assert money(100) == "$1.00"
    assert money(5) == "$0.05"
    assert money(123_456) == "$1,234.56"
    assert money(-350) == "-$3.50"
    assert stake(200) == "$2"
    assert stake(250) == "$2.50"


def test_pregnant_threes_announcement() -> None:
    rules = Rules.announce("pregnant-threes", {**STAKES, "draws": 2, "cards_per_draw": 3, "draw": "mandatory",
                                               "kill_cards": ["one_eyed_jacks"],
                                               "five_of_a_kind": "below_straight_flush"})
    assert describe_rules(rules) == (
        "Ante $1.00",
        "Fixed limit $2/$4",
        "Two draws of exactly 3 cards (mandatory)",
        "3s, 6s and 9s are wild",
        "Kill cards: J♠ J♥",
        "Five of a kind ranks below a straight flush",
        "A wild card may duplicate a card of its flush",
    )


def test_three_legged_race_announcement() -> None:
    rules = Rules.announce("three-legged-race", {"ante_cents": 50, "betting": "pot_limit", "min_bet_cents": 100,
                                                 "legs_to_win": 2, "tie": "nobody_scores", "forced_play": True,
                                                 "wild_cards": ["Kd"]})
    assert describe_rules(rules) == (
        "Ante $0.50",
        "Pot limit, minimum bet $1",
        "One draw: every player exchanges exactly 3 cards, no standing pat",
        "K♦ is wild",
        "Five of a kind is the highest hand",
        "A wild card may duplicate a card of its flush",
        "Race to 2 legs",
        "A player left alone after the others fold scores a leg",
        "A tie at the showdown: nobody scores a leg",
        "Forced play: no folding",
    )


def test_five_card_draw_without_wild_cards_says_nothing_of_five_of_a_kind() -> None:
    rules = Rules.announce("five-card-draw", {"ante_cents": 25, "betting": "no_limit", "min_bet_cents": 250,
                                              "kill_cards": ["Kd"]})
    assert describe_rules(rules) == (
        "Ante $0.25",
        "No limit, minimum bet $2.50",
        "One draw: up to 3 cards, 4 keeping an ace",
        "Kill cards: K♦",
    )


def test_five_card_draw_with_announced_wild_ranks_and_cards() -> None:
    rules = Rules.announce("five-card-draw", {**STAKES, "wild_ranks": ["2", "J"], "wild_cards": ["Ts"],
                                              "max_discard": 5, "wild_duplicates_in_flush": False})
    lines = describe_rules(rules)
    assert "One draw: up to 5 cards" in lines
    assert "2s, jacks and 10♠ are wild" in lines
    assert "A wild card may not duplicate a card of its flush" in lines


def test_freak_of_nature_explains_the_sliding_wild_rank_and_its_bottom() -> None:
    lines = describe_rules(Rules.announce("freak-of-nature", {**STAKES, "freak_bottom": "aces"}))
    assert lines[3] == (
        "6s are wild; if no hand at the showdown holds a 6, the next rank down that one holds (5, 4, 3, 2)"
    )
    assert lines[4] == "If no showdown hand holds a 6 down to a 2, aces are wild"
    assert "Five of a kind is the highest hand" in lines


def test_triple_draw_announces_nothing() -> None:
    assert describe_rules(Rules.parse("triple-draw")) == ()
