"""Reads of tables: the tables a user may see, and one table's settings, seats and round in play."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from audit.roles import COMPLIANCE, DEALER, FLOOR, has_role
from tables.models import Seat, Table
from tables.selectors.rounds import round_in_play


def tables_for(user: Any) -> QuerySet[Table]:
    """Tables the user may see: a dealer sees the tables assigned to them; floor and compliance see all."""
    if has_role(user, FLOOR, COMPLIANCE):
        return Table.objects.all()
    if has_role(user, DEALER):
        return Table.objects.filter(dealers=user)
    return Table.objects.none()


def table_list(user: Any) -> QuerySet[Table]:
    return tables_for(user).select_related("paytable").prefetch_related("dealers").order_by("name")


def table_state(table: Table) -> dict[str, Any]:
    """A table's settings, dealers, seats and round in play, JSON-ready."""
    current = round_in_play(table)
    paytable = table.paytable
    return {
        "id": table.pk,
        "name": table.name,
        "table_type": table.table_type,
        "is_open": table.is_open,
        "card_source": table.card_source,
        "min_bet_cents": table.min_bet_cents,
        "max_bet_cents": table.max_bet_cents,
        "max_payout_per_seat_cents": table.max_payout_per_seat_cents,
        "supervisor_approval_threshold_cents": table.supervisor_approval_threshold_cents,
        "paytable": None
        if paytable is None
        else {
            "id": paytable.pk,
            "name": paytable.name,
            "version": paytable.version,
            "basis": paytable.basis,
            "status": paytable.status,
        },
        "dealers": sorted(user.username for user in table.dealers.all()),
        "seats": [
            {"seat": s.number, "occupied": s.occupied, "player_name": s.player_name, "player_card": s.player_card}
            for s in Seat.objects.filter(table=table).order_by("number")
        ],
        "current_round": None
        if current is None
        else {"id": current.pk, "number": current.number, "phase": current.phase},
    }
