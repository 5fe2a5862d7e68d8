"""Showdowns: winners and ties, kill cards (DESIGN 4.6) and the Freak of Nature sliding wild rank (DESIGN 4.7)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.engine.cards import ALL_CARDS, Card, Rank, parse_cards
from casino.engine.errors import DuplicateCardError, HandSizeError, RulesError
from casino.engine.hands import HandCategory, WildSpec, evaluate
from casino.engine.rules.model import Rules
from casino.engine.showdown import freak_wild_rank, showdown


def hands(*texts: str) -> list[tuple]:  # type: ignore[type-arg]
    return [parse_cards(text) for text in texts]


# Freak of Nature, article 3: "Two players reach the showdown. A holds 5♥5♦9♣9♠K♥. B holds Q♠Q♦Q♣4♥7♦. Neither
# player holds a six, so fives become wild. ... A wins."
def test_freak_of_nature_fives_become_wild_when_nobody_holds_a_six() -> None:
    result = showdown(hands("5♥ 5♦ 9♣ 9♠ K♥", "Q♠ Q♦ Q♣ 4♥ 7♦"), Rules.parse("freak-of-nature"))
    assert result.wild_rank is Rank.FIVE
    assert result.winners == (0,)
    assert [value.description for value in result.values if value] == ["Four nines", "Three queens"]


# "Had B held a six in place of the 7♦, sixes would have been wild instead. A would have had only two pair, and B
# would have had four queens."
def test_freak_of_nature_the_six_changes_the_wild_rank_for_everyone() -> None:
    result = showdown(hands("5♥ 5♦ 9♣ 9♠ K♥", "Q♠ Q♦ Q♣ 4♥ 6♦"), Rules.parse("freak-of-nature"))
    assert result.wild_rank is Rank.SIX
    assert result.winners == (1,)
    a, b = result.values
    assert a is not None
    assert a.category is HandCategory.TWO_PAIR
    assert b is not None
    assert b.description == "Four queens"


def test_freak_wild_rank_slides_down_to_two() -> None:
    assert freak_wild_rank(hands("Ah Kd 9c 8s 7h", "2c Jd Qs Ts 8h")) is Rank.TWO
    assert freak_wild_rank(hands("Ah Kd 4c 8s 7h", "3c Jd Qs Ts 8h")) is Rank.FOUR


def test_freak_with_no_low_card_has_no_wild_rank_by_default() -> None:
    result = showdown(hands("Ah Kd 9c 8s 7h", "As Jd Qs Ts 8h"), Rules.parse("freak-of-nature"))
    assert result.wild_rank is None
    assert result.winners == (0,)  # ace-king high beats ace-queen high


def test_freak_bottom_aces_makes_aces_wild_when_no_low_card_is_held() -> None:
    rules = Rules.parse("freak-of-nature", {"freak_bottom": "aces"})
    result = showdown(hands("Ah Kd 9c 8s 7h", "As Jd Qs Ts 8h"), rules)
    assert result.wild_rank is Rank.ACE
    assert [value.description for value in result.values if value] == ["Pair of kings", "Straight, queen high"]
    assert result.winners == (1,)


def test_freak_wild_rank_rejects_an_unknown_bottom_option() -> None:
    with pytest.raises(RulesError):
        freak_wild_rank(hands("Ah Kd 9c 8s 7h"), "kings")


def test_a_hand_won_uncontested_needs_no_wild_rank() -> None:
    result = showdown(hands("5h 5d 9c 9s Kh"), Rules.parse("freak-of-nature"))
    assert result.wild_rank is None
    assert result.winners == (0,)
    assert result.values[0] is not None
    assert result.values[0].description == "Nines and fives"


def test_equal_hands_split_the_pot() -> None:
    result = showdown(hands("As Kd 8c 5h 2s", "Ah Kc 8d 5s 2h", "Qs Qh 3c 4d 7s"), Rules.parse("five-card-draw"))
    assert result.winners == (2,)
    result = showdown(hands("As Kd 8c 5h 2s", "Ah Kc 8d 5s 2h", "Qs Jh 3c 4d 7s"), Rules.parse("five-card-draw"))
    assert result.winners == (0, 1)


# Pregnant Threes: "A player who receives a kill card is disqualified and their hand is dead."
def test_a_hand_holding_a_kill_card_is_dead_and_cannot_win() -> None:
    rules = Rules.parse("pregnant-threes", {"kill_cards": ["Kd"]})
    result = showdown(hands("3♠ 6♦ 9♥ 9♣ K♦", "2c 4d 7h 8s Jc"), rules)
    assert result.values[0] is None
    assert result.dead == (0,)
    assert result.winners == (1,)


def test_kill_card_presets_one_eyed_jacks() -> None:
    rules = Rules.parse("pregnant-threes", {"kill_cards": "one_eyed_jacks"})
    result = showdown(hands("Jh Ad Ac As Ah", "2c 4d 7h 8s Jc"), rules)
    assert result.winners == (1,)


def test_when_every_hand_is_dead_nobody_wins() -> None:
    rules = Rules.parse("five-card-draw", {"kill_cards": ["Kd", "Js"]})
    result = showdown(hands("Kd 2c 3c 4c 5c", "Js 2d 3d 4d 5d"), rules)
    assert result.winners == ()
    assert result.values == (None, None)


def test_dead_hands_do_not_fix_the_freak_wild_rank() -> None:
    rules = Rules.parse("freak-of-nature", {"kill_cards": ["Kd"]})
    result = showdown(hands("Kd 6c 9c 9d 2h", "5h 5d Qc Qs 8h", "Ac Ad 7c 7d 5s"), rules)
    assert result.wild_rank is Rank.FIVE
    assert [value.description if value else None for value in result.values] == [
        None,
        "Four queens",
        "Aces full of sevens",
    ]
    assert result.winners == (1,)


def test_showdown_rejects_a_card_held_twice_and_short_hands() -> None:
    with pytest.raises(DuplicateCardError):
        showdown(hands("As Kd 8c 5h 2s", "As Kc 8d 5s 2h"), Rules.parse("five-card-draw"))
    with pytest.raises(HandSizeError):
        showdown(hands("As Kd 8c 5h"), Rules.parse("five-card-draw"))


# Pregnant Threes FAQ: "With twelve wild cards, two players can both hold five of a kind, and the one with the
# higher rank wins."
def test_two_players_with_five_of_a_kind_the_higher_rank_wins() -> None:
    result = showdown(hands("3h 6c Qs Qd 9d", "3s 6d 9h 9c Kh"), Rules.parse("pregnant-threes"))
    assert [value.description for value in result.values if value] == ["Five queens", "Five kings"]
    assert result.winners == (1,)


# Freak of Nature 1.4: "the usual practice is that five of a kind beats a straight flush".
def test_freak_five_of_a_kind_beats_a_straight_flush_unless_announced_otherwise() -> None:
    players = hands("5h 5d 5c Qs Qd", "9h 8h 7h Jh Th")  # fives wild: five queens against a straight flush
    assert showdown(players, Rules.parse("freak-of-nature")).winners == (0,)
    below = Rules.parse("freak-of-nature", {"five_of_a_kind": "below_straight_flush"})
    assert showdown(players, below).winners == (1,)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from(ALL_CARDS), min_size=10, max_size=20, unique=True),
    st.sampled_from(["no_wild", "aces"]),
    st.sets(st.sampled_from(ALL_CARDS), max_size=3),
)
def test_freak_showdown_picks_the_sliding_rank_and_the_best_live_hands(
    cards: list[Card], bottom: str, kill: set[Card]
) -> None:
    players = [tuple(cards[i : i + 5]) for i in range(0, len(cards) - len(cards) % 5, 5)]
    # A kill card may not be of a rank that can slide wild (six down to deuce, aces when they are the bottom); a
    # dead hand's low cards still do not fix the slide.
    kill = {card for card in kill if card.rank > 6 and not (bottom == "aces" and card.rank == Rank.ACE)}
    rules = Rules.parse("freak-of-nature", {"freak_bottom": bottom, "kill_cards": sorted(map(str, kill))})
    result = showdown(players, rules)
    live = [hand for hand in players if not any(card in kill for card in hand)]
    held = {card.rank for hand in live for card in hand}
    low = [rank for rank in (6, 5, 4, 3, 2) if rank in held]
    expected_rank = None if len(live) < 2 else Rank(low[0]) if low else (Rank.ACE if bottom == "aces" else None)
    assert result.wild_rank == expected_rank
    wild = WildSpec(ranks=frozenset({expected_rank})) if expected_rank else WildSpec.NONE
    expected = [None if hand not in live else evaluate(hand, wild) for hand in players]
    assert list(result.values) == expected
    best = max((value for value in expected if value is not None), default=None)
    assert result.winners == tuple(i for i, value in enumerate(expected) if value is not None and value == best)
