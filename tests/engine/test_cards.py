"""Card notation (DESIGN 3), hand parsing and the deck with an injected random source."""

from __future__ import annotations

import random

import pytest

from casino.engine.cards import ALL_CARDS, Card, Deck, Rank, Suit, format_cards, parse_cards
from casino.engine.errors import CardError, DuplicateCardError, HandSizeError


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("Qs", "Qs"),
        ("qS", "Qs"),
        ("10h", "Th"),
        ("Td", "Td"),
        ("t♦", "Td"),
        ("A♠", "As"),
        ("3♥", "3h"),
        ("K♣", "Kc"),
        ("9D", "9d"),
    ],
)
def test_cards_parse_case_insensitively_with_10_and_suit_symbols(token: str, expected: str) -> None:
    assert str(Card.parse(token)) == expected


@pytest.mark.parametrize("token", ["1s", "Zs", "Qx", "Q", "", "10", "11h", "Q♤x"])
def test_bad_card_tokens_are_named(token: str) -> None:
    with pytest.raises(CardError) as error:
        Card.parse(token)
    assert error.value.token == token
    assert error.value.code == "bad_card"


def test_a_hand_parses_from_space_separated_cards() -> None:
    hand = parse_cards("3h 6c Qs Qd 9d", count=5)
    assert format_cards(hand) == "3h 6c Qs Qd 9d"
    assert hand[2] == Card(Rank.QUEEN, Suit.SPADES)


def test_hand_parsing_names_the_bad_token_the_duplicate_and_the_count() -> None:
    with pytest.raises(CardError) as bad:
        parse_cards("3h 6c Qz Qd 9d")
    assert bad.value.token == "Qz"
    with pytest.raises(DuplicateCardError) as duplicate:
        parse_cards("3h 6c Qs qS 9d")
    assert duplicate.value.token == "Qs"
    with pytest.raises(HandSizeError):
        parse_cards("3h 6c Qs", count=5)


def test_cards_are_frozen_values_with_stable_indexes() -> None:
    card = Card.parse("Qs")
    assert card == Card(Rank.QUEEN, Suit.SPADES)
    assert Card.from_index(card.index) is card
    assert sorted(card.index for card in ALL_CARDS) == list(range(52))
    with pytest.raises(AttributeError):
        card.rank = Rank.KING  # type: ignore[misc]


def test_deck_deals_burns_and_counts_what_remains() -> None:
    deck = Deck()
    assert deck.remaining == 52
    assert format_cards(deck.deal(2)) == "2c 2d"
    assert format_cards(deck.burn()) == "2h"
    assert deck.remaining == 49
    assert len(set(deck.deal(49))) == 49
    with pytest.raises(HandSizeError):
        deck.deal(1)


def test_shuffling_uses_the_injected_random_source() -> None:
    first = Deck.shuffled(random.Random(7)).cards()
    again = Deck.shuffled(random.Random(7)).cards()
    other = Deck.shuffled(random.Random(8)).cards()
    assert first == again
    assert first != other
    assert sorted(first, key=lambda card: card.index) == list(ALL_CARDS)
