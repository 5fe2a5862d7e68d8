"""The dealers' calls for the floor that the screens show: the open ones (the floor's live view) and a table's latest
(the tablet's header: waiting, or who answered and when)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from tables.models import FloorCall, HomeHand, Round, Table

# How long the tablet keeps saying who answered: long enough for the dealer to read it, not all shift.
ANSWER_SHOWN = timedelta(minutes=10)


def open_calls(*, with_tables: bool = False) -> dict[int, FloorCall]:
    """Every table's open call (at most one each), with what its alert names (and its table), in one query."""
    related = ("round", "called_by", *(("table",) if with_tables else ()))
    calls = FloorCall.objects.filter(answered_at__isnull=True).select_related(*related).order_by()
    return {call.table_id: call for call in calls}


def table_call(table: Table, now: datetime | None = None) -> FloorCall | None:
    """The table's call the tablet shows: the open one, or the last one answered within ANSWER_SHOWN and before
    the table's next round or hand began (an answer read during the next hand looks like a new one)."""
    call = (FloorCall.objects.filter(table=table).select_related("called_by", "answered_by")
            .order_by("-called_at", "-id").first())
    if call is None or call.answered_at is None:
        return call
    if (now or timezone.now()) - call.answered_at >= ANSWER_SHOWN:
        return None
    dealt_since = (Round.objects.filter(table=table, started_at__gt=call.answered_at).exists()
                   or HomeHand.objects.filter(game__table=table, started_at__gt=call.answered_at).exists())
    return None if dealt_since else call
