"""Exact paytable analysis (DESIGN 6): 'each paytable's exact theoretical return under optimal holds (all
2,598,960 deals × 32 holds), hit frequency, per-line probabilities and variance'."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from casino.engine.analysis import TOTAL_OUTCOMES, PaytableAnalysis, analyze
from casino.engine.analysis import cache as analysis_cache
from casino.engine.analysis.deals import suit_keys
from casino.engine.analysis.optimal import hold_preferences, hold_totals, optimal_outcome
from casino.engine.cards import Card
from casino.engine.paytable import PaytableError, PaytableSpec

STANDARD = Path(__file__).resolve().parents[2] / "paytables" / "standard"


def load(name: str) -> PaytableSpec:
    return PaytableSpec.from_dict(json.loads((STANDARD / f"{name}.json").read_text()))


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("analysis-cache")


@pytest.fixture(scope="module")
def jacks_9_6(cache_dir: Path) -> PaytableAnalysis:
    return analyze(load("jacks_or_better_9_6"), cache_dir)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("jacks_or_better_9_6", 0.995439),
        ("jacks_or_better_8_5", 0.972984),
        ("bonus_poker_8_5", 0.991660),
        ("double_bonus_10_7", 1.001725),
        ("tens_or_better_6_5", 0.991388),
        ("deuces_wild_full_pay", 1.007620),
    ],
)
def test_the_return_of_each_standard_paytable_matches_the_published_figure(
    name: str, expected: float, cache_dir: Path
) -> None:
    assert round(analyze(load(name), cache_dir).return_, 6) == expected


def test_jacks_or_better_9_6_reproduces_the_published_combination_counts(jacks_9_6: PaytableAnalysis) -> None:
    assert [line.combinations for line in jacks_9_6.lines] == [
        493_512_264,
        2_178_883_296,
        47_093_167_764,
        229_475_482_596,
        219_554_786_160,
        223_837_565_784,
        1_484_003_070_324,
        2_576_946_164_148,
        4_277_372_890_968,
    ]
    assert jacks_9_6.nothing_combinations == 10_872_274_993_896
    assert jacks_9_6.total_combinations == TOTAL_OUTCOMES == 19_933_230_517_200 == 2_598_960 * 7_669_695


def test_the_figures_are_consistent_with_the_line_counts(jacks_9_6: PaytableAnalysis) -> None:
    counts = [line.combinations for line in jacks_9_6.lines]
    assert sum(counts) + jacks_9_6.nothing_combinations == TOTAL_OUTCOMES
    assert jacks_9_6.return_exact == sum(line.contribution for line in jacks_9_6.lines)
    assert jacks_9_6.hit_frequency_exact == Fraction(sum(counts), TOTAL_OUTCOMES)
    assert round(jacks_9_6.hit_frequency, 6) == 0.454565  # the published hit frequency
    assert round(jacks_9_6.variance, 2) == 19.51  # the published variance
    assert jacks_9_6.std_dev == pytest.approx(jacks_9_6.variance**0.5)


def test_a_to_1_paytable_with_jacks_pushing_has_the_same_figures_as_its_for_1_form(
    jacks_9_6: PaytableAnalysis, cache_dir: Path
) -> None:
    for_1 = load("jacks_or_better_9_6").to_dict()
    to_1 = dict(for_1, basis="to_1", lines=[dict(line, pays=line["pays"] - 1) for line in for_1["lines"]])
    assert to_1["lines"][-1] == {"hand": "one_pair", "min_rank": "J", "pays": 0}
    analysis = analyze(PaytableSpec.from_dict(to_1), cache_dir)
    assert analysis.return_exact == jacks_9_6.return_exact
    assert analysis.variance_exact == jacks_9_6.variance_exact
    assert analysis.hit_frequency_exact == jacks_9_6.hit_frequency_exact
    assert [line.combinations for line in analysis.lines] == [line.combinations for line in jacks_9_6.lines]


def test_fractional_pays_are_analysed_exactly(cache_dir: Path) -> None:
    base = load("jacks_or_better_9_6").to_dict()
    halved = dict(base, lines=[dict(line, pays=f"{line['pays']}/2") for line in base["lines"]])
    doubled = analyze(PaytableSpec.from_dict(base), cache_dir)
    assert analyze(PaytableSpec.from_dict(halved), cache_dir).return_exact == doubled.return_exact / 2


def test_to_dict_has_the_design_9_fields(jacks_9_6: PaytableAnalysis) -> None:
    data = jacks_9_6.to_dict()
    assert {"return", "hit_frequency", "variance", "lines"} <= set(data)
    assert data["lines"][0]["hand"] == "royal_flush"
    assert data["lines"][0]["combinations"] == 493_512_264
    # DESIGN 6: 'reports show both' bases.
    assert (data["lines"][0]["pays_for_1"], data["lines"][0]["pays_to_1"]) == (800, 799)
    assert (data["lines"][-1]["pays_for_1"], data["lines"][-1]["pays_to_1"]) == (1, 0)
    json.dumps(data)


def _brute_hold_totals(deal: list[int], values: dict[int | None, int], spec: PaytableSpec) -> list[int]:
    """Total of `values` per hold, by dealing every draw from the 47 unseen cards (holds of 3+ cards only)."""
    unseen = [card for card in range(52) if card not in deal]
    totals = []
    for mask in range(32):
        held = [deal[j] for j in range(5) if mask >> j & 1]
        if len(held) < 3:
            totals.append(0)
            continue
        total = 0
        for drawn in itertools.combinations(unseen, 5 - len(held)):
            cards = [Card.from_index(card) for card in (*held, *drawn)]
            total += values[spec.match(cards)]
        totals.append(total)
    return totals


@pytest.mark.parametrize("name", ["bonus_poker_8_5", "deuces_wild_full_pay"])
def test_hold_totals_agree_with_dealing_every_draw(name: str, cache_dir: Path) -> None:
    spec = load(name)
    tables, _ = analysis_cache.deal_tables(cache_dir)
    classes = analysis_cache.class_tables(tables, [int(rank) for rank in spec.wild_ranks], cache_dir)
    class_values = np.array([int(spec.line_return(spec.match_class(k))) for k in classes.classes], dtype=np.int64)
    per_suit_class = np.concatenate(
        [np.rint(classes.counts @ class_values).astype(np.int64), class_values[classes.deal_class]]
    )
    totals = hold_totals(per_suit_class, tables)
    values = {index: int(spec.line_return(index)) for index in [None, *range(len(spec.lines))]}
    rng = np.random.default_rng(7)
    for deal_index in rng.choice(len(tables.deals), size=3, replace=False):
        deal = [int(card) for card in tables.deals[deal_index]]
        expected = _brute_hold_totals(deal, values, spec)
        got = [int(totals[mask, deal_index]) if bin(mask).count("1") >= 3 else 0 for mask in range(32)]
        assert got == expected, [str(Card.from_index(card)) for card in deal]


def test_the_tables_are_cached_on_disk_and_reused(cache_dir: Path, jacks_9_6: PaytableAnalysis) -> None:
    files = sorted(path.name for path in cache_dir.iterdir())
    assert any(name.startswith("deals-v") for name in files)
    assert any(name.startswith("classes-v") and name.endswith("wild-none.npz") for name in files)
    analysis_cache.clear_memory()
    again = analyze(load("jacks_or_better_9_6"), cache_dir)
    assert again == jacks_9_6


def test_among_holds_of_equal_return_every_deal_keeps_all_five_cards(cache_dir: Path) -> None:
    # Every hand pays the same, so all 32 holds of every deal tie: the tie rule keeps the most cards.
    codes = [
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
    spec = PaytableSpec.from_dict({"name": "flat", "basis": "for_1", "lines": [{"hand": c, "pays": 1} for c in codes]})
    tables, preferences = analysis_cache.deal_tables(cache_dir)
    classes = analysis_cache.class_tables(tables, [], cache_dir)
    every_class_alike = np.zeros(len(classes.classes), dtype=np.int64)
    outcome = optimal_outcome(every_class_alike, np.ones(1, dtype=np.int64), classes, tables, preferences)
    assert (outcome.holds == 31).all()
    assert analyze(spec, cache_dir).return_exact == 1


def test_the_tie_rule_prefers_more_cards_then_higher_ranks() -> None:
    deal = np.array([[Card.parse(text).index for text in ("2c", "5d", "9h", "Jc", "Ks")]], dtype=np.uint8)
    preference = hold_preferences(deal)[:, 0]
    ranked = sorted(range(32), key=lambda mask: -int(preference[mask]))
    assert ranked[0] == 0b11111
    one_card = [mask for mask in ranked if bin(mask).count("1") == 1]
    assert one_card == [0b10000, 0b01000, 0b00100, 0b00010, 0b00001]  # K, J, 9, 5, 2
    two_cards = [mask for mask in ranked if bin(mask).count("1") == 2]
    assert two_cards[:3] == [0b11000, 0b10100, 0b10010]  # K-J, K-9, K-5
    assert ranked[-1] == 0  # keeping nothing comes last


def test_pays_too_fine_for_exact_integers_are_refused_not_rounded(cache_dir: Path) -> None:
    spec = PaytableSpec.from_dict(
        {
            "name": "fine",
            "basis": "for_1",
            "lines": [
                {"hand": "royal_flush", "pays": "800/999983"},
                {"hand": "flush", "pays": "1/999979"},
                {"hand": "straight", "pays": "1/999961"},
            ],
        }
    )
    with pytest.raises(PaytableError, match="too fine for an exact analysis"):
        analyze(spec, cache_dir)


def test_a_paytable_with_three_wild_ranks_is_analysed(cache_dir: Path) -> None:
    spec = PaytableSpec.from_dict(
        {
            "name": "threes, sixes and nines wild",
            "basis": "for_1",
            "wild_ranks": ["3", "6", "9"],
            "lines": [
                {"hand": "five_of_a_kind", "pays": 10},
                {"hand": "royal_flush", "pays": 100},
                {"hand": "four_of_a_kind", "pays": 2},
            ],
        }
    )
    result = analyze(spec, cache_dir)
    assert sum(line.combinations for line in result.lines) + result.nothing_combinations == TOTAL_OUTCOMES
    assert 0 < result.return_exact < 10


def test_a_damaged_cache_file_is_rebuilt_not_trusted(tmp_path: Path, jacks_9_6: PaytableAnalysis) -> None:
    analyze(load("jacks_or_better_9_6"), tmp_path)
    for path in tmp_path.iterdir():
        path.write_bytes(path.read_bytes()[:1000])  # truncated, as after a crash mid-copy
    analysis_cache.clear_memory()
    assert analyze(load("jacks_or_better_9_6"), tmp_path) == jacks_9_6
    assert all(path.stat().st_size > 1000 for path in tmp_path.iterdir())


def test_every_hold_of_a_deal_totals_what_dealing_every_draw_gives(cache_dir: Path) -> None:
    """Including the 1,533,939 draws of keeping nothing: each final hand looked up by its suit class."""
    spec = load("deuces_wild_full_pay")
    tables, _ = analysis_cache.deal_tables(cache_dir)
    classes = analysis_cache.class_tables(tables, [2], cache_dir)
    class_values = np.array([int(spec.line_return(spec.match_class(k))) for k in classes.classes], dtype=np.int64)
    per_suit_class = np.concatenate(
        [np.rint(classes.counts @ class_values).astype(np.int64), class_values[classes.deal_class]]
    )
    totals = hold_totals(per_suit_class, tables)
    deal_index = int(np.searchsorted(tables.levels[5].keys, suit_keys(np.array([[0, 9, 22, 35, 50]]))[0]))
    deal = [int(card) for card in tables.deals[deal_index]]
    unseen = np.array([card for card in range(52) if card not in deal], dtype=np.int64)
    for mask in range(32):
        held = [deal[j] for j in range(5) if mask >> j & 1]
        combos = list(itertools.combinations(range(47), 5 - len(held)))
        draws = np.array(combos, dtype=np.int64).reshape(len(combos), 5 - len(held))
        hands = np.concatenate([np.tile(np.array(held, dtype=np.int64), (len(draws), 1)), unseen[draws]], axis=1)
        found = np.searchsorted(tables.levels[5].keys, suit_keys(hands))
        expected = int(class_values[classes.deal_class[found]].sum())
        assert int(totals[mask, deal_index]) == expected, mask
