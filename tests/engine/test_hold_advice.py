"""Per-deal optimal-hold advice (issue: simulate_rounds with "optimal holds once the analyzer exists"): exact
expected returns per hold, the analysis' own choice of hold, and its tie rule."""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction
from functools import cache
from math import comb
from pathlib import Path

import numpy as np
import pytest

from casino.engine.analysis import analyze, optimal_hold
from casino.engine.analysis import cache as analysis_cache
from casino.engine.analysis.optimal import WEIGHT, hold_totals, optimal_outcome
from casino.engine.analysis.values import paytable_values, suit_class_values
from casino.engine.cards import ALL_CARDS, Card, Suit, parse_cards
from casino.engine.errors import DuplicateCardError, HandSizeError
from casino.engine.pay_classes import pay_class
from casino.engine.paytable import PaytableSpec

STANDARD = Path(__file__).resolve().parents[2] / "paytables" / "standard"


def load(name: str) -> PaytableSpec:
    return PaytableSpec.from_dict(json.loads((STANDARD / f"{name}.json").read_text()))


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("advice-cache")


def _brute_returns(dealt: tuple[Card, ...], spec: PaytableSpec, smallest_hold: int) -> dict[int, Fraction]:
    """Each hold's mean return over every draw from the 47 unseen cards (holds of `smallest_hold`+ cards)."""

    @cache
    def value(naturals: tuple[int, ...], suited: bool) -> Fraction:
        # What PaytableSpec.pay_class computes for any hand with these natural ranks (the rest wild).
        klass = pay_class(list(naturals), wild_count=5 - len(naturals), suited=suited)
        return spec.line_return(spec.match_class(klass))

    unseen = [card for card in ALL_CARDS if card not in dealt]
    wild = spec.wild_ranks
    found: dict[int, Fraction] = {}
    for mask in range(32):
        held = [card for position, card in enumerate(dealt) if mask >> position & 1]
        if len(held) < smallest_hold:
            continue
        total = Fraction(0)
        for drawn in itertools.combinations(unseen, 5 - len(held)):
            hand = (*held, *drawn)
            naturals = [card for card in hand if card.rank not in wild]
            total += value(tuple(sorted(int(card.rank) for card in naturals)), len({c.suit for c in naturals}) <= 1)
        found[mask] = total / comb(47, 5 - len(held))
    return found


@pytest.mark.parametrize(
    ("name", "text", "smallest_hold"),
    [
        ("jacks_or_better_9_6", "Jd 3c 7h 9s 2d", 2),
        ("triple_draw_house", "Qs 5h Ts 9d Js", 2),
        ("deuces_wild_full_pay", "2c 7h 8h 9h Ks", 3),
        ("bonus_poker_8_5", "Ah Ad 4c 4s 9h", 3),
    ],
)
def test_every_hold_return_equals_dealing_every_draw_from_the_47_unseen_cards(
    name: str, text: str, smallest_hold: int, cache_dir: Path
) -> None:
    spec = load(name)
    dealt = parse_cards(text, count=5)
    advice = optimal_hold(dealt, spec, cache_dir)
    expected = _brute_returns(dealt, spec, smallest_hold)
    assert {mask: advice.hold_returns[mask] for mask in expected} == expected
    assert advice.expected_return_exact == max(advice.hold_returns)
    assert advice.expected_return == float(max(advice.hold_returns))


def _tie_rank(advice_mask: int, dealt: tuple[Card, ...]) -> tuple[int, list[int]]:
    held = [card for position, card in enumerate(dealt) if advice_mask >> position & 1]
    return len(held), sorted((int(card.rank) for card in held), reverse=True)


@pytest.mark.parametrize("name", ["jacks_or_better_9_6", "deuces_wild_full_pay"])
def test_the_advice_is_the_best_hold_and_ties_keep_more_cards_then_higher_ranks(name: str, cache_dir: Path) -> None:
    spec = load(name)
    rng = random.Random(11)
    for _ in range(300):
        dealt = tuple(rng.sample(ALL_CARDS, 5))
        advice = optimal_hold(dealt, spec, cache_dir)
        best = max(advice.hold_returns)
        assert advice.expected_return_exact == best
        tied = [mask for mask in range(32) if advice.hold_returns[mask] == best]
        assert _tie_rank(advice.mask, dealt) == max(_tie_rank(mask, dealt) for mask in tied)
        assert advice.held == tuple(card for card in dealt if card in advice.held)  # dealt order


