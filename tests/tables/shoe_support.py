"""A Triple Draw table dealt from a card-reading shoe, for the shoe's tests: a round with its bets closed, the
shoe's device and posts, a snapshot of everything a report could change, and a device added in the admin."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.http import HttpResponse
from django.test import Client
from rest_framework.test import APIClient

from audit.models import AuditEvent
from tables.models import DrawRow, Round, RoundCard, SeatHand, Table, TableDevice
from tables.services.devices import device_create
from tests.tables.helpers import bet, ok, start

DEAL = ["Js", "Ac", "Jh", "Kc", "4c", "Qc", "7d", "Tc", "9s", "2d"]  # seat 1 gets the 1st, 3rd, 5th...
ROWS = ["Jc", "2h", "5d", "Qs", "6h", "4d", "4h", "Kh", "2c", "7s", "As", "Ah", "9h", "9d", "Qh"]


def shoe_post(token: str, cards: list[str], **extra: Any) -> Any:
    """A shoe's report with its device token (`extra`: "table", "round" or "hand")."""
    return APIClient().post("/api/v1/shoe/cards/", {"cards": cards, **extra}, format="json",
                            HTTP_AUTHORIZATION=f"Device {token}")


def device_add_in_admin(floor: User, table: Table, name: str) -> HttpResponse:
    """The floor adds a device for `table` on the admin's Table devices → Add page."""
    client = Client()
    client.force_login(floor)
    response: HttpResponse = client.post("/admin/tables/tabledevice/add/", {"table": table.pk, "name": name})
    return response


class TripleDrawShoe:
    """A two-seat shoe table's shoe, and a round whose bets are closed."""

    def __init__(self, table: Table, floor: User, dealer_api: APIClient) -> None:
        self.table = table
        self.device, self.token = device_create(table=self.table, name="shoe-a", actor=floor)
        self.api = dealer_api
        self.round_id = self.next_round()

    def next_round(self) -> int:
        """The table's next round (the last one over), both seats' bets closed: the one the snapshot reads."""
        self.round_id = start(self.api, self.table.pk)
        ok(bet(self.api, self.round_id, 1, 1000, 1))
        ok(bet(self.api, self.round_id, 2, 1000, 1))
        ok(self.api.post(f"/api/v1/rounds/{self.round_id}/close-bets/"))
        return self.round_id

    def post(self, cards: list[str], **extra: Any) -> Any:
        return shoe_post(self.token, cards, **extra)

    def hold_all(self) -> None:
        for seat, held in ((1, ["Js", "Jh"]), (2, ["Ac", "Kc"])):
            ok(self.api.post(f"/api/v1/rounds/{self.round_id}/holds/", {"seat": seat, "held": held}, format="json"))

    def snapshot(self) -> tuple[Any, ...]:
        """Everything a report could change: the round, its cards, the audit trail, the device."""
        rnd = Round.objects.get(pk=self.round_id)
        return (rnd.version, rnd.phase,
                list(SeatHand.objects.filter(round=rnd).order_by("seat_number").values_list("dealt", flat=True)),
                list(DrawRow.objects.filter(round=rnd).order_by("row").values_list("cards", flat=True)),
                RoundCard.objects.filter(round=rnd).count(), AuditEvent.objects.count(),
                TableDevice.objects.get(pk=self.device.pk).last_used_at)
