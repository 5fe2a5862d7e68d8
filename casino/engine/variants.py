"""The variant registry (DESIGN 7, 9): each variant's code, name, own wild cards, sliding wild rank and seat limit."""

from __future__ import annotations

from dataclasses import dataclass

from casino.engine.cards import Rank
from casino.engine.errors import UnknownVariantError
from casino.engine.hands import WildSpec
from casino.engine.triple_draw import MAX_SEATS as TRIPLE_DRAW_SEATS

FIVE_CARD_DRAW = "five-card-draw"
PREGNANT_THREES = "pregnant-threes"
THREE_LEGGED_RACE = "three-legged-race"
FREAK_OF_NATURE = "freak-of-nature"
TRIPLE_DRAW = "triple-draw"

# Five-card draw deals 5 cards to each of at most 10 players from one deck and reshuffles the discards when the
# stock runs out (DESIGN 7); Three Legged Race is "for up to six players" (its rule sheet).
HOME_GAME_SEATS = 10
THREE_LEGGED_RACE_SEATS = 6


@dataclass(frozen=True)
class Variant:
    """What a variant is before anything is announced: its own wild cards, whether the wild rank slides, its seats."""

    code: str
    name: str
    seat_limit: int
    wild: WildSpec = WildSpec.NONE
    sliding_wild: bool = False  # Freak of Nature: the wild rank is fixed at the showdown (DESIGN 4.7)
    home: bool = True  # a dealer-run home game; Triple Draw is house-banked and takes no announced options

    @property
    def plays_for_legs(self) -> bool:
        return self.code == THREE_LEGGED_RACE


VARIANTS: dict[str, Variant] = {
    FIVE_CARD_DRAW: Variant(FIVE_CARD_DRAW, "Five Card Draw", HOME_GAME_SEATS),
    PREGNANT_THREES: Variant(
        PREGNANT_THREES, "Pregnant Threes", HOME_GAME_SEATS, wild=WildSpec.of_ranks([Rank.THREE, Rank.SIX, Rank.NINE])
    ),
    THREE_LEGGED_RACE: Variant(THREE_LEGGED_RACE, "Three Legged Race", THREE_LEGGED_RACE_SEATS),
    FREAK_OF_NATURE: Variant(FREAK_OF_NATURE, "Freak of Nature", HOME_GAME_SEATS, sliding_wild=True),
    TRIPLE_DRAW: Variant(TRIPLE_DRAW, "Triple Draw Poker", TRIPLE_DRAW_SEATS, home=False),
}
HOME_VARIANTS = tuple(code for code, variant in VARIANTS.items() if variant.home)


def find_variant(code: str) -> Variant:
    """The registry's variant for a code (case and surrounding spaces ignored); UnknownVariantError names it."""
    variant = VARIANTS.get(str(code).strip().lower())
    if variant is None:
        raise UnknownVariantError(f"unknown variant {code!r}: expected one of {', '.join(VARIANTS)}", token=str(code))
    return variant


def seat_limit(variant_code: str) -> int:
    """How many players a table of this variant seats: Triple Draw 7, Three Legged Race 6, the other draw games 10."""
    return find_variant(variant_code).seat_limit
