"""Optimal-hold advice for one deal: every hold's exact expected return, from the analysis' cached tables."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from casino.engine.analysis.cache import class_tables, deal_tables, default_cache_dir
from casino.engine.analysis.deals import HAND, HOLDS, DealTables, Int32Array, Int64Array
from casino.engine.analysis.optimal import DRAW_WEIGHT, DRAWS, TIE_RULE
from casino.engine.analysis.values import paytable_values, suit_class_values
from casino.engine.cards import Card, check_unique, format_cards
from casino.engine.errors import HandSizeError
from casino.engine.paytable import PaytableSpec

_POPCOUNT = tuple(bin(mask).count("1") for mask in range(HOLDS))
_MEMO_LIMIT = 8  # paytables whose value vectors stay in memory (a simulation uses one or two)


@dataclass(frozen=True)
class HoldAdvice:
    """The hold that maximises the expected return of one five-card deal, under the analysis' tie rule.

    Holds are 5-bit masks over the dealt cards in dealt order (bit i: `dealt[i]` is held); `hold_returns[mask]`
    is that hold's exact expected return per unit bet, stake included, drawing from the 47 unseen cards.
    """

    dealt: tuple[Card, ...]
    mask: int
    hold_returns: tuple[Fraction, ...]
    tie_rule: str

    @property
    def held(self) -> tuple[Card, ...]:
        """The held cards, in dealt order."""
        return tuple(card for position, card in enumerate(self.dealt) if self.mask >> position & 1)

    @property
    def expected_return_exact(self) -> Fraction:
        return self.hold_returns[self.mask]

    @property
    def expected_return(self) -> float:
        return float(self.hold_returns[self.mask])

    def held_cards(self, mask: int) -> tuple[Card, ...]:
        return tuple(card for position, card in enumerate(self.dealt) if mask >> position & 1)

    def to_dict(self) -> dict[str, Any]:
        return {
            "dealt": format_cards(self.dealt),
            "held": format_cards(self.held),
            "expected_return": self.expected_return,
            "expected_return_exact": str(self.expected_return_exact),
            "holds": [
                {"held": format_cards(self.held_cards(mask)), "expected_return": float(value)}
                for mask, value in enumerate(self.hold_returns)
            ],
            "tie_rule": self.tie_rule,
        }


@dataclass(frozen=True)
class _Model:
    tables: DealTables
    preferences: Int32Array
    values: Int64Array  # per global suit class, see suit_class_values
    scale: int


# (cache root, paytable) -> model. The lock makes threads share one load instead of building the tables twice.
_MODELS: dict[tuple[str, PaytableSpec], _Model] = {}
_LOCK = threading.Lock()


def _model(spec: PaytableSpec, cache_dir: Path | None) -> _Model:
    key = (str(cache_dir or default_cache_dir()), spec)
    model = _MODELS.get(key)
    if model is not None:
        return model
    with _LOCK:
        model = _MODELS.get(key)
        if model is None:
            tables, preferences = deal_tables(cache_dir)
            classes = class_tables(tables, (int(rank) for rank in spec.wild_ranks), cache_dir)
            values = paytable_values(spec, classes)
            model = _Model(tables, preferences, suit_class_values(values, classes), values.scale)
            while len(_MODELS) >= _MEMO_LIMIT:
                del _MODELS[next(iter(_MODELS))]
            _MODELS[key] = model
        return model


def _lanes(indexes: Sequence[int]) -> list[int]:
    """Per suit, the 13-bit mask of the ranks present (the packing `suit_keys` sorts)."""
    lanes = [0, 0, 0, 0]
    for index in indexes:
        lanes[index % 4] |= 1 << (index // 4)
    return lanes


def _canonical(tables: DealTables, indexes: list[int]) -> tuple[int, list[int]]:
    """The canonical deal of these cards (sorted by index) and, per card, its position in the representative."""
    lanes = _lanes(indexes)
    a, b, c, d = sorted(lanes)
    key = (d << 39) | (c << 26) | (b << 13) | a
    keys = tables.levels[HAND].keys
    deal = int(np.searchsorted(keys, key))
    if deal >= len(keys) or int(keys[deal]) != key:
        raise ArithmeticError(f"no canonical deal for card indexes {indexes}")  # the tables are inconsistent
    representative = [int(card) for card in tables.deals[deal]]
    target = _lanes(representative)
    # Map each suit onto a representative suit with the same ranks (equal lanes are interchangeable).
    free = [0, 1, 2, 3]
    suit_map = [0, 0, 0, 0]
    for suit in range(4):
        match = next(other for other in free if target[other] == lanes[suit])
        free.remove(match)
        suit_map[suit] = match
    positions = [representative.index(index // 4 * 4 + suit_map[index % 4]) for index in indexes]
    return deal, positions


def optimal_hold(dealt: Sequence[Card], spec: PaytableSpec, cache_dir: Path | None = None) -> HoldAdvice:
    """The best hold of five dealt cards under `spec`, with every hold's exact expected return per unit bet.

    Exactly the hold the paytable analysis credits this deal with (same tables, same TIE_RULE), so the average
    of `expected_return_exact` over all 2,598,960 deals is the analysis' return. The first call per paytable
    loads (or builds) the cached tables; later calls take some tens of microseconds.
    """
    hand = tuple(dealt)
    if len(hand) != HAND:
        raise HandSizeError(f"a deal has {HAND} cards, got {len(hand)}", token=format_cards(hand))
    check_unique(hand)
    model = _model(spec, cache_dir)
    order = sorted(range(HAND), key=lambda position: hand[position].index)
    deal, positions = _canonical(model.tables, [hand[position].index for position in order])
    # dealt_bit[k]: the dealt-order bit of the representative's k-th card.
    dealt_bit = [0] * HAND
    for sorted_position, representative_position in enumerate(positions):
        dealt_bit[representative_position] = 1 << order[sorted_position]
    totals: list[int] = model.values[model.tables.subset_ids[:, deal]].tolist()
    for bit in (1, 2, 4, 8, 16):  # inclusion-exclusion over the discards, as in optimal.hold_totals
        for mask in range(HOLDS):
            if not mask & bit:
                totals[mask] -= totals[mask | bit]
    scores = [total * DRAW_WEIGHT[_POPCOUNT[mask]] for mask, total in enumerate(totals)]
    best = max(scores)
    preferences: list[int] = model.preferences[:, deal].tolist()
    chosen = max((mask for mask in range(HOLDS) if scores[mask] == best), key=lambda mask: preferences[mask])
    returns = [Fraction(0)] * HOLDS
    for mask, total in enumerate(totals):
        dealt_mask = sum(dealt_bit[k] for k in range(HAND) if mask >> k & 1)
        returns[dealt_mask] = Fraction(total, DRAWS[_POPCOUNT[mask]] * model.scale)
    chosen_mask = sum(dealt_bit[k] for k in range(HAND) if chosen >> k & 1)
    return HoldAdvice(hand, chosen_mask, tuple(returns), TIE_RULE)
