"""Fast hand strength on card indices: one integer key summed over the five cards, looked up in a precomputed table.

Each card index (0-51, see `Card.index`) maps to a key with three fields:

- bits 24 and up: the ranks as base-5 digits (digit r-2 counts the naturals of rank r) and, as the top digit, the
  number of wild cards; the sum identifies the natural rank multiset and the wild count;
- bits 0-23: four 6-bit suit fields. Every card adds 2 to each field and 5 more to its own suit's field; a wild card
  adds 5 to every field (it can take any suit). A field reaches 10 + 5 x 5 = 35 (bit 5 set) exactly when five cards
  can share that suit, and stays at or below 30 otherwise, so bit 5 of each field is the "flush possible" flag.

Masking the sum to the rank part plus the four flag bits gives a key whose value in the table is the strength of
the best hand (`ranking.best_strength`). Tables depend only on the hand options; which cards are wild only changes
the 52 per-card keys, so any wild specification (ranks or named cards) uses the same tables.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable

from casino.engine.ranking import best_strength

StrengthFunction = Callable[[int, int, int, int, int], int]

RANK_SHIFT = 24
WILD_DIGIT = 5**13
_FIELD_BITS = 6
_FLAG = 32
_BIAS = sum(2 << (_FIELD_BITS * field) for field in range(4))
FLAG_BITS = sum(_FLAG << (_FIELD_BITS * field) for field in range(4))
KEY_MASK = -(1 << RANK_SHIFT) | FLAG_BITS


def card_keys(wild_indices: Iterable[int] = ()) -> tuple[int, ...]:
    """The per-card keys for the 52 card indices, with the given card indices wild."""
    wild = frozenset(wild_indices)
    all_suits = sum(5 << (_FIELD_BITS * field) for field in range(4))
    keys = []
    for index in range(52):
        if index in wild:
            keys.append((WILD_DIGIT << RANK_SHIFT) + _BIAS + all_suits)
        else:
            rank, suit = index // 4 + 2, index % 4
            keys.append((5 ** (rank - 2) << RANK_SHIFT) + _BIAS + (5 << (_FIELD_BITS * suit)))
    return tuple(keys)


def _rank_multisets(size: int) -> Iterable[tuple[int, ...]]:
    for ranks in itertools.combinations_with_replacement(range(14, 1, -1), size):
        if all(ranks.count(rank) <= 4 for rank in set(ranks)):
            yield ranks


@functools.cache
def strength_table(
    *, wild: bool = True, five_of_a_kind_highest: bool = True, wild_duplicates_in_flush: bool = True
) -> dict[int, int]:
    """Masked key -> strength for every reachable hand (natural hands only when `wild` is false)."""
    table: dict[int, int] = {}
    for naturals_count in range(5, -1 if wild else 4, -1):
        wilds = 5 - naturals_count
        for ranks in _rank_multisets(naturals_count):
            rank_key = (sum(5 ** (rank - 2) for rank in ranks) + wilds * WILD_DIGIT) << RANK_SHIFT
            options = {
                "five_of_a_kind_highest": five_of_a_kind_highest,
                "wild_duplicates_in_flush": wild_duplicates_in_flush,
            }
            if naturals_count >= 2:
                table[rank_key] = best_strength(ranks, wilds, suited=False, **options)
            if len(set(ranks)) < naturals_count:
                continue  # cards of one suit never share a rank
            suited = best_strength(ranks, wilds, suited=True, **options)
            if naturals_count == 0:
                table[rank_key | FLAG_BITS] = suited
                continue
            for suit in range(4):
                table[rank_key | (_FLAG << (_FIELD_BITS * suit))] = suited
    return table


def make_strength_function(
    wild_indices: Iterable[int] = (), *, five_of_a_kind_highest: bool = True, wild_duplicates_in_flush: bool = True
) -> StrengthFunction:
    """A function of five distinct card indices returning the hand's strength (higher wins, equal ties)."""
    wild = frozenset(wild_indices)
    keys = card_keys(wild)
    table = strength_table(
        wild=bool(wild),
        five_of_a_kind_highest=five_of_a_kind_highest,
        wild_duplicates_in_flush=wild_duplicates_in_flush,
    )
    mask = KEY_MASK

    def strength(c1: int, c2: int, c3: int, c4: int, c5: int) -> int:
        return table[(keys[c1] + keys[c2] + keys[c3] + keys[c4] + keys[c5]) & mask]

    return strength


hand_strength: StrengthFunction = make_strength_function()
hand_strength.__doc__ = "Strength of a natural five-card hand given as five distinct card indices (no wild cards)."
