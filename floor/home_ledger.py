"""The home-game tables' figures for the floor's summaries, read from their chip ledger, hands and games.

The default `FLOOR_HOME_FIGURES` source (floor.sources): per table, UTC hour and dealer, the hands settled, the games
ended, the pots awarded (chips out of the middle to the winners, by the cards or by a floor ruling, and a carried
Three Legged Race pot), and the house's charges (rake and time charges, the house account of the ledger).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime
from functools import cache
from typing import Any

from django.db import connection

from casino import sql
from floor.sources import HomeFigures
from floor.summary_statements import utc_hour_read, utc_hour_sql
from tables.models import HomeAccount, HomeGame, HomeHand, HomeLedgerEntry

POT_AWARDS = ("award", "carried_award", "ruling_award")  # chips leaving the middle for a winner (not a void's return)
Key = tuple[int, datetime, int | None]  # table, UTC hour, dealer


def home_figures(*, table_ids: Sequence[int], start: datetime, end: datetime) -> list[HomeFigures]:
    """One HomeFigures per (table, UTC hour, dealer) with home-game play in [start, end), from one statement: the
    summary job asks it for one table's hour after every settled hand, the rebuild and the shift books for a range."""
    ids = sorted(set(table_ids))
    if not ids:
        return []
    statement, hours = _figures_sql(len(ids), connection.vendor)
    at = [connection.ops.adapt_datetimefield_value(moment) for moment in (start, end)]
    params: list[Any] = [*hours[0], *ids, HomeHand.Status.SETTLED.value, *at, *hours[1], *ids, *at, *hours[2]]
    params += [HomeAccount.POT.value, *POT_AWARDS, HomeAccount.HOUSE.value, HomeAccount.HOUSE.value, *ids, *at]
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        found = cursor.fetchall()
    figures: dict[Key, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for kind, table_id, hour, dealer, first, rake, time_charge in found:
        figure = figures[(int(table_id), utc_hour_read(hour), None if dealer is None else int(dealer))]
        if kind == 0:
            figure["hands"] += int(first)
        elif kind == 1:
            figure["games"] += int(first)
        else:
            figure["pots_cents"] += -int(first)  # the middle's legs are negative when it pays out
            figure["rake_cents"] += int(rake)
            figure["time_charge_cents"] += int(time_charge)
    return [
        HomeFigures(table_id=table_id, hour_start=hour, dealer_id=dealer, **values)
        for (table_id, hour, dealer), values in sorted(figures.items(), key=lambda item: (item[0][0], item[0][1]))
        if any(values.values())
    ]


@cache
def _figures_sql(tables: int, vendor: str) -> tuple[str, list[tuple[Any, ...]]]:
    """The hands settled, games ended and pot and house postings of `tables` tables in a range, each grouped by
    table, UTC hour and (hands and postings) dealer, in one statement, and the parameters of each part's hour.
    Rows: (kind, table, hour, dealer, hands or games or pots, rake, time charges)."""
    h, g, e = sql.table(HomeHand), sql.table(HomeGame), sql.table(HomeLedgerEntry)

    def c(model: Any, name: str) -> str:
        return sql.column(model, name)

    hand_hour, game_hour, entry_hour = (
        utc_hour_sql(moment)
        for moment in (
            f"h.{c(HomeHand, 'settled_at')}",
            f"g.{c(HomeGame, 'ended_at')}",
            f"e.{c(HomeLedgerEntry, 'posted_at')}",
        )
    )
    amount, account, kind = (f"e.{c(HomeLedgerEntry, name)}" for name in ("amount_cents", "account", "kind"))
    awards = sql.placeholders(len(POT_AWARDS))
    table = f"g.{c(HomeGame, 'table')} IN ({sql.placeholders(tables)})"
    # Grouped by position: an hour's expression carries parameters, which would not match a repeated copy.
    statement = (
        f"SELECT 0, g.{c(HomeGame, 'table')}, {hand_hour[0]}, h.{c(HomeHand, 'dealer')}, COUNT(*), 0, 0 "  # noqa: S608
        f"FROM {h} h JOIN {g} g ON g.{c(HomeGame, 'pk')} = h.{c(HomeHand, 'game')} WHERE {table} "
        f"AND h.{c(HomeHand, 'status')} = %s AND h.{c(HomeHand, 'settled_at')} >= %s "
        f"AND h.{c(HomeHand, 'settled_at')} < %s GROUP BY 2, 3, 4 "
        f"UNION ALL SELECT 1, g.{c(HomeGame, 'table')}, {game_hour[0]}, NULL, COUNT(*), 0, 0 FROM {g} g "
        f"WHERE {table} AND g.{c(HomeGame, 'ended_at')} >= %s AND g.{c(HomeGame, 'ended_at')} < %s GROUP BY 2, 3 "
        f"UNION ALL SELECT 2, g.{c(HomeGame, 'table')}, {entry_hour[0]}, h.{c(HomeHand, 'dealer')}, "
        f"COALESCE(SUM(CASE WHEN {account} = %s AND {kind} IN ({awards}) THEN {amount} END), 0), "
        f"COALESCE(SUM(CASE WHEN {account} = %s AND {kind} = 'rake' THEN {amount} END), 0), "
        f"COALESCE(SUM(CASE WHEN {account} = %s AND {kind} = 'time_charge' THEN {amount} END), 0) "
        f"FROM {e} e JOIN {g} g ON g.{c(HomeGame, 'pk')} = e.{c(HomeLedgerEntry, 'game')} "
        f"LEFT JOIN {h} h ON h.{c(HomeHand, 'pk')} = e.{c(HomeLedgerEntry, 'hand')} "
        f"WHERE {table} AND e.{c(HomeLedgerEntry, 'posted_at')} >= %s "
        f"AND e.{c(HomeLedgerEntry, 'posted_at')} < %s GROUP BY 2, 3, 4"
    )
    return statement, [hand_hour[1], game_hour[1], entry_hour[1]]
