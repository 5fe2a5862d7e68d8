"""Win and hold reports from the summary rows: Triple Draw per table, type, pit, dealer, shift or gaming day, with the
theoretical win and the 95 % band of the hold from each locked paytable version's stored analysis; hold over time,
handle by hour of day, and the home-game tables' hands and house charges."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Count, Q, QuerySet, Sum
from django.utils import timezone

from floor.gaming_day import gaming_day, shift_codes
from floor.models import TableHour, TableShift
from floor.models.summaries import SummaryFigures
from floor.params import ReportQuery
from paytables.models import AnalysisStatus, PaytableAnalysis
from tables.models import HomeGame, Table, TableType

# Two-sided 95 % quantile of the normal distribution: the band is theoretical hold ± Z95 · σ(win) / handle.
Z95 = 1.959963984540054
TRIPLE_DRAW_SUMS = {
    "round_count": Sum("rounds"),
    "handle": Sum("handle_cents"),
    "paid": Sum("paid_cents"),
    "win": Sum("win_cents"),
    "squares": Sum("stake_squares"),
}


@dataclass(frozen=True)
class Theory:
    """A paytable version's stored analysis, per unit staked: exact house edge and the variance of one hand."""

    edge: Fraction
    variance: float


def paytable_theories(paytable_ids: Iterable[int | None]) -> dict[int, Theory]:
    """The finished analyses of these paytable versions (a version without one is left out)."""
    ids = {pk for pk in paytable_ids if pk is not None}
    analyses = PaytableAnalysis.objects.filter(paytable_id__in=ids, status=AnalysisStatus.DONE).exclude(return_exact="")
    return {
        a.paytable_id: Theory(edge=1 - Fraction(a.return_exact), variance=float(a.variance or 0.0))
        for a in analyses.only("paytable_id", "return_exact", "variance")
    }


@dataclass
class Figures:
    """Triple Draw figures of some summary rows, and what theory says of them."""

    rounds: int = 0
    handle_cents: int = 0
    paid_cents: int = 0
    win_cents: int = 0
    theo_win: Fraction = Fraction(0)  # exact Σ stake × house edge
    win_variance: float = 0.0  # Σ stake² × variance per unit, in cents²
    theory_missing: bool = False  # some stake was on a paytable version with no finished analysis

    def add(self, row: Mapping[str, Any], theory: Theory | None) -> None:
        handle = int(row["handle"] or 0)
        self.rounds += int(row["round_count"] or 0)
        self.handle_cents += handle
        self.paid_cents += int(row["paid"] or 0)
        self.win_cents += int(row["win"] or 0)
        if theory is None:
            self.theory_missing = self.theory_missing or handle > 0
            return
        self.theo_win += theory.edge * handle
        self.win_variance += theory.variance * int(row["squares"] or 0)

    def merge(self, other: Figures) -> None:
        self.rounds += other.rounds
        self.handle_cents += other.handle_cents
        self.paid_cents += other.paid_cents
        self.win_cents += other.win_cents
        self.theo_win += other.theo_win
        self.win_variance += other.win_variance
        self.theory_missing = self.theory_missing or other.theory_missing

    @property
    def hold(self) -> float | None:
        return self.win_cents / self.handle_cents if self.handle_cents else None

    @property
    def theo_known(self) -> bool:
        return not self.theory_missing and self.handle_cents > 0

    @property
    def theo_win_cents(self) -> int | None:
        return round(self.theo_win) if not self.theory_missing else None

    @property
    def theo_hold(self) -> float | None:
        return float(self.theo_win / self.handle_cents) if self.theo_known else None

    @property
    def band(self) -> tuple[float, float] | None:
        """The 95 % band of the hold for this handle: theoretical hold ± Z95 · √(Σ stake² · variance) / handle."""
        if not self.theo_known:
            return None
        theo = float(self.theo_win / self.handle_cents)
        half = Z95 * math.sqrt(self.win_variance) / self.handle_cents
        return theo - half, theo + half

    @property
    def outside_band(self) -> bool:
        band, hold = self.band, self.hold
        return band is not None and hold is not None and not band[0] <= hold <= band[1]

    def to_dict(self) -> dict[str, Any]:
        """The figures as the reports API answers them (exactly these keys)."""
        band = self.band
        return {
            "rounds": self.rounds,
            "handle_cents": self.handle_cents,
            "paid_cents": self.paid_cents,
            "win_cents": self.win_cents,
            "theo_win_cents": self.theo_win_cents,
            "hold": self.hold,
            "theo_hold": self.theo_hold,
            "hold_low": band[0] if band else None,
            "hold_high": band[1] if band else None,
            "outside_band": self.outside_band,
        }


@dataclass
class ReportRow:
    key: Any
    label: str
    figures: Figures = field(default_factory=Figures)


