"""A shift's books per table: inventories, fills, credits, drop, count win and system win (what the shift sheet
shows and what the shift close stores)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.db.models import Count, Sum

from floor.gaming_day import ShiftSpan
from floor.models import ChipCount, ChipSlip, Correction, Drop, Shift, ShiftTableResult
from floor.sources import home_figures
from tables.models import LedgerAccount, LedgerEntry, Table, TableType


@dataclass
class SystemWin:
    """The win the system recorded at a table: Triple Draw stakes - returns (ledger), home games' house charges."""

    cents: int = 0
    postings: int = 0  # bets posted (Triple Draw) or hours with house charges (home games)
    source: str = "ledger"


@dataclass
class TableBooks:
    """One table's accounting records for one shift, and the figures they give."""

    table: Table
    opening: ChipCount | None = None
    closing: ChipCount | None = None
    slips: list[ChipSlip] = field(default_factory=list)
    drop: Drop | None = None
    system: SystemWin = field(default_factory=SystemWin)
    result: ShiftTableResult | None = None

    @property
    def fills_cents(self) -> int:
        return sum(int(s.total_cents) for s in self.slips if s.kind == ChipSlip.Kind.FILL and s.voided_at is None)

    @property
    def credits_cents(self) -> int:
        return sum(int(s.total_cents) for s in self.slips if s.kind == ChipSlip.Kind.CREDIT and s.voided_at is None)

    @property
    def has_records(self) -> bool:
        return bool(self.opening or self.closing or self.slips or self.drop)

    @property
    def has_activity(self) -> bool:
        """Part of the shift's books: something was recorded or money was posted at the table."""
        return self.has_records or self.system.postings > 0

    @property
    def missing(self) -> list[str]:
        """What the count win still needs."""
        needed = [("opening inventory", self.opening), ("closing inventory", self.closing), ("drop", self.drop)]
        return [name for name, record in needed if record is None]

    @property
    def count_win_cents(self) -> int | None:
        """drop + credits - fills + (closing - opening): None until every part is recorded."""
        if self.opening is None or self.closing is None or self.drop is None:
            return None
        return (
            self.drop.total_cents
            + self.credits_cents
            - self.fills_cents
            + int(self.closing.total_cents)
            - int(self.opening.total_cents)
        )

    @property
    def difference_cents(self) -> int | None:
        count = self.count_win_cents
        return None if count is None else count - self.system.cents

    @property
    def flagged(self) -> bool:
        difference = self.difference_cents
        return difference is not None and abs(difference) > settings.FLOOR_WIN_TOLERANCE_CENTS


def system_wins(tables: list[Table], start: datetime, end: datetime) -> dict[int, SystemWin]:
    """Each table's system win in [start, end): the table bankroll's ledger legs (Triple Draw, one index range per
    table), the house charges of the home-game source (home games)."""
    wins = {table.pk: SystemWin() for table in tables}
    triple = [t.pk for t in tables if t.table_type == TableType.TRIPLE_DRAW]
    posted = (
        LedgerEntry.objects.filter(
            table_id__in=triple, account=LedgerAccount.TABLE_BANKROLL, posted_at__gte=start, posted_at__lt=end
        )
        .values("table_id")
        .annotate(win=Sum("amount_cents"), bets=Count("id"))
        .order_by()
    )
    for row in posted:
        wins[row["table_id"]] = SystemWin(cents=int(row["win"]), postings=int(row["bets"]))
    home = [t.pk for t in tables if t.table_type != TableType.TRIPLE_DRAW]
    for table_id in home:
        wins[table_id] = SystemWin(source="house_charges")
    for figure in home_figures(table_ids=home, start=start, end=end):
        wins[figure.table_id].cents += figure.house_cents
        wins[figure.table_id].postings += 1
    return wins


def shift_books(span: ShiftSpan, shift: Shift | None, tables: list[Table] | None = None) -> list[TableBooks]:
    """The books of every table (or of `tables`) for a shift; `shift` is None before anything was recorded."""
    tables = list(Table.objects.order_by("pit", "name")) if tables is None else tables
    books = {table.pk: TableBooks(table=table) for table in tables}
    if shift is not None:
        for count in ChipCount.objects.filter(shift=shift, table_id__in=books).select_related("recorded_by"):
            setattr(books[count.table_id], count.kind, count)
        slips = ChipSlip.objects.filter(shift=shift, table_id__in=books).select_related("dealer_signer", "floor_signer")
        for slip in slips.order_by("signed_at", "pk"):
            books[slip.table_id].slips.append(slip)
        for drop in Drop.objects.filter(shift=shift, table_id__in=books).select_related("counted_by"):
            books[drop.table_id].drop = drop
        for result in ShiftTableResult.objects.filter(shift=shift, table_id__in=books):
            books[result.table_id].result = result
    for table_id, win in system_wins(tables, span.starts_at, span.ends_at).items():
        books[table_id].system = win
    return list(books.values())


def shift_corrections(shift: Shift | None) -> list[Correction]:
    if shift is None:
        return []
    return list(Correction.objects.filter(shift=shift).select_related("table", "corrected_by").order_by("corrected_at"))
