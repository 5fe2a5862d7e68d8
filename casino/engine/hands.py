"""Five-card hand evaluation with wild cards (DESIGN 4): categories, options, the hand value and its description."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from casino.engine.cards import ALL_CARDS, Card, Rank, Suit, check_unique
from casino.engine.errors import CardError, HandSizeError, RulesError, WildSpecError
from casino.engine.ranking import (
    CATEGORY_BY_SLOT,
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    ONE_PAIR,
    ROYAL_FLUSH,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
    HandCategory,
    decode,
    encode,
)
from casino.engine.strength import StrengthFunction, hand_strength, make_strength_function

__all__ = [
    "DEFAULT_OPTIONS",
    "FIVE_OF_A_KIND_POSITIONS",
    "HandCategory",
    "HandOptions",
    "HandValue",
    "WildSpec",
    "describe",
    "evaluate",
    "hand_strength",
    "rank_name",
    "strength_function",
]

FIVE_OF_A_KIND_POSITIONS = ("highest", "below_straight_flush")


@dataclass(frozen=True)
class WildSpec:
    """What is wild: whole ranks (Pregnant Threes: 3 6 9) and/or named cards; empty means no wild cards."""

    ranks: frozenset[Rank] = frozenset()
    cards: frozenset[Card] = frozenset()

    NONE: ClassVar[WildSpec]

    def is_wild(self, card: Card) -> bool:
        return card.rank in self.ranks or card in self.cards

    def __bool__(self) -> bool:
        return bool(self.ranks or self.cards)

    @functools.cached_property
    def indices(self) -> frozenset[int]:
        """The card indices (0-51) that are wild."""
        return frozenset(card.index for card in ALL_CARDS if self.is_wild(card))

    @classmethod
    def of_ranks(cls, ranks: Iterable[Rank | int | str]) -> WildSpec:
        return cls(ranks=frozenset(_to_rank(rank) for rank in ranks))

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> WildSpec:
        """Parse ranks and/or cards, e.g. "3 6 9" or "Js Jh"; a specification naming nothing is an error."""
        tokens = text.replace(",", " ").split() if isinstance(text, str) else [str(token) for token in text]
        if not tokens:
            raise WildSpecError("the wild-card specification names no rank or card", token=str(text))
        ranks: set[Rank] = set()
        cards: set[Card] = set()
        for token in tokens:
            try:
                ranks.add(Rank.parse(token))
                continue
            except CardError:
                pass
            try:
                cards.add(Card.parse(token))
            except CardError:
                raise WildSpecError(
                    f"bad wild card {token!r}: expected a rank such as '3' or a card such as 'Js'", token=token
                ) from None
        return cls(ranks=frozenset(ranks), cards=frozenset(cards))

    def __str__(self) -> str:
        parts = [rank.code for rank in sorted(self.ranks)] + [str(card) for card in sorted(self.cards, key=_index)]
        return " ".join(parts) if parts else "none"


WildSpec.NONE = WildSpec()


@dataclass(frozen=True)
class HandOptions:
    """Announced hand-ranking options (DESIGN 4.3, 4.4)."""

    five_of_a_kind: str = "highest"  # or "below_straight_flush"
    wild_duplicates_in_flush: bool = True

    def __post_init__(self) -> None:
        if self.five_of_a_kind not in FIVE_OF_A_KIND_POSITIONS:
            raise RulesError(
                f"unknown five_of_a_kind position {self.five_of_a_kind!r}: expected one of "
                + ", ".join(FIVE_OF_A_KIND_POSITIONS),
                token=str(self.five_of_a_kind),
            )


DEFAULT_OPTIONS = HandOptions()


@functools.total_ordering
@dataclass(frozen=True, eq=False)
class HandValue:
    """An evaluated hand; compares by `strength` (a total order: equal strength is a tie, suits never break one)."""

    category: HandCategory
    strength: tuple[int, ...]
    cards: tuple[Card, ...]  # the five cards as played, most significant first, wild cards shown as their stand-ins
    description: str
    wild_count: int = 0
    held: tuple[Card, ...] = field(default=(), compare=False)  # the five cards as given

    @property
    def score(self) -> int:
        """The strength as one int, equal to what the fast path (`hand_strength`, `strength_function`) returns."""
        return encode(self.strength[0], self.strength[1:])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.strength == other.strength

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.strength < other.strength

    def __hash__(self) -> int:
        return hash(self.strength)

    def __str__(self) -> str:
        return f"{self.description} ({' '.join(str(card) for card in self.cards)})"

    def to_dict(self) -> dict[str, object]:
        """JSON-able: category code, description, the cards as played, the cards as given, wild count, strength."""
        return {
            "category": self.category.value,
            "description": self.description,
            "cards": [str(card) for card in self.cards],
            "held": [str(card) for card in self.held],
            "wild_count": self.wild_count,
            "strength": list(self.strength),
        }


@functools.lru_cache(maxsize=256)
def strength_function(wild: WildSpec = WildSpec.NONE, options: HandOptions = HandOptions()) -> StrengthFunction:
    """The fast path: a function of five distinct card indices (`Card.index`) returning `HandValue.score`."""
    if not wild:
        return hand_strength
    return make_strength_function(
        wild.indices,
        five_of_a_kind_highest=options.five_of_a_kind == "highest",
        wild_duplicates_in_flush=options.wild_duplicates_in_flush,
    )


def evaluate(cards: Sequence[Card], wild: WildSpec = WildSpec.NONE, options: HandOptions = HandOptions()) -> HandValue:
    """The best hand five distinct cards make under these wild cards and options."""
    cards = tuple(cards)
    if len(cards) != 5:
        raise HandSizeError(f"a hand has 5 cards, got {len(cards)}", token=" ".join(str(card) for card in cards))
    indices = [card.index for card in cards]
    if len(set(indices)) != 5:
        check_unique(cards)  # raises, naming the card
    score = strength_function(wild, options)(*indices)
    slot, ranks = decode(score)
    wild_indices = wild.indices
    naturals = [card for card in cards if card.index not in wild_indices]
    return HandValue(
        category=CATEGORY_BY_SLOT[slot],
        strength=(slot, *ranks),
        cards=_played_cards(slot, ranks, naturals) if len(naturals) < 5 else _natural_order(slot, ranks, cards),
        description=describe(slot, ranks),
        wild_count=5 - len(naturals),
        held=cards,
    )


_SHAPES = {
    FOUR_OF_A_KIND: (4, 1),
    FULL_HOUSE: (3, 2),
    THREE_OF_A_KIND: (3, 1, 1),
    TWO_PAIR: (2, 2, 1),
    ONE_PAIR: (2, 1, 1, 1),
    FLUSH: (1, 1, 1, 1, 1),
    HIGH_CARD: (1, 1, 1, 1, 1),
}
_STRAIGHT_SLOTS = frozenset({STRAIGHT, STRAIGHT_FLUSH, ROYAL_FLUSH})
_FLUSH_SLOTS = frozenset({FLUSH, STRAIGHT_FLUSH, ROYAL_FLUSH})


def _played_ranks(slot: int, ranks: tuple[int, ...]) -> list[int]:
    """The five ranks a hand of this category and tie-break ranks plays, most significant first."""
    if slot in _STRAIGHT_SLOTS:
        high = ranks[0]
        return [5, 4, 3, 2, 14] if high == 5 else list(range(high, high - 5, -1))
    shape = _SHAPES.get(slot, (5,))
    return [rank for rank, count in zip(ranks, shape, strict=True) for _ in range(count)]


def _natural_order(slot: int, ranks: tuple[int, ...], cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """A hand without wild cards, ordered as it plays: by the position of its rank, then by index."""
    wanted = _played_ranks(slot, ranks)
    first = {rank: wanted.index(rank) for rank in set(wanted)}
    return tuple(sorted(cards, key=lambda card: (first[card.rank], -card.index)))


def _played_cards(slot: int, ranks: tuple[int, ...], naturals: list[Card]) -> tuple[Card, ...]:
    """Put each natural card in its place and show each wild card as the card it stands for."""
    wanted = _played_ranks(slot, ranks)
    placed: list[Card | None] = [None] * 5
    for card in sorted(naturals, key=_index, reverse=True):
        position = next(i for i, rank in enumerate(wanted) if rank == card.rank and placed[i] is None)
        placed[position] = card
    flush_suit = naturals[0].suit if naturals else Suit.SPADES
    used = {card.index for card in naturals}
    played: list[Card] = []
    for rank, natural in zip(wanted, placed, strict=True):
        if natural is None:
            stand_in = _substitute(rank, flush_suit if slot in _FLUSH_SLOTS else None, used)
            used.add(stand_in.index)
            played.append(stand_in)
        else:
            played.append(natural)
    return tuple(played)


# Suit order 0-3 is c d h s (Card.index); stand-ins prefer spades, hearts, diamonds, clubs.
_SUBSTITUTE_SUITS = (3, 2, 1, 0)


def _substitute(rank: int, suit: Suit | None, used: set[int]) -> Card:
    # Prefer a card not already showing so the hand reads naturally; duplicates only where the hand needs one.
    base = (rank - 2) * 4
    if suit is not None:
        return ALL_CARDS[base + Card.SUIT_ORDER[suit]]
    for order in _SUBSTITUTE_SUITS:
        if base + order not in used:
            return ALL_CARDS[base + order]
    return ALL_CARDS[base + 3]


def _index(card: Card) -> int:
    return card.index


def _to_rank(value: Rank | int | str) -> Rank:
    if isinstance(value, Rank):
        return value
    if isinstance(value, int):
        try:
            return Rank(value)
        except ValueError:
            raise WildSpecError(f"unknown rank {value!r}", token=str(value)) from None
    try:
        return Rank.parse(value)
    except CardError as exc:
        raise WildSpecError(exc.message, token=value) from None


_SINGULAR = {
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "jack",
    12: "queen",
    13: "king",
    14: "ace",
}
_PLURAL = {rank: ("sixes" if rank == 6 else f"{name}s") for rank, name in _SINGULAR.items()}


def rank_name(rank: int, *, plural: bool = False) -> str:
    """A rank in words for people: "queen", "sixes"."""
    return (_PLURAL if plural else _SINGULAR)[int(rank)]


def describe(slot: int, ranks: Sequence[int]) -> str:
    """The description for people (DESIGN 4.8), e.g. "Kings full of sevens", "Flush, ace-king high"."""
    category = CATEGORY_BY_SLOT[slot]
    top = ranks[0]
    second = ranks[1] if len(ranks) > 1 else top
    if category is HandCategory.FIVE_OF_A_KIND:
        return f"Five {_PLURAL[top]}"
    if category is HandCategory.ROYAL_FLUSH:
        return "Royal flush"
    if category is HandCategory.STRAIGHT_FLUSH:
        return f"Straight flush, {_SINGULAR[top]} high"
    if category is HandCategory.FOUR_OF_A_KIND:
        return f"Four {_PLURAL[top]}"
    if category is HandCategory.FULL_HOUSE:
        return f"{_PLURAL[top].capitalize()} full of {_PLURAL[second]}"
    if category is HandCategory.FLUSH:
        return f"Flush, {_SINGULAR[top]}-{_SINGULAR[second]} high"
    if category is HandCategory.STRAIGHT:
        return f"Straight, {_SINGULAR[top]} high"
    if category is HandCategory.THREE_OF_A_KIND:
        return f"Three {_PLURAL[top]}"
    if category is HandCategory.TWO_PAIR:
        return f"{_PLURAL[top].capitalize()} and {_PLURAL[second]}"
    if category is HandCategory.ONE_PAIR:
        return f"Pair of {_PLURAL[top]}"
    return f"{_SINGULAR[top].capitalize()} high"
