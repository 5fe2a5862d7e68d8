"""Where the floor reads home-game figures: the seam the home-game tables plug their chip ledger into.

`settings.FLOOR_HOME_FIGURES` names a function (default `floor.home_ledger.home_figures`; empty: none)

    figures(*, table_ids: Sequence[int], start: datetime, end: datetime) -> Iterable[HomeFigures]

that answers one `HomeFigures` per (table, local hour, dealer) with play in [start, end): hands and games finished,
pots awarded, and the house's charges (rake and time charges: the house-charge postings of the home-game ledger).
With each posting, in its transaction, the home-game services send `tables.signals.ledger_posted(table_id=...,
posted_at=..., round_id=None)`; the floor then refreshes that table's hour, and the shift close counts the house
charges as the table's system win. Reports then show hands, games, pots, rake, time charges and hands per hour.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils.module_loading import import_string


@dataclass(frozen=True)
class HomeFigures:
    """A home-game table's play in one local hour under one dealer (`hour_start` from floor.gaming_day.local_hour)."""

    table_id: int
    hour_start: datetime
    dealer_id: int | None = None
    hands: int = 0
    games: int = 0
    pots_cents: int = 0
    rake_cents: int = 0
    time_charge_cents: int = 0

    @property
    def house_cents(self) -> int:
        """The house's take: its system win (DESIGN: "house charges for home games")."""
        return self.rake_cents + self.time_charge_cents


def _source() -> Callable[..., Iterable[Any]] | None:
    path = getattr(settings, "FLOOR_HOME_FIGURES", "")
    return import_string(path) if path else None


def home_figures(*, table_ids: Sequence[int], start: datetime, end: datetime) -> list[HomeFigures]:
    """The configured source's figures for these home-game tables in [start, end); [] when none is configured."""
    source = _source()
    if source is None or not table_ids:
        return []
    return [
        figure for figure in source(table_ids=list(table_ids), start=start, end=end) if figure.table_id in table_ids
    ]
