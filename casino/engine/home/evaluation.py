"""Bridge to the hand evaluator: the variant's showdown rules with this game's announcements applied."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from casino.engine.cards import Card, Rank
from casino.engine.home.rules import HomeRules
from casino.engine.showdown import showdown
from casino.engine.variants import VariantRules, get_variant

# The announced options that change how hands rank; kill cards are left out on purpose: the state machine
# kills a player the moment one is dealt, so no hand that reaches the showdown holds one.
SHOWDOWN_OPTIONS = ("wild_ranks", "wild_cards", "five_of_a_kind", "wild_duplicates_in_flush", "freak_bottom")


def variant_rules(rules: HomeRules) -> VariantRules:
    """The registry's rules for the variant with the announced showdown options (as the table announced them)."""
    announced = {code: rules.announced[code] for code in SHOWDOWN_OPTIONS if code in rules.announced}
    return get_variant(rules.variant, **announced)


def rank_hands(
    rules: VariantRules, hands: Mapping[int, Sequence[Card]]
) -> tuple[dict[int, tuple[int, ...]], dict[int, str], Rank | None]:
    """Each showdown hand's strength and description, and the wild rank fixed for the showdown (Freak of Nature)."""
    seats = list(hands)
    result = showdown([hands[seat] for seat in seats], rules)
    strengths: dict[int, tuple[int, ...]] = {}
    descriptions: dict[int, str] = {}
    for seat, value in zip(seats, result.values, strict=True):
        if value is not None:
            strengths[seat] = value.strength
            descriptions[seat] = value.description
    return strengths, descriptions, result.wild_rank