def test_a_dealt_royal_flush_is_held_and_four_deuces_keep_the_kicker_on_a_tie(cache_dir: Path) -> None:
    royal = optimal_hold(parse_cards("As Ks Qs Js Ts"), load("jacks_or_better_9_6"), cache_dir)
    assert royal.held == parse_cards("As Ks Qs Js Ts")
    assert royal.expected_return_exact == 800
    # Four deuces pay the same whatever the fifth card: holding it ties with drawing, so the most cards are kept.
    deuces = optimal_hold(parse_cards("7c 2c 2d 2h 2s"), load("deuces_wild_full_pay"), cache_dir)
    assert deuces.hold_returns[0b11110] == deuces.hold_returns[0b11111] == deuces.expected_return_exact
    assert deuces.held == parse_cards("7c 2c 2d 2h 2s")


@pytest.mark.parametrize("name", ["jacks_or_better_9_6", "deuces_wild_full_pay", "triple_draw_house"])
def test_the_advice_is_the_hold_the_analysis_credits_each_deal_with(name: str, cache_dir: Path) -> None:
    spec = load(name)
    tables, preferences = analysis_cache.deal_tables(cache_dir)
    classes = analysis_cache.class_tables(tables, [int(rank) for rank in spec.wild_ranks], cache_dir)
    values = paytable_values(spec, classes)
    outcome = optimal_outcome(values.group_of_class, values.group_values, classes, tables, preferences)
    best_totals = hold_totals(suit_class_values(values, classes), tables)[outcome.holds, np.arange(len(tables.deals))]
    rng = np.random.default_rng(5)
    shuffle = random.Random(5)
    suits = list(Suit)
    for deal in rng.choice(len(tables.deals), size=400, replace=False):
        representative = tuple(Card.from_index(int(card)) for card in tables.deals[deal])
        advice = optimal_hold(representative, spec, cache_dir)
        assert advice.mask == int(outcome.holds[deal])
        # WEIGHT outcomes per deal: a hold's total over its draws, scaled, over WEIGHT * scale per unit bet.
        held = bin(advice.mask).count("1")
        assert advice.expected_return_exact == Fraction(int(best_totals[deal]), comb(47, 5 - held) * values.scale)
        # Any deal of the same suit class, in any order, gets the image of that hold and the same return.
        renamed = dict(zip(suits, shuffle.sample(suits, 4), strict=True))
        dealt = [Card(card.rank, renamed[card.suit]) for card in representative]
        order = shuffle.sample(range(5), 5)
        other = optimal_hold([dealt[i] for i in order], spec, cache_dir)
        assert other.expected_return_exact == advice.expected_return_exact
        assert sorted(int(card.rank) for card in other.held) == sorted(int(card.rank) for card in advice.held)
        assert sorted(other.hold_returns) == sorted(advice.hold_returns)
    # The analysis' return is the deal-weighted mean of the advised returns (all deals, through the same totals).
    held_counts = np.array([bin(int(mask)).count("1") for mask in outcome.holds])
    weighted = sum(
        int(total) * int(weight) * (WEIGHT // comb(47, 5 - int(h)))
        for total, weight, h in zip(best_totals, tables.deal_weights, held_counts, strict=True)
    )
    assert Fraction(weighted, WEIGHT * values.scale * comb(52, 5)) == analyze(spec, cache_dir).return_exact


def test_a_deal_must_be_five_distinct_cards(cache_dir: Path) -> None:
    spec = load("jacks_or_better_9_6")
    with pytest.raises(HandSizeError):
        optimal_hold(parse_cards("As Ks Qs Js"), spec, cache_dir)
    with pytest.raises(DuplicateCardError):
        optimal_hold(parse_cards("As As Qs Js Ts", unique=False), spec, cache_dir)


def test_the_advice_reads_as_plain_data(cache_dir: Path) -> None:
    advice = optimal_hold(parse_cards("Jd 3c 7h 9s 2d"), load("jacks_or_better_9_6"), cache_dir)
    data = advice.to_dict()
    assert (data["dealt"], data["held"]) == ("Jd 3c 7h 9s 2d", "Jd")
    assert Fraction(data["expected_return_exact"]) == advice.expected_return_exact
    assert data["expected_return"] == float(advice.expected_return_exact)
    assert len(data["holds"]) == 32
    assert data["holds"][0b00001] == {"held": "Jd", "expected_return": data["expected_return"]}
    assert "most cards" in data["tie_rule"]
