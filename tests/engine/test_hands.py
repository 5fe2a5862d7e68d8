"""Hand evaluation: categories, the rule-sheet examples, wild cards, options and descriptions (DESIGN 4)."""

from __future__ import annotations

import pytest

from casino.engine.cards import parse_cards
from casino.engine.errors import DuplicateCardError, HandSizeError, RulesError, WildSpecError
from casino.engine.hands import HandCategory, HandOptions, HandValue, WildSpec, evaluate

THREES_SIXES_NINES = WildSpec.parse("3 6 9")


def value(text: str, wild: str | None = None, **options: object) -> HandValue:
    spec = WildSpec.parse(wild) if wild else WildSpec.NONE
    return evaluate(parse_cards(text), spec, HandOptions(**options))  # type: ignore[arg-type]


def played(hand: HandValue) -> str:
    return " ".join(str(card) for card in hand.cards)


# Pregnant Threes, "Three wild cards":
# "A player holds 3♥6♣Q♠Q♦9♦. The three, six and nine are all wild. With the natural pair of queens, the player
# has five queens."
def test_three_wild_cards_and_a_pair_of_queens_make_five_queens() -> None:
    hand = value("3♥ 6♣ Q♠ Q♦ 9♦", "3 6 9")
    assert hand.category is HandCategory.FIVE_OF_A_KIND
    assert hand.description == "Five queens"
    assert hand.wild_count == 3
    assert [card.rank.code for card in hand.cards] == ["Q"] * 5


# Pregnant Threes, "A mandatory draw":
# "After the deal, a player holds 3♠6♦9♥9♣K♥: four wild cards and a king, already five kings."
def test_four_wild_cards_and_a_king_are_already_five_kings() -> None:
    hand = value("3♠ 6♦ 9♥ 9♣ K♥", "3 6 9")
    assert hand.category is HandCategory.FIVE_OF_A_KIND
    assert hand.description == "Five kings"
    assert hand.wild_count == 4


# Pregnant Threes: "Unless the dealer announces otherwise, five of a kind is the highest hand, above a straight flush."
def test_five_of_a_kind_ranks_above_a_royal_flush_by_default() -> None:
    assert value("3h 6c Qs Qd 9d", "3 6 9") > value("Ah Kh Qh Jh Th")


def test_five_of_a_kind_below_straight_flush_when_announced() -> None:
    option = {"five_of_a_kind": "below_straight_flush"}
    five_queens = value("3h 6c Qs Qd 9d", "3 6 9", **option)
    assert five_queens < value("9h 8h 7h 6h 5h", "2", **option)
    assert five_queens > value("As Ad Ac Ah Kd", "2", **option)
    assert five_queens.category is HandCategory.FIVE_OF_A_KIND


def test_higher_five_of_a_kind_wins_and_five_wild_cards_are_five_aces() -> None:
    five_aces = value("3h 3d 6c 6s 9d", "3 6 9")
    assert five_aces.description == "Five aces"
    assert five_aces > value("3c 6d 9h 9c Kh", "3 6 9")  # five kings
    assert value("3c 6d 9h Ks Kh", "3 6 9") == value("3s 6h 9s Kd Kc", "3 6 9")  # five kings each: a tie


# Freak of Nature, article 3 example: "A holds 5♥5♦9♣9♠K♥ ... fives become wild. A's two fives join the pair of
# nines to make four nines with a king. B has no five and plays three queens."
def test_freak_example_fives_wild_make_four_nines_against_three_queens() -> None:
    a = value("5♥ 5♦ 9♣ 9♠ K♥", "5")
    b = value("Q♠ Q♦ Q♣ 4♥ 7♦", "5")
    assert a.description == "Four nines"
    assert b.description == "Three queens"
    assert a > b


# "Had B held a six in place of the 7♦, sixes would have been wild instead. A would have had only two pair, and B
# would have had four queens."
def test_freak_example_with_sixes_wild_a_has_two_pair_and_b_four_queens() -> None:
    a = value("5♥ 5♦ 9♣ 9♠ K♥", "6")
    b = value("Q♠ Q♦ Q♣ 4♥ 6♦", "6")
    assert a.category is HandCategory.TWO_PAIR
    assert a.description == "Nines and fives"
    assert b.description == "Four queens"
    assert b > a


# Three Legged Race, "Winning a leg": "Player A holds Q♠Q♦8♣8♥3♠ (two pair, queens and eights). Player B holds
# J♣J♥J♠6♦2♣ (three jacks). Three of a kind beats two pair".
def test_three_legged_race_example_three_jacks_beat_queens_and_eights() -> None:
    a = value("Q♠ Q♦ 8♣ 8♥ 3♠")
    b = value("J♣ J♥ J♠ 6♦ 2♣")
    assert a.description == "Queens and eights"
    assert b.description == "Three jacks"
    assert b > a


