"""Announcements that contradict themselves are refused, naming the option (tester's report): a big bet below the
small bet, a card both wild and a kill card, and an option of another betting structure (refused, not dropped)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.engine.cards import ALL_CARDS, Card, Rank
from casino.engine.errors import AnnouncementError, RulesError
from casino.engine.rules.model import Rules
from casino.engine.rules.options import FREAK_RANKS
from casino.engine.variants import FREAK_OF_NATURE, HOME_VARIANTS

STAKES = {"ante_cents": 100, "small_bet_cents": 200, "big_bet_cents": 400}


def _outcome(code: str, options: dict[str, object]) -> Rules | RulesError:
    try:
        return Rules.parse(code, options)
    except RulesError as exc:
        return exc


def _refused(code: str, options: dict[str, object]) -> RulesError:
    with pytest.raises(RulesError) as error:
        Rules.parse(code, options)
    return error.value


# ----- 1. fixed limit: the big bet is at least the small bet -----


def test_a_big_bet_below_the_small_bet_is_refused_naming_the_big_bet() -> None:
    error = _refused("five-card-draw", {"ante_cents": 100, "small_bet_cents": 400, "big_bet_cents": 200})
    assert error.option == "big_bet_cents"
    assert "at least small_bet_cents (400)" in error.message
    with pytest.raises(AnnouncementError) as announced:
        Rules.announce("five-card-draw", {"ante_cents": 100, "small_bet_cents": 400, "big_bet_cents": 200})
    assert announced.value.option == "big_bet_cents"


def test_a_big_bet_equal_to_or_twice_the_small_bet_is_fine() -> None:
    for big in (400, 800):
        rules = Rules.announce("five-card-draw", {"ante_cents": 100, "small_bet_cents": 400, "big_bet_cents": big})
        assert (rules.bet_unit(0), rules.bet_unit(1)) == (400, big)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(HOME_VARIANTS), st.integers(1, 10**7), st.integers(1, 10**7))
def test_fixed_limit_is_accepted_exactly_when_the_big_bet_is_not_below_the_small(
    code: str, small: int, big: int
) -> None:
    options = {"ante_cents": 0, "small_bet_cents": small, "big_bet_cents": big}
    rules = _outcome(code, options)
    if isinstance(rules, RulesError):
        assert big < small
        assert rules.option == "big_bet_cents"
    else:
        assert big >= small
        assert (rules.small_bet_cents, rules.big_bet_cents) == (small, big)


# ----- 2. no card is both wild and a kill card -----


@pytest.mark.parametrize(
    ("code", "options", "card", "words"),
    [
        ("five-card-draw", {"wild_ranks": ["J"], "kill_cards": ["Js"]}, "Js", "jacks are announced wild in wild_ranks"),
        ("five-card-draw", {"wild_ranks": ["J"], "kill_cards": ["one_eyed_jacks"]}, "Js", "jacks"),
        ("three-legged-race", {"wild_ranks": ["2"], "kill_cards": ["2c"]}, "2c", "twos are announced wild"),
        ("five-card-draw", {"wild_cards": ["Kd"], "kill_cards": ["man_with_the_axe"]}, "Kd", "wild_cards"),
        ("pregnant-threes", {"kill_cards": ["3s"]}, "3s", "threes are wild in Pregnant Threes"),
        ("pregnant-threes", {"kill_cards": ["Kd", "9h"]}, "9h", "nines are wild in Pregnant Threes"),
        # Freak of Nature: sixes are wild, and below them each rank to the deuce may slide wild (rule sheet 3.1).
        ("freak-of-nature", {"kill_cards": ["6d"]}, "6d", "sixes are wild"),
        ("freak-of-nature", {"kill_cards": ["5h"]}, "5h", "fives are wild"),
        ("freak-of-nature", {"kill_cards": ["2c"]}, "2c", "twos are wild"),
        ("freak-of-nature", {"freak_bottom": "aces", "kill_cards": ["As"]}, "As", "aces are wild"),
    ],
)
def test_a_kill_card_that_is_or_may_be_wild_is_refused_naming_kill_cards(
    code: str, options: dict[str, object], card: str, words: str
) -> None:
    error = _refused(code, options)
    assert (error.option, error.token) == ("kill_cards", card)
    assert f"card {card} cannot be both wild and a kill card" in error.message
    assert words in error.message


@pytest.mark.parametrize(
    ("code", "options"),
    [
        ("pregnant-threes", {"kill_cards": ["one_eyed_jacks", "man_with_the_axe"]}),
        ("five-card-draw", {"wild_ranks": ["2"], "kill_cards": ["Js", "Jh"]}),
        ("freak-of-nature", {"kill_cards": ["7s", "As", "Kd"]}),  # aces stay natural with freak_bottom no_wild
        ("three-legged-race", {"wild_cards": ["Jd"], "kill_cards": ["Js"]}),
    ],
)
def test_kill_cards_that_are_never_wild_are_fine(code: str, options: dict[str, object]) -> None:
    Rules.parse(code, options)


def _may_be_wild(rules: Rules, card: Card) -> bool:
    if rules.wild.is_wild(card):
        return True
    if not rules.sliding_wild:
        return False
    return card.rank in FREAK_RANKS or (rules.freak_bottom == "aces" and card.rank == Rank.ACE)


_CARDS = st.lists(st.sampled_from(ALL_CARDS), max_size=4).map(lambda cards: [str(card) for card in cards])
_RANKS = st.lists(st.sampled_from(list(Rank)), max_size=2).map(lambda ranks: [rank.code for rank in ranks])


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(HOME_VARIANTS), _CARDS, _RANKS, _CARDS, st.sampled_from(["no_wild", "aces"]))
def test_an_accepted_announcement_never_has_a_kill_card_that_may_play_wild(
    code: str, kills: list[str], wild_ranks: list[str], wild_cards: list[str], bottom: str
) -> None:
    options: dict[str, object] = {"kill_cards": kills}
    if code in ("five-card-draw", "three-legged-race"):
        options.update(wild_ranks=wild_ranks, wild_cards=wild_cards)
    if code == FREAK_OF_NATURE:
        options["freak_bottom"] = bottom
    rules = _outcome(code, options)
    if isinstance(rules, RulesError):
        assert rules.option == "kill_cards"
        assert rules.token in kills
        assert _may_be_wild(Rules.parse(code, {**options, "kill_cards": []}), Card.parse(str(rules.token)))
    else:
        assert not any(_may_be_wild(rules, card) for card in rules.kill_cards)


# ----- 3. an option of another betting structure is refused, not dropped -----


@pytest.mark.parametrize(
    ("options", "option"),
    [
        ({**STAKES, "min_bet_cents": 999}, "min_bet_cents"),
        ({**STAKES, "betting": "fixed_limit", "min_bet_cents": 100}, "min_bet_cents"),
        ({"ante_cents": 100, "betting": "no_limit", "min_bet_cents": 200, "small_bet_cents": 100}, "small_bet_cents"),
        ({"ante_cents": 100, "betting": "pot_limit", "small_bet_cents": 100}, "small_bet_cents"),
        ({"ante_cents": 100, "betting": "pot_limit", "min_bet_cents": 200, "big_bet_cents": 400}, "big_bet_cents"),
    ],
)
def test_an_option_of_another_betting_structure_is_refused_naming_it(
    options: dict[str, object], option: str
) -> None:
    for code in HOME_VARIANTS:
        error = _refused(code, options)
        assert error.option == option
        assert "applies only to" in error.message


def test_the_big_bet_stands_in_for_an_unannounced_minimum_bet_and_null_is_not_announced() -> None:
    # DESIGN 7: the minimum bet of pot and no limit defaults to big_bet_cents.
    rules = Rules.announce("five-card-draw", {"ante_cents": 100, "betting": "no_limit", "big_bet_cents": 400})
    assert rules.min_bet_cents == 400
    rules = Rules.announce("five-card-draw", {**STAKES, "min_bet_cents": None})
    assert "min_bet_cents" not in rules.to_dict()


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(HOME_VARIANTS),
    st.sampled_from(["fixed_limit", "pot_limit", "no_limit"]),
    st.dictionaries(st.sampled_from(["small_bet_cents", "big_bet_cents", "min_bet_cents"]), st.integers(1, 5_000)),
)
def test_no_announced_stake_is_silently_dropped(code: str, betting: str, stakes: dict[str, int]) -> None:
    options: dict[str, object] = {"ante_cents": 10, "betting": betting, **stakes}
    rules = _outcome(code, options)
    if isinstance(rules, RulesError):
        assert rules.option in stakes
        return
    written = rules.to_dict()
    for option, value in stakes.items():
        # Each stake given is in the rules as given, or is the big bet standing in for the minimum bet.
        assert written.get(option) == value or (option == "big_bet_cents" and written["min_bet_cents"] == value)
