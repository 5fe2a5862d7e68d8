"""Hand codes in words for people ("royal_flush" -> "Royal flush"), the one table every screen reads them from."""

from __future__ import annotations

from collections.abc import Iterable

HAND_LABELS: dict[str, str] = {
    "five_of_a_kind": "Five of a kind",
    "natural_royal_flush": "Natural royal flush",
    "wild_royal_flush": "Wild royal flush",
    "royal_flush": "Royal flush",
    "four_wild": "Four wild cards",
    "straight_flush": "Straight flush",
    "four_of_a_kind": "Four of a kind",
    "full_house": "Full house",
    "flush": "Flush",
    "straight": "Straight",
    "three_of_a_kind": "Three of a kind",
    "two_pair": "Two pair",
    "one_pair": "Pair",
    "high_card": "High card",
}
RANK_PLURALS: dict[str, str] = {
    "2": "twos",
    "3": "threes",
    "4": "fours",
    "5": "fives",
    "6": "sixes",
    "7": "sevens",
    "8": "eights",
    "9": "nines",
    "T": "tens",
    "J": "jacks",
    "Q": "queens",
    "K": "kings",
    "A": "aces",
}


def hand_label(code: str | None) -> str:
    """ "full_house" -> "Full house"; an unknown code is still made readable; None or "" -> "—"."""
    if not code:
        return "—"
    return HAND_LABELS.get(code, code.replace("_", " ").capitalize())


def line_label(hand: str, min_rank: str | None = None, ranks: Iterable[str] | None = None) -> str:
    """A paytable line as a layout prints it: "Pair, jacks or better", "Four of a kind (aces)"."""
    label = hand_label(hand)
    if min_rank:
        label += f", {RANK_PLURALS.get(min_rank.upper(), min_rank)} or better"
    named = [str(rank) for rank in (ranks or [])]
    if named:
        label += " (" + ", ".join(RANK_PLURALS.get(rank.upper(), rank) for rank in named) + ")"
    return label