@pytest.mark.parametrize(
    ("cards", "wild", "category", "description"),
    [
        ("Ah Kh Qh Jh Th", None, HandCategory.ROYAL_FLUSH, "Royal flush"),
        ("9d 8d 7d 6d 5d", None, HandCategory.STRAIGHT_FLUSH, "Straight flush, nine high"),
        ("9s 9h 9d 9c 2s", None, HandCategory.FOUR_OF_A_KIND, "Four nines"),
        ("Ks Kd Kc 7h 7d", None, HandCategory.FULL_HOUSE, "Kings full of sevens"),
        ("Ac Kc 8c 5c 2c", None, HandCategory.FLUSH, "Flush, ace-king high"),
        ("Ah 2d 3c 4s 5h", None, HandCategory.STRAIGHT, "Straight, five high"),
        ("Js Jh Jd 6c 2s", None, HandCategory.THREE_OF_A_KIND, "Three jacks"),
        ("Qs Qd 8c 8h 3s", None, HandCategory.TWO_PAIR, "Queens and eights"),
        ("Ks Kd 8c 5h 3s", None, HandCategory.ONE_PAIR, "Pair of kings"),
        ("Ah Kd 9c 4s 2h", None, HandCategory.HIGH_CARD, "Ace high"),
        ("3h 6c Qs Qd 9d", "3 6 9", HandCategory.FIVE_OF_A_KIND, "Five queens"),
        ("6s 6d 6c 6h 2d", None, HandCategory.FOUR_OF_A_KIND, "Four sixes"),
    ],
)
def test_each_category_has_its_code_and_description(
    cards: str, wild: str | None, category: HandCategory, description: str
) -> None:
    hand = value(cards, wild)
    assert hand.category is category
    assert hand.description == description


def test_category_codes_are_stable_lowercase_strings() -> None:
    assert [category.value for category in HandCategory] == [
        "five_of_a_kind",
        "royal_flush",
        "straight_flush",
        "four_of_a_kind",
        "full_house",
        "flush",
        "straight",
        "three_of_a_kind",
        "two_pair",
        "one_pair",
        "high_card",
    ]


# DESIGN 4.3: "A♠ W 8♠ 5♠ 2♠ is an A-A-8-5-2 flush; off: A-K-8-5-2".
def test_wild_duplicates_in_flush_on_plays_a_second_ace() -> None:
    hand = value("A♠ 3♥ 8♠ 5♠ 2♠", "3")
    assert hand.category is HandCategory.FLUSH
    assert played(hand) == "As As 8s 5s 2s"
    assert hand.description == "Flush, ace-ace high"
    assert hand > value("Ah Kh Qh Jh 9h")


def test_wild_duplicates_in_flush_off_plays_the_best_missing_card() -> None:
    hand = value("A♠ 3♥ 8♠ 5♠ 2♠", "3", wild_duplicates_in_flush=False)
    assert hand.category is HandCategory.FLUSH
    assert played(hand) == "As Ks 8s 5s 2s"
    assert hand.description == "Flush, ace-king high"
    assert hand == value("Ad Kd 8d 5d 2d")


def test_a_royal_flush_made_with_wild_cards_is_a_royal_flush() -> None:
    hand = value("Ah Kh 3c Jh Th", "3")
    assert hand.category is HandCategory.ROYAL_FLUSH
    assert played(hand) == "Ah Kh Qh Jh Th"
    assert hand == value("As Ks Qs Js Ts")


def test_wild_card_prefers_straight_flush_over_four_of_a_kind() -> None:
    hand = value("9c 8c 7c 2h 5c", "2")
    assert hand.description == "Straight flush, nine high"
    assert played(hand) == "9c 8c 7c 6c 5c"


def test_wild_card_fills_the_wheel_and_plays_five_high() -> None:
    hand = value("Ad 2s 3c 4h 9h", "9")
    assert hand.description == "Straight, five high"
    assert [card.rank.code for card in hand.cards] == ["5", "4", "3", "2", "A"]


def test_named_wild_cards_one_eyed_jacks() -> None:
    spec = WildSpec.parse("Js Jh")
    hand = evaluate(parse_cards("Js Ad Ac Jd 4h"), spec)
    assert hand.description == "Three aces"  # the J♦ is a natural jack, only J♠ is wild
    assert hand.wild_count == 1


def test_a_wild_card_stands_for_a_card_not_already_showing() -> None:
    hand = value("5♥ 5♦ 9♣ 9♠ K♥", "5")
    assert played(hand) == "9s 9c 9h 9d Kh"


def test_suits_never_break_ties() -> None:
    assert value("As Ks Qs Js 9s") == value("Ah Kh Qh Jh 9h")
    assert value("Ac Ad 7h 5s 2c") == value("Ah As 7c 5d 2h")


def test_evaluate_rejects_the_wrong_number_of_cards() -> None:
    with pytest.raises(HandSizeError) as error:
        evaluate(parse_cards("As Ks Qs Js"))
    assert error.value.token == "As Ks Qs Js"


def test_evaluate_rejects_a_duplicate_card() -> None:
    with pytest.raises(DuplicateCardError) as error:
        evaluate(parse_cards("As Ks Qs As 2d", unique=False))
    assert error.value.token == "As"


def test_wild_spec_parses_ranks_and_cards() -> None:
    spec = WildSpec.parse("3 6 9 Js")
    assert {rank.code for rank in spec.ranks} == {"3", "6", "9"}
    assert {str(card) for card in spec.cards} == {"Js"}
    assert WildSpec.parse(["10"]).is_wild(parse_cards("Th")[0])


@pytest.mark.parametrize("text", ["", "  ", "3 X", "Jz"])
def test_wild_spec_naming_nothing_or_something_unknown_is_an_error(text: str) -> None:
    with pytest.raises(WildSpecError) as error:
        WildSpec.parse(text)
    assert error.value.token == (text.split()[-1] if text.strip() else text)


def test_unknown_five_of_a_kind_position_is_an_error() -> None:
    with pytest.raises(RulesError) as error:
        HandOptions(five_of_a_kind="lowest")
    assert error.value.token == "lowest"
