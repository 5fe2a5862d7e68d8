"""seed_demo gives the floor something to look at: pits, days of simulated play in the summaries, the dealer's
sessions, and yesterday's day shift closed with inventories, a fill, a credit and the drop; twice adds nothing."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.db.models import Sum
from django.test import override_settings
from django.utils import timezone

from floor.gaming_day import gaming_day
from floor.models import ChipCount, ChipSlip, DealerSession, Drop, Shift, ShiftTableResult, TableHour
from tables.models import LedgerEntry, Table


@pytest.mark.django_db
@override_settings(DEBUG=True)
def test_seed_demo_gives_the_floor_play_pits_and_a_closed_shift() -> None:
    call_command("seed_demo", stdout=StringIO())
    today = gaming_day(timezone.now())
    # Triple Draw's demo play is over (three past days, yesterday's shift closed); the home games play on today.
    triple_draw = TableHour.objects.filter(table__table_type="triple-draw")
    days = set(triple_draw.values_list("gaming_day", flat=True))
    assert len(days) == 3
    assert max(days) < today
    assert set(TableHour.objects.exclude(table__table_type="triple-draw").values_list("gaming_day", flat=True)) == {
        today}
    assert TableHour.objects.aggregate(h=Sum("handle_cents"))["h"] > 0
    assert TableHour.objects.filter(dealer__username="dealer").exists()  # from the dealer's sessions
    assert set(Table.objects.values_list("pit", flat=True)) == {"Main pit", "High limit", "Home games"}
    shift = Shift.objects.get(status=Shift.Status.CLOSED)
    assert shift.gaming_day == today - timezone.timedelta(days=1)
    assert set(ChipCount.objects.filter(shift=shift).values_list("kind", flat=True)) == {"opening", "closing"}
    assert sorted(ChipSlip.objects.filter(shift=shift).values_list("kind", flat=True)) == ["credit", "fill"]
    assert Drop.objects.filter(shift=shift).exists()
    result = ShiftTableResult.objects.get(shift=shift)
    assert result.count_win_cents - result.system_win_cents == result.difference_cents
    assert abs(result.difference_cents) < 100  # the demo's books match the ledger to the dollar
    assert DealerSession.objects.filter(signed_out_at__isnull=False).count() == 9

    entries = LedgerEntry.objects.count()
    call_command("seed_demo", stdout=StringIO())
    assert LedgerEntry.objects.count() == entries
    assert Shift.objects.count() == 1