@dataclass
class Report:
    rows: list[ReportRow]
    totals: Figures


def of_tables(rows: QuerySet[Any], query: ReportQuery) -> QuerySet[Any]:
    """Rows of a model with a `table` link, narrowed to the query's table, table type and pit."""
    if query.table is not None:
        rows = rows.filter(table=query.table)
    if query.table_type:
        rows = rows.filter(table__table_type=query.table_type)
    if query.pit:
        rows = rows.filter(table__pit=query.pit)
    return rows


def summary_rows(query: ReportQuery, model: type[SummaryFigures] = TableHour) -> QuerySet[Any]:
    """The summary rows (per hour, or per shift) of the query's gaming days and filters."""
    rows = of_tables(model._default_manager.filter(gaming_day__gte=query.first, gaming_day__lte=query.last), query)
    if query.dealer is not None:
        # only TableHour knows the dealer: _source never asks TableShift for a dealer's rows
        rows = rows.filter(dealer=query.dealer)
    if query.shift:
        rows = rows.filter(shift=query.shift)
    return rows


def _source(query: ReportQuery, keys: list[str]) -> type[SummaryFigures]:
    """Per-shift rows unless the dealer matters: at most tables x days x shifts rows for a year, however busy."""
    return TableHour if query.dealer is not None or "dealer_id" in keys else TableShift


def _triple_draw(query: ReportQuery, keys: list[str]) -> dict[tuple[Any, ...], Figures]:
    """Figures per value of `keys`, each row's theory from the paytable version locked on its rounds."""
    rows = list(
        summary_rows(query, _source(query, keys))
        .filter(rounds__gt=0)
        .values(*keys, "paytable_id")
        .annotate(**TRIPLE_DRAW_SUMS)
        .order_by()
    )
    theories = paytable_theories(row["paytable_id"] for row in rows)
    grouped: dict[tuple[Any, ...], Figures] = {}
    for row in rows:
        grouped.setdefault(tuple(row[key] for key in keys), Figures()).add(row, theories.get(row["paytable_id"]))
    return grouped


def _report(
    grouped: dict[tuple[Any, ...], Figures], label: Callable[[Any], str], order: Callable[[ReportRow], Any]
) -> Report:
    totals = Figures()
    rows = []
    for (key,), figures in grouped.items():
        totals.merge(figures)
        rows.append(ReportRow(key=key, label=label(key), figures=figures))
    return Report(rows=sorted(rows, key=order), totals=totals)


def _names(model: Any, ids: Iterable[Any], attribute: str) -> dict[Any, str]:
    return {
        obj.pk: str(getattr(obj, attribute)) for obj in model.objects.filter(pk__in=[i for i in ids if i is not None])
    }


def table_report(query: ReportQuery) -> Report:
    """Triple Draw figures per table."""
    grouped = _triple_draw(query, ["table_id"])
    names = _names(Table, (key for (key,) in grouped), "name")
    return _report(grouped, lambda key: names.get(key, str(key)), lambda row: row.label)


GROUP_KEYS = {
    "table": "table_id",
    "type": "table__table_type",
    "pit": "table__pit",
    "dealer": "dealer_id",
    "shift": "shift",
    "day": "gaming_day",
}


def group_report(query: ReportQuery, by: str) -> Report:
    """Triple Draw figures per table, table type, pit, dealer, shift or gaming day."""
    if by == "table":
        return table_report(query)
    grouped = _triple_draw(query, [GROUP_KEYS[by]])
    keys = [key for (key,) in grouped]
    if by == "dealer":
        names = _names(User, keys, "username")
        return _report(grouped, lambda key: names.get(key, "(no dealer)"), lambda row: row.label)
    if by == "type":
        return _report(grouped, lambda key: str(TableType(key).label), lambda row: row.label)
    if by == "pit":
        return _report(grouped, lambda key: key or "(no pit)", lambda row: (row.key == "", row.label))
    if by == "shift":
        order = {code: index for index, code in enumerate(shift_codes())}
        return _report(grouped, str, lambda row: order.get(row.key, len(order)))
    return _report(grouped, lambda key: key.isoformat(), lambda row: row.key)


@dataclass
class SeriesPoint:
    label: str
    figures: Figures


def hold_series(query: ReportQuery, by: str = "day") -> list[SeriesPoint]:
    """Hold against theoretical hold and its band over time, per gaming day or per shift."""
    keys = ["gaming_day"] if by == "day" else ["gaming_day", "shift"]
    grouped = _triple_draw(query, keys)
    order = {code: index for index, code in enumerate(shift_codes())}
    points = sorted(grouped.items(), key=lambda item: (item[0][0], order.get(item[0][-1], 0) if by != "day" else 0))
    return [SeriesPoint(" ".join(str(part) for part in key), figures) for key, figures in points]


