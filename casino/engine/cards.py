"""Card value types and notation (DESIGN 3): Rank, Suit, Card, parse_cards, Deck."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from typing import ClassVar

from casino.engine.errors import CardError, DuplicateCardError, HandSizeError


class Rank(IntEnum):
    """Card ranks; the value is the rank's strength with the ace high (14)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def code(self) -> str:
        """Canonical one-character notation: 2-9, T, J, Q, K, A."""
        return _RANK_CODES[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        rank = _RANK_BY_TEXT.get(text.strip().upper())
        if rank is None:
            raise CardError(f"unknown rank {text!r}", token=text)
        return rank


class Suit(StrEnum):
    """Card suits; stored and printed as lowercase letters."""

    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"

    @classmethod
    def parse(cls, text: str) -> Suit:
        suit = _SUIT_BY_TEXT.get(text.strip().lower())
        if suit is None:
            raise CardError(f"unknown suit {text!r}", token=text)
        return suit


_RANK_CODES = {rank: ("T" if rank == 10 else "JQKA"[rank - 11] if rank > 10 else str(int(rank))) for rank in Rank}
_RANK_BY_TEXT = {code: rank for rank, code in _RANK_CODES.items()} | {"10": Rank.TEN}
_SUIT_BY_TEXT = {suit.value: suit for suit in Suit} | {
    "♣": Suit.CLUBS,
    "♦": Suit.DIAMONDS,
    "♥": Suit.HEARTS,
    "♠": Suit.SPADES,
    "♧": Suit.CLUBS,
    "♢": Suit.DIAMONDS,
    "♡": Suit.HEARTS,
    "♤": Suit.SPADES,
}
_SUIT_ORDER = {Suit.CLUBS: 0, Suit.DIAMONDS: 1, Suit.HEARTS: 2, Suit.SPADES: 3}


@dataclass(frozen=True, slots=True, order=False)
class Card:
    """A playing card, e.g. ``Card.parse("Qs")``; its ``index`` 0-51 is (rank - 2) * 4 + suit."""

    rank: Rank
    suit: Suit
    # Computed once: hand evaluation looks cards up by index millions of times.
    index: int = field(init=False, repr=False, compare=False)

    SUIT_ORDER: ClassVar[dict[Suit, int]] = _SUIT_ORDER

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", (self.rank - 2) * 4 + _SUIT_ORDER[self.suit])

    def __hash__(self) -> int:
        return self.index

    @classmethod
    def from_index(cls, index: int) -> Card:
        if not 0 <= index < 52:
            raise CardError(f"card index {index} is outside 0-51", token=str(index))
        return ALL_CARDS[index]

    @classmethod
    def parse(cls, token: str) -> Card:
        """Parse one card: rank then suit, case-insensitive, '10' and suit symbols accepted."""
        card = _CARD_BY_TEXT.get(token)
        if card is not None:  # the canonical spelling, as records store cards: no need to take it apart
            return card
        text = token.strip()
        if len(text) < 2:
            raise CardError(f"bad card {token!r}: expected a rank and a suit such as 'Qs'", token=token)
        try:
            return _CARD_BY_KEY[(Rank.parse(text[:-1]), Suit.parse(text[-1]))]
        except CardError as exc:
            raise CardError(f"bad card {token!r}: {exc.message}", token=token) from None

    def __str__(self) -> str:
        return f"{self.rank.code}{self.suit.value}"

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


# Built once so parse and from_index hand out shared instances; index order is rank-major, then c d h s.
ALL_CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for rank in Rank for suit in Suit)
_CARD_BY_KEY = {(card.rank, card.suit): card for card in ALL_CARDS}
_CARD_BY_TEXT = {str(card): card for card in ALL_CARDS}


def parse_cards(text: str | Iterable[str], *, count: int | None = None, unique: bool = True) -> tuple[Card, ...]:
    """Parse space- or comma-separated cards (or a list of tokens); check the count and duplicates."""
    tokens = text.replace(",", " ").split() if isinstance(text, str) else [str(token) for token in text]
    cards = tuple(Card.parse(token) for token in tokens)
    if count is not None and len(cards) != count:
        raise HandSizeError(f"expected {count} cards, got {len(cards)}", token=" ".join(tokens))
    if unique:
        check_unique(cards)
    return cards


def check_unique(cards: Iterable[Card]) -> None:
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise DuplicateCardError(f"card {card} appears twice", token=str(card))
        seen.add(card)


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(card) for card in cards)


_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}


def card_symbols(card: Card) -> str:
    """A card as people read it on a screen: "J♠", "10♥"."""
    return f"{'10' if card.rank is Rank.TEN else card.rank.code}{_SUIT_SYMBOLS[card.suit]}"


class Deck:
    """A 52-card deck; shuffled only by an injected random source (SystemRandom in production)."""

    def __init__(self, cards: Sequence[Card] | None = None) -> None:
        self._cards: list[Card] = list(ALL_CARDS if cards is None else cards)
        check_unique(self._cards)

    @classmethod
    def shuffled(cls, rng: random.Random) -> Deck:
        deck = cls()
        deck.shuffle(rng)
        return deck

    def shuffle(self, rng: random.Random) -> None:
        rng.shuffle(self._cards)

    def deal(self, count: int = 1) -> tuple[Card, ...]:
        """Take `count` cards off the top."""
        if count < 0 or count > len(self._cards):
            raise HandSizeError(f"cannot deal {count} cards from {len(self._cards)} remaining", token=str(count))
        dealt, self._cards = self._cards[:count], self._cards[count:]
        return tuple(dealt)

    def burn(self, count: int = 1) -> tuple[Card, ...]:
        return self.deal(count)

    @property
    def remaining(self) -> int:
        return len(self._cards)

    def cards(self) -> tuple[Card, ...]:
        """The cards still in the deck, top first."""
        return tuple(self._cards)
