"""The home-game tables' figures for the floor's summaries, read from their chip ledger, hands and games.

The default `FLOOR_HOME_FIGURES` source (floor.sources): per table, UTC hour and dealer, the hands settled, the games
ended, the pots awarded (chips out of the middle to the winners, by the cards or by a floor ruling, and a carried
Three Legged Race pot), and the house's charges (rake and time charges, the house account of the ledger).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from django.db.models import Count, F, Q, Sum
from django.db.models.functions import Trunc

from floor.sources import HomeFigures
from tables.models import HomeAccount, HomeGame, HomeHand, HomeLedgerEntry

POT_AWARDS = ("award", "carried_award", "ruling_award")  # chips leaving the middle for a winner (not a void's return)
Key = tuple[int, datetime, int | None]  # table, UTC hour, dealer


def home_figures(*, table_ids: Sequence[int], start: datetime, end: datetime) -> list[HomeFigures]:
    """One HomeFigures per (table, UTC hour, dealer) with home-game play in [start, end)."""
    if not table_ids:
        return []
    figures: dict[Key, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    hands = HomeHand.objects.filter(
        game__table_id__in=table_ids, status=HomeHand.Status.SETTLED, settled_at__gte=start, settled_at__lt=end
    )
    for row in _by_hour(hands, "game__table_id", "settled_at", "dealer_id").annotate(n=Count("id")):
        figures[_key(row)]["hands"] += row["n"]
    games = HomeGame.objects.filter(table_id__in=table_ids, ended_at__gte=start, ended_at__lt=end)
    for row in _by_hour(games, "table_id", "ended_at", None).annotate(n=Count("id")):
        figures[_key(row)]["games"] += row["n"]
    entries = HomeLedgerEntry.objects.filter(game__table_id__in=table_ids, posted_at__gte=start, posted_at__lt=end)
    sums = _by_hour(entries, "game__table_id", "posted_at", "hand__dealer_id").annotate(
        pots=Sum("amount_cents", filter=Q(account=HomeAccount.POT, kind__in=POT_AWARDS)),
        rake=Sum("amount_cents", filter=Q(account=HomeAccount.HOUSE, kind="rake")),
        time=Sum("amount_cents", filter=Q(account=HomeAccount.HOUSE, kind="time_charge")),
    )
    for row in sums:
        figure = figures[_key(row)]
        figure["pots_cents"] += -(row["pots"] or 0)  # the middle's legs are negative when it pays out
        figure["rake_cents"] += row["rake"] or 0
        figure["time_charge_cents"] += row["time"] or 0
    return [
        HomeFigures(table_id=table_id, hour_start=hour, dealer_id=dealer, **values)
        for (table_id, hour, dealer), values in sorted(figures.items(), key=lambda item: (item[0][0], item[0][1]))
        if any(values.values())
    ]


def _by_hour(rows: Any, table: str, moment: str, dealer: str | None) -> Any:
    """Rows grouped by table, the UTC hour of `moment` and (when the rows know one) the dealer."""
    # Prefixed names: a model's own fields (a hand's dealer) may not be reused as annotations.
    keys: dict[str, Any] = {"figure_table": F(table), "figure_hour": Trunc(moment, "hour", tzinfo=UTC)}
    if dealer is not None:
        keys["figure_dealer"] = F(dealer)
    return rows.values(**keys).order_by()


def _key(row: dict[str, Any]) -> Key:
    return int(row["figure_table"]), row["figure_hour"], row.get("figure_dealer")
