"""The home-game tables' figures for the floor's summaries, read from their chip ledger, hands and games.

The default `FLOOR_HOME_FIGURES` source (floor.sources): per table, UTC hour and dealer, the hands settled, the games
ended, the pots awarded (chips out of the middle to the winners, by the cards or by a floor ruling, and a carried
Three Legged Race pot), and the house's charges (rake and time charges, the house account of the ledger).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from django.db import connection
from django.db.models import Count, F, Q, Sum
from django.db.models.functions import Trunc

from casino import sql
from floor.gaming_day import hour_bucket
from floor.sources import HomeFigures
from tables.models import HomeAccount, HomeGame, HomeHand, HomeLedgerEntry

POT_AWARDS = ("award", "carried_award", "ruling_award")  # chips leaving the middle for a winner (not a void's return)
Key = tuple[int, datetime, int | None]  # table, UTC hour, dealer


def home_figures(*, table_ids: Sequence[int], start: datetime, end: datetime) -> list[HomeFigures]:
    """One HomeFigures per (table, UTC hour, dealer) with home-game play in [start, end)."""
    if not table_ids:
        return []
    figures: dict[Key, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    if len(table_ids) == 1 and _one_hour(start, end):
        _add_hour(figures, table_ids[0], start, end)
        return _listed(figures)
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
    return _listed(figures)


def _listed(figures: dict[Key, dict[str, int]]) -> list[HomeFigures]:
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


def _one_hour(start: datetime, end: datetime) -> bool:
    """Is [start, end) one whole UTC hour (what the summary job refreshes after each settled hand)?"""
    return end - start == timedelta(hours=1) and hour_bucket(start) == start


def _hour_sql() -> str:
    """One table's hands, games and pot and house postings in one UTC hour, grouped by dealer, in one statement:
    the summary job's figures after each settled hand, where the three grouped ORM queries above cost more CPU
    than the database's work. Rows: (kind, dealer, hands or games or pots, rake, time charges)."""
    h, g, e = sql.table(HomeHand), sql.table(HomeGame), sql.table(HomeLedgerEntry)

    def c(model: Any, name: str) -> str:
        return sql.column(model, name)

    amount, account, kind = (f"e.{c(HomeLedgerEntry, name)}" for name in ("amount_cents", "account", "kind"))
    awards = ", ".join(["%s"] * len(POT_AWARDS))
    return (
        f"SELECT 0, h.{c(HomeHand, 'dealer')}, COUNT(*), 0, 0 FROM {h} h "  # noqa: S608 (names from metadata)
        f"JOIN {g} g ON g.{c(HomeGame, 'pk')} = h.{c(HomeHand, 'game')} WHERE g.{c(HomeGame, 'table')} = %s "
        f"AND h.{c(HomeHand, 'status')} = %s AND h.{c(HomeHand, 'settled_at')} >= %s "
        f"AND h.{c(HomeHand, 'settled_at')} < %s GROUP BY h.{c(HomeHand, 'dealer')} "
        f"UNION ALL SELECT 1, NULL, COUNT(*), 0, 0 FROM {g} g WHERE g.{c(HomeGame, 'table')} = %s "
        f"AND g.{c(HomeGame, 'ended_at')} >= %s AND g.{c(HomeGame, 'ended_at')} < %s "
        f"UNION ALL SELECT 2, h.{c(HomeHand, 'dealer')}, "
        f"COALESCE(SUM(CASE WHEN {account} = %s AND {kind} IN ({awards}) THEN {amount} END), 0), "
        f"COALESCE(SUM(CASE WHEN {account} = %s AND {kind} = 'rake' THEN {amount} END), 0), "
        f"COALESCE(SUM(CASE WHEN {account} = %s AND {kind} = 'time_charge' THEN {amount} END), 0) "
        f"FROM {e} e JOIN {g} g ON g.{c(HomeGame, 'pk')} = e.{c(HomeLedgerEntry, 'game')} "
        f"LEFT JOIN {h} h ON h.{c(HomeHand, 'pk')} = e.{c(HomeLedgerEntry, 'hand')} "
        f"WHERE g.{c(HomeGame, 'table')} = %s AND e.{c(HomeLedgerEntry, 'posted_at')} >= %s "
        f"AND e.{c(HomeLedgerEntry, 'posted_at')} < %s GROUP BY h.{c(HomeHand, 'dealer')}"
    )


def _add_hour(figures: dict[Key, dict[str, int]], table_id: int, start: datetime, end: datetime) -> None:
    """The same figures as the grouped queries of home_figures, for one table and one UTC hour."""
    at = [connection.ops.adapt_datetimefield_value(moment) for moment in (start, end)]
    params: list[Any] = [table_id, HomeHand.Status.SETTLED.value, *at, table_id, *at]
    params += [HomeAccount.POT.value, *POT_AWARDS, HomeAccount.HOUSE.value, HomeAccount.HOUSE.value, table_id, *at]
    with connection.cursor() as cursor:
        cursor.execute(_hour_sql(), params)
        found = cursor.fetchall()
    for kind, dealer, first, rake, time_charge in found:
        figure = figures[(table_id, start, None if dealer is None else int(dealer))]
        if kind == 0:
            figure["hands"] += int(first)
        elif kind == 1:
            figure["games"] += int(first)
        else:
            figure["pots_cents"] += -int(first)  # the middle's legs are negative when it pays out
            figure["rake_cents"] += int(rake)
            figure["time_charge_cents"] += int(time_charge)
