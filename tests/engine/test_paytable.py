"""PaytableSpec (DESIGN 6): the JSON form, line matching with and without wild cards, payout arithmetic."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casino.engine.cards import Rank, parse_cards
from casino.engine.paytable import (
    HandPayout,
    PaytableError,
    PaytableLineSpec,
    PaytableSpec,
    payout_cents,
)

STANDARD = Path(__file__).resolve().parents[2] / "paytables" / "standard"


def load(name: str) -> PaytableSpec:
    return PaytableSpec.from_dict(json.loads((STANDARD / f"{name}.json").read_text()))


def line_of(spec: PaytableSpec, cards: str) -> str | None:
    index = spec.match(parse_cards(cards))
    return None if index is None else spec.lines[index].label


@pytest.mark.parametrize("path", sorted(STANDARD.glob("*.json")), ids=lambda p: p.stem)
def test_every_standard_paytable_reads_and_writes_back_unchanged(path: Path) -> None:
    data = json.loads(path.read_text())
    spec = PaytableSpec.from_dict(data)
    assert spec.to_dict() == data
    assert PaytableSpec.from_dict(spec.to_dict()) == spec


def test_fraction_pays_are_kept_exact_and_written_as_text() -> None:
    spec = PaytableSpec.from_dict(
        {"name": "t", "basis": "to_1", "lines": [{"hand": "flush", "pays": "3/2"}, {"hand": "straight", "pays": 1.5}]}
    )
    assert spec.lines[0].pays == Fraction(3, 2)
    assert spec.lines[1].pays == Fraction(3, 2)
    assert spec.to_dict()["lines"][0] == {"hand": "flush", "pays": "3/2"}


class TestMatching:
    """'Lines are ordered high to low; the first line a hand matches pays it.'"""

    def test_jacks_or_better_pays_a_pair_of_jacks_but_not_a_pair_of_tens(self) -> None:
        spec = load("jacks_or_better_9_6")
        assert line_of(spec, "Jh Jd 4c 7s 9d") == "one_pair J+"
        assert line_of(spec, "Th Td 4c 7s 9d") is None
        assert line_of(spec, "Ah Kd 4c 7s 9d") is None

    def test_each_natural_category_finds_its_line(self) -> None:
        spec = load("jacks_or_better_9_6")
        assert line_of(spec, "Th Jh Qh Kh Ah") == "royal_flush"
        assert line_of(spec, "9h Th Jh Qh Kh") == "straight_flush"
        assert line_of(spec, "Ah 2h 3h 4h 5h") == "straight_flush"
        assert line_of(spec, "9h 9c 9d 9s Kh") == "four_of_a_kind"
        assert line_of(spec, "9h 9c 9d Ks Kh") == "full_house"
        assert line_of(spec, "2h 9h Jh Qh Kh") == "flush"
        assert line_of(spec, "Ah 2c 3h 4h 5h") == "straight"
        assert line_of(spec, "Qh Kc Ah 2h 3h") is None  # no wrap-around straights
        assert line_of(spec, "3h 3c 3d 8s Kh") == "three_of_a_kind"
        assert line_of(spec, "3h 3c 8d 8s Kh") == "two_pair"

    def test_the_four_of_a_kind_ranks_qualifier_picks_the_bonus_line(self) -> None:
        spec = load("bonus_poker_8_5")
        assert line_of(spec, "Ah Ac Ad As Kh") == "four_of_a_kind A"
        assert line_of(spec, "3h 3c 3d 3s Kh") == "four_of_a_kind 432"
        assert line_of(spec, "9h 9c 9d 9s Kh") == "four_of_a_kind"

    def test_a_wild_hand_is_paid_by_the_first_line_it_can_make(self) -> None:
        spec = load("deuces_wild_full_pay")
        assert line_of(spec, "Th Jh Qh Kh Ah") == "natural_royal_flush"
        assert line_of(spec, "2h 2c 2d 2s Kh") == "four_wild"
        assert line_of(spec, "2h Jh Qh Kh Ah") == "wild_royal_flush"
        assert line_of(spec, "2h 2c 9d 9s 9h") == "five_of_a_kind"
        assert line_of(spec, "2h 5h 6h 8h 9h") == "straight_flush"
        assert line_of(spec, "2h 2c 9d 9s Kh") == "four_of_a_kind"
        assert line_of(spec, "2h 9c 9d Ks Kh") == "full_house"
        assert line_of(spec, "2h 9h 4h Kh Jh") == "flush"
        assert line_of(spec, "2h 3c 4h 5h 6d") == "straight"
        assert line_of(spec, "2h 2c 9h Jh 6d") == "three_of_a_kind"
        assert line_of(spec, "2h 3c 9h Jh 6d") is None  # one wild card and four odd cards make only a pair

    def test_a_wild_hand_can_be_paid_by_a_lower_line_when_a_higher_one_is_listed_later(self) -> None:
        # The hand can make a straight flush and four of a kind; the first listed line wins, whatever its rank.
        spec = PaytableSpec.from_dict(
            {
                "name": "odd order",
                "basis": "for_1",
                "wild_ranks": ["2"],
                "lines": [{"hand": "four_of_a_kind", "pays": 7}, {"hand": "straight_flush", "pays": 9}],
            }
        )
        assert line_of(spec, "2h 2c 2d 5h 6h") == "four_of_a_kind"
        assert line_of(spec, "2h 4h 5h 6h 8h") == "straight_flush"

    def test_a_wild_card_pairs_the_highest_card_for_jacks_or_better(self) -> None:
        spec = PaytableSpec.from_dict(
            {
                "name": "joker-ish",
                "basis": "for_1",
                "wild_ranks": ["2"],
                "lines": [{"hand": "one_pair", "min_rank": "K", "pays": 1}],
            }
        )
        assert line_of(spec, "2h 4c 8d Jh Kc") == "one_pair K+"
        assert line_of(spec, "2h 4c 8d Jh Qc") is None
        assert line_of(spec, "2h 2c 8d Jh Qc") == "one_pair K+"  # two wild cards make a pair of aces

    def test_a_hand_must_be_five_distinct_cards(self) -> None:
        spec = load("jacks_or_better_9_6")
        with pytest.raises(Exception, match="5 cards"):
            spec.match(parse_cards("Ah Kh Qh Jh"))
        with pytest.raises(Exception, match="twice"):
            spec.match(parse_cards("Ah Ah Qh Jh Th", unique=False))


class TestPayoutArithmetic:
    """'Payout arithmetic: exact fractions, rounded down to the cent, once per hand.'"""

    def test_for_1_returns_bet_times_pays_rounded_down(self) -> None:
        assert payout_cents(125, Fraction(3, 2), "for_1") == 187  # 187.5
        assert payout_cents(100, Fraction(9), "for_1") == 900

    def test_to_1_returns_bet_times_pays_plus_one_rounded_down(self) -> None:
        assert payout_cents(125, Fraction(3, 2), "to_1") == 312  # 312.5
        assert payout_cents(101, Fraction(1, 3), "to_1") == 134  # 134.67

    def test_to_1_pays_zero_is_a_push(self) -> None:
        assert payout_cents(500, Fraction(0), "to_1") == 500

    def test_each_hand_is_rounded_on_its_own_before_any_total(self) -> None:
        spec = PaytableSpec.from_dict({"name": "t", "basis": "for_1", "lines": [{"hand": "flush", "pays": "3/2"}]})
        flush = parse_cards("2h 9h Jh Qh Kh")
        hands = [spec.settle_hand(flush, 125).return_cents for _ in range(3)]
        assert hands == [187, 187, 187]
        assert sum(hands) == 561  # not floor(3 x 187.5) = 562

    def test_the_whole_return_of_a_hand_is_rounded_once(self) -> None:
        # to_1 pays 2/3 on 100: 100 x 5/3 = 166.67 -> 166, the stake and the win are not rounded apart.
        assert payout_cents(100, Fraction(2, 3), "to_1") == 166
        assert payout_cents(100, Fraction(7, 3), "for_1") == 233

    def test_settle_hand_reports_line_code_and_return(self) -> None:
        spec = PaytableSpec.from_dict(
            {"name": "t", "basis": "to_1", "lines": [{"hand": "flush", "pays": "3/2"}, {"hand": "two_pair", "pays": 0}]}
        )
        assert spec.settle_hand(parse_cards("2h 9h Jh Qh Kh"), 125) == HandPayout(0, "flush", 312)
        assert spec.settle_hand(parse_cards("2h 2c Jh Js Kh"), 125) == HandPayout(1, "two_pair", 125)
        assert spec.settle_hand(parse_cards("2h 3c Jh Js Kh"), 125) == HandPayout(None, None, 0)

    @pytest.mark.parametrize("bet", [-1, 1.5, True])
    def test_a_bet_must_be_whole_non_negative_cents(self, bet: object) -> None:
        with pytest.raises(PaytableError, match="whole number of cents"):
            payout_cents(bet, Fraction(1), "for_1")  # type: ignore[arg-type]

    def test_an_unknown_basis_is_refused(self) -> None:
        with pytest.raises(PaytableError, match="unknown basis"):
            payout_cents(100, Fraction(1), "to_2")


def table(*lines: dict[str, object], basis: str = "for_1", **extra: object) -> dict[str, object]:
    return {"name": "t", "basis": basis, "lines": list(lines), **extra}


class TestValidation:
    """'Validation errors (clear messages naming the problem).'"""

    @pytest.mark.parametrize(
        ("data", "message"),
        [
            (table({"hand": "royal_straight", "pays": 1}), "line 1: unknown hand code 'royal_straight'"),
            (
                table({"hand": "flush", "pays": 5}, {"hand": "flush", "pays": 6}),
                r"line 2 \(flush\): duplicate line flush",
            ),
            (
                table(
                    {"hand": "one_pair", "min_rank": "J", "pays": 1}, {"hand": "one_pair", "min_rank": "J", "pays": 2}
                ),
                r"line 2 \(one_pair\): duplicate line one_pair J\+",
            ),
            (table({"hand": "flush", "pays": -1}), r"line 1 \(flush\): pays must not be negative"),
            (table({"hand": "flush", "pays": "-3/2"}), r"line 1 \(flush\): pays must not be negative"),
            (table({"hand": "flush", "pays": "x"}), r"line 1 \(flush\): pays 'x' is not a number"),
            (table({"hand": "flush", "pays": "1/0"}), r"line 1 \(flush\): pays '1/0' is not a number"),
            (table({"hand": "flush"}), r"line 1 \(flush\): 'pays' is missing"),
            (
                table({"hand": "flush", "min_rank": "J", "pays": 1}),
                r"line 1 \(flush\): min_rank applies only to one_pair",
            ),
            (
                table({"hand": "full_house", "ranks": ["A"], "pays": 1}),
                r"line 1 \(full_house\): ranks applies only to four_of_a_kind",
            ),
            (table({"hand": "one_pair", "min_rank": "Z", "pays": 1}), "unknown min_rank 'Z'"),
            (table({"hand": "four_of_a_kind", "ranks": ["A", "A"], "pays": 1}), "rank A is listed twice"),
            (table({"hand": "four_wild", "pays": 200}), r"line 1 \(four_wild\): four_wild needs wild_ranks"),
            (table({"hand": "five_of_a_kind", "pays": 15}), "five_of_a_kind needs wild_ranks"),
            (table({"hand": "natural_royal_flush", "pays": 800}), "natural_royal_flush needs wild_ranks"),
            (table({"hand": "wild_royal_flush", "pays": 25}), "wild_royal_flush needs wild_ranks"),
            (table({"hand": "flush", "pays": 0}), "at least one line that pays more than 0"),
            (table({"hand": "flush", "pays": 0}, basis="to_1"), "at least one line that pays more than 0"),
            (table({"hand": "flush", "pays": 1}, basis="for_2"), "'basis' must be 'for_1' or 'to_1'"),
            (table({"hand": "flush", "pays": 1}, wild_ranks=["1"]), "'wild_ranks': unknown rank '1'"),
            (table({"hand": "flush", "pays": 1, "kicker": "2"}), "line 1: unknown field 'kicker'"),
            ({"name": "t", "basis": "for_1", "lines": []}, "'lines' must be a non-empty list"),
            ({"name": "t", "basis": "for_1"}, "'lines' must be a non-empty list"),
            ([1, 2], "must be a JSON object"),
        ],
    )
    def test_a_bad_paytable_is_refused_with_a_message_naming_the_problem(self, data: object, message: str) -> None:
        with pytest.raises(PaytableError, match=message) as raised:
            PaytableSpec.from_dict(data)  # type: ignore[arg-type]
        assert raised.value.code == "bad_paytable"

    def test_a_spec_built_directly_is_validated_too(self) -> None:
        with pytest.raises(PaytableError, match="four_wild needs wild_ranks"):
            PaytableSpec("t", "for_1", (PaytableLineSpec("four_wild", Fraction(200)),))

    def test_wild_only_codes_are_accepted_with_wild_ranks(self) -> None:
        spec = load("deuces_wild_full_pay")
        assert spec.wild_ranks == frozenset({Rank.TWO})


@given(
    bet=st.integers(min_value=0, max_value=10**9),
    numerator=st.integers(min_value=0, max_value=10**6),
    denominator=st.integers(min_value=1, max_value=1000),
)
def test_a_payout_is_the_exact_return_rounded_down_once(bet: int, numerator: int, denominator: int) -> None:
    pays = Fraction(numerator, denominator)
    for_1 = payout_cents(bet, pays, "for_1")
    to_1 = payout_cents(bet, pays, "to_1")
    assert 0 <= bet * pays - for_1 < 1
    assert 0 <= bet * (pays + 1) - to_1 < 1
    assert to_1 == for_1 + bet  # the stake is whole cents, so it never changes the rounding
    assert payout_cents(bet, pays + 1, "for_1") == to_1
