"""seed_demo's card-reading shoes: a fresh device credential on each demo shoe table every run, so the banner can
print a token to try the shoe with (a token is shown once and only its hash is kept; the previous one is revoked)."""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.urls import reverse

from tables.models import CardSource, Table, TableDevice
from tables.services.devices import device_create, device_revoke


@dataclass(frozen=True)
class DemoShoe:
    """A demo shoe table and the token just issued for it."""

    table_id: int
    table_name: str
    device_name: str
    token: str

    def curl(self, base: str) -> str:
        """One line a new user can paste: the shoe reporting one card (the answer says what the table awaits next)."""
        body = json.dumps({"cards": ["As"], "table": self.table_id})
        header = shlex.quote(f"Authorization: Device {self.token}")
        return (f"curl -s -X POST {base}{reverse('shoe-cards')} -H {header} -H 'Content-Type: application/json' "
                f"-d {shlex.quote(body)}")


def seed_shoe_credentials(tables: list[Table], floor: User) -> list[DemoShoe]:
    """A new credential for each shoe table among `tables`, the floor supervisor issuing it through the services
    (audited), after revoking the ones still active: the demo's own tokens were printed once and are not kept."""
    shoes = []
    for table in tables:
        if table.card_source != CardSource.SHOE:
            continue
        for device in TableDevice.objects.filter(table=table, active=True).order_by("id"):
            device_revoke(device=device, actor=floor)
        # Names stay unique per table, revoked ones included: shoe 1, shoe 2, ... one per run.
        number = TableDevice.objects.filter(table=table).count() + 1
        device, token = device_create(table=table, name=f"shoe {number}", actor=floor)
        shoes.append(DemoShoe(table_id=table.pk, table_name=table.name, device_name=device.name, token=token))
    return shoes
