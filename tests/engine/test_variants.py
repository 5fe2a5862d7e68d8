"""The variant registry: codes, names, each variant's own wild cards and its seat limit (DESIGN 7, 9)."""

from __future__ import annotations

import pytest

from casino.engine.cards import Rank
from casino.engine.errors import UnknownVariantError
from casino.engine.triple_draw import MAX_SEATS
from casino.engine.variants import HOME_VARIANTS, VARIANTS, find_variant, seat_limit


def test_registry_holds_the_five_variant_codes() -> None:
    assert set(VARIANTS) == {"five-card-draw", "pregnant-threes", "three-legged-race", "freak-of-nature", "triple-draw"}
    assert all(variant.code == code for code, variant in VARIANTS.items())
    assert "triple-draw" not in HOME_VARIANTS


# Pregnant Threes: "All threes, sixes and nines are wild: twelve wild cards in the deck."
def test_pregnant_threes_has_twelve_wild_cards_of_its_own() -> None:
    variant = find_variant("pregnant-threes")
    assert variant.wild.ranks == {Rank.THREE, Rank.SIX, Rank.NINE}
    assert len(variant.wild.indices) == 12


@pytest.mark.parametrize(
    ("code", "seats"),
    [
        ("triple-draw", 7),  # "played by up to seven players"
        ("three-legged-race", 6),  # "a variation of Five Card Draw for up to six players"
        ("five-card-draw", 10),
        ("pregnant-threes", 10),
        ("freak-of-nature", 10),
    ],
)
def test_seat_limit_per_variant(code: str, seats: int) -> None:
    assert seat_limit(code) == seats
    assert find_variant(code).seat_limit == seats


def test_triple_draw_seat_limit_is_the_engine_constant() -> None:
    assert seat_limit("triple-draw") == MAX_SEATS == 7


def test_codes_are_read_case_and_space_insensitively() -> None:
    assert find_variant(" Freak-Of-Nature ").code == "freak-of-nature"


def test_unknown_variant_names_the_code() -> None:
    with pytest.raises(UnknownVariantError) as error:
        find_variant("seven-card-stud")
    assert error.value.token == "seven-card-stud"
    with pytest.raises(UnknownVariantError):
        seat_limit("omaha")
