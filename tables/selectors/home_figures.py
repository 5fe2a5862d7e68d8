"""The home-game figures the floor reads (settings.FLOOR_HOME_FIGURES, see floor/sources.py): per table, hour and
dealer, the hands and games finished, the pots awarded and the house's charges, from the home-game ledger."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from tables.models import HomeGame, HomeHand, HomeLedgerEntry


@dataclass(frozen=True)
class HomeTableFigures:
    """The shape floor.sources.HomeFigures reads (tables may not import the floor, which sits above it)."""

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
        return self.rake_cents + self.time_charge_cents


def _hour(moment: datetime) -> datetime:
    return moment.replace(minute=0, second=0, microsecond=0)


def home_figures(*, table_ids: Sequence[int], start: datetime, end: datetime) -> list[HomeTableFigures]:
    found: dict[tuple[int, datetime, int | None], HomeTableFigures] = {}

    def add(table_id: int, moment: datetime, dealer_id: int | None, **amounts: int) -> None:
        key = (table_id, _hour(moment), dealer_id)
        figure = found.get(key) or HomeTableFigures(table_id, key[1], dealer_id)
        found[key] = replace(figure, **{name: getattr(figure, name) + value for name, value in amounts.items()})

    hands = HomeHand.objects.filter(game__table_id__in=table_ids, status=HomeHand.Status.SETTLED,
                                    settled_at__gte=start, settled_at__lt=end)
    for table_id, settled_at, dealer_id, result in hands.values_list("game__table_id", "settled_at", "dealer_id",
                                                                     "result"):
        if settled_at is None:
            continue
        won = sum(pot["amount_cents"] for pot in (result or {}).get("pots", []) if pot["winners"])
        add(table_id, settled_at, dealer_id, hands=1, pots_cents=won)
    games = HomeGame.objects.filter(table_id__in=table_ids, ended_at__gte=start, ended_at__lt=end)
    for table_id, ended_at in games.values_list("table_id", "ended_at"):
        if ended_at is not None:
            add(table_id, ended_at, None, games=1)
    charges = HomeLedgerEntry.objects.filter(game__table_id__in=table_ids, account="house", posted_at__gte=start,
                                             posted_at__lt=end)
    for table_id, posted_at, kind, cents, dealer_id in charges.values_list("game__table_id", "posted_at", "kind",
                                                                           "amount_cents", "hand__dealer_id"):
        add(table_id, posted_at, dealer_id, **{"rake_cents" if kind == "rake" else "time_charge_cents": cents})
    return sorted(found.values(), key=lambda f: (f.table_id, f.hour_start, f.dealer_id or 0))
