"""Hand ordering (DESIGN 4): every pair of categories, kickers, the wheel, ties."""

from __future__ import annotations

import itertools

import pytest

from casino.engine.cards import parse_cards
from casino.engine.hands import HandOptions, HandValue, WildSpec, evaluate

# One hand per category, strongest first (five of a kind highest, the default).
BY_CATEGORY = [
    ("3h 6c Qs Qd 9d", "3 6 9"),  # five queens
    ("Ah Kh Qh Jh Th", None),  # royal flush
    ("9d 8d 7d 6d 5d", None),  # straight flush
    ("9s 9h 9d 9c 2s", None),  # four of a kind
    ("Ks Kd Kc 7h 7d", None),  # full house
    ("Ac Kc 8c 5c 2c", None),  # flush
    ("Ah Kd Qc Js Th", None),  # straight
    ("Js Jh Jd 6c 2s", None),  # three of a kind
    ("Qs Qd 8c 8h 3s", None),  # two pair
    ("Ks Kd 8c 5h 3s", None),  # one pair
    ("Ah Kd 9c 4s 2h", None),  # high card
]


def value(text: str, wild: str | None = None, options: HandOptions | None = None) -> HandValue:
    return evaluate(parse_cards(text), WildSpec.parse(wild) if wild else WildSpec.NONE, options or HandOptions())


@pytest.mark.parametrize(("higher", "lower"), list(itertools.combinations(range(len(BY_CATEGORY)), 2)))
def test_every_category_beats_every_lower_category(higher: int, lower: int) -> None:
    strong, weak = value(*BY_CATEGORY[higher]), value(*BY_CATEGORY[lower])
    assert strong > weak
    assert weak < strong
    assert strong != weak
    assert strong.score > weak.score


def test_below_straight_flush_puts_five_of_a_kind_between_straight_flush_and_four_of_a_kind() -> None:
    options = HandOptions(five_of_a_kind="below_straight_flush")
    values = [value(text, wild, options) for text, wild in BY_CATEGORY]
    order = [values[1], values[2], values[0], *values[3:]]
    assert order == sorted(values, reverse=True)
    assert all(a > b for a, b in itertools.pairwise(order))


@pytest.mark.parametrize(
    ("higher", "lower", "wild"),
    [
        ("Ks Kd Ac 5h 3s", "Kh Kc Qc Jh 9s", None),  # pair: first kicker
        ("Ks Kd Ac 5h 4s", "Kh Kc Ad 5d 3c", None),  # pair: last kicker
        ("Qs Qd 8c 8h 4s", "Qh Qc 8d 8s 3c", None),  # two pair: kicker
        ("Qs Qd 9c 9h 2s", "Qh Qc 8d 8s Ac", None),  # two pair: second pair before kicker
        ("Ks Kd 3c 3h 2s", "Qh Qc Jd Js Ac", None),  # two pair: top pair first
        ("Js Jh 2d Ac 4s", "Jc Jd 2h Kc Qs", "2"),  # trips kicker (deuces wild allow equal trips)
        ("4s 4h 4d 2c 2s", "3c 3h 3d Ac As", None),  # full house: trips before pair
        ("9s 9h 9d 2c 4s", "9s 9h 9d 2c 3s", "2"),  # quads kicker (deuces wild)
        ("Ac Kc 8c 5c 3c", "Ad Kd 8d 5d 2d", None),  # flush: fifth card
        ("Ah Kd Qc Js 9h", "Kh Qd Jc Ts 8h", None),  # high card
        ("Ah Kd Qc Js 9h", "Ah Kd Qc Js 8h", None),  # high card: fifth card
        ("Ah Kd Qc Js Th", "Kh Qd Jc Ts 9h", None),  # ace-high straight over king-high
        ("2h 3d 4c 5s 6h", "Ah 2d 3c 4s 5h", None),  # six-high straight over the wheel
        ("6h 5h 4h 3h 2h", "Ad 2d 3d 4d 5d", None),  # six-high straight flush over the steel wheel
    ],
)
def test_kickers_and_tie_breaks(higher: str, lower: str, wild: str | None) -> None:
    strong, weak = value(higher, wild), value(lower, wild)
    assert strong.category == weak.category
    assert strong > weak


def test_wheel_is_the_lowest_straight_and_plays_five_high() -> None:
    wheel = value("Ah 2d 3c 4s 5h")
    assert wheel.description == "Straight, five high"
    assert wheel < value("2h 3d 4c 5s 6h")
    assert wheel > value("Ah Ad Ac Ks Qh")  # still beats three of a kind


def test_no_wrap_around_straights() -> None:
    assert value("Qh Kd Ac 2s 3h").description == "Ace high"


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("As Ks Qs Js 9s", "Ah Kh Qh Jh 9h"),
        ("Ac Ad 7h 5s 2c", "Ah As 7c 5d 2h"),
        ("Ah Kh Qh Jh Th", "As Ks Qs Js Ts"),
        ("Ah 2d 3c 4s 5h", "As 2h 3h 4d 5c"),
        ("Kc Kd 7h 7s 2c", "Kh Ks 7c 7d 2d"),
    ],
)
def test_equal_hands_tie_whatever_their_suits(first: str, second: str) -> None:
    a, b = value(first), value(second)
    assert a == b
    assert not a < b
    assert not b < a
    assert a.score == b.score
    assert hash(a) == hash(b)