def hours_of_day(query: ReportQuery) -> list[dict[str, int]]:
    """Triple Draw handle, win and rounds by local hour of day (0-23), over the query's days."""
    found = {
        row["hour_of_day"]: row
        for row in summary_rows(query)
        .filter(rounds__gt=0)
        .values("hour_of_day")
        .annotate(handle=Sum("handle_cents"), win=Sum("win_cents"), round_count=Sum("rounds"))
        .order_by()
    }
    return [
        {
            "hour": hour,
            "rounds": int(found.get(hour, {}).get("round_count") or 0),
            "handle_cents": int(found.get(hour, {}).get("handle") or 0),
            "win_cents": int(found.get(hour, {}).get("win") or 0),
        }
        for hour in range(24)
    ]


@dataclass
class HomeRow:
    """A home-game table's play: hands, games, pots and the house's charges."""

    table_id: int | None
    table: str
    table_type: str
    hands: int = 0
    games: int = 0
    pots_cents: int = 0
    rake_cents: int = 0
    time_charge_cents: int = 0
    hours: int = 0  # hours with at least one hand
    # Now, whatever days the report covers: the game open at the table (its number) and the chips in its middle (a
    # carried Three Legged Race pot, or the hand in play). `games` counts games ended and `pots_cents` pots awarded,
    # so a game still open, and chips still in the middle, show here and nowhere else.
    open_game: int | None = None
    middle_cents: int = 0

    @property
    def house_cents(self) -> int:
        return self.rake_cents + self.time_charge_cents

    @property
    def hands_per_hour(self) -> float | None:
        return self.hands / self.hours if self.hours else None

    @property
    def type_label(self) -> str:
        """The game's name as the floor says it ("Freak of Nature"); the code stays in the CSV and the API."""
        return str(TableType(self.table_type).label) if self.table_type else ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "table_id": self.table_id,
            "table": self.table,
            "table_type": self.table_type,
            "hands": self.hands,
            "games": self.games,
            "pots_cents": self.pots_cents,
            "rake_cents": self.rake_cents,
            "time_charge_cents": self.time_charge_cents,
            "house_cents": self.house_cents,
            "hours": self.hours,
            "hands_per_hour": self.hands_per_hour,
            "open_game": self.open_game,
            "middle_cents": self.middle_cents,
        }


def _with_open_games(rows: list[HomeRow], query: ReportQuery) -> list[HomeRow]:
    """Each row's open game and the chips in its middle now; when the report reaches today (and names no dealer or
    shift, which a game open now has not finished with), a table whose open game has settled nothing yet gets a row
    too: "Games 0" and no row at all hid the game in play and the chips in its middle."""
    by_table = {row.table_id: row for row in rows}
    games = HomeGame.objects.filter(status=HomeGame.Status.OPEN).select_related("table")
    if query.last < gaming_day(timezone.now()) or query.dealer is not None or query.shift:
        games = games.filter(table_id__in=list(by_table))
    for game in of_tables(games, query):
        row = by_table.get(game.table_id)
        if row is None:
            row = by_table[game.table_id] = HomeRow(table_id=game.table_id, table=game.table.name,
                                                    table_type=game.table.table_type)
        row.open_game, row.middle_cents = game.number, game.pot_cents
    return sorted(by_table.values(), key=lambda row: row.table)


def home_report(query: ReportQuery) -> tuple[list[HomeRow], HomeRow]:
    """Home-game tables: hands, games, pots, rake and time charges, hands per hour of play."""
    rows = (
        summary_rows(query)
        .exclude(table__table_type=TableType.TRIPLE_DRAW)
        .values("table_id", "table__name", "table__table_type")
        .annotate(
            hand_count=Sum("hands"),
            game_count=Sum("games"),
            pots=Sum("pots_cents"),
            rake=Sum("rake_cents"),
            time_charges=Sum("time_charge_cents"),
            hours=Count("hour_start", distinct=True, filter=Q(hands__gt=0)),
        )
        .order_by("table__name")
    )
    result = [
        HomeRow(
            table_id=row["table_id"],
            table=row["table__name"],
            table_type=row["table__table_type"],
            hands=int(row["hand_count"] or 0),
            games=int(row["game_count"] or 0),
            pots_cents=int(row["pots"] or 0),
            rake_cents=int(row["rake"] or 0),
            time_charge_cents=int(row["time_charges"] or 0),
            hours=int(row["hours"] or 0),
        )
        for row in rows
    ]
    result = _with_open_games(result, query)
    totals = HomeRow(table_id=None, table="All home-game tables", table_type="")
    for row in result:
        for name in ("hands", "games", "pots_cents", "rake_cents", "time_charge_cents", "hours", "middle_cents"):
            setattr(totals, name, getattr(totals, name) + getattr(row, name))
    return result, totals
