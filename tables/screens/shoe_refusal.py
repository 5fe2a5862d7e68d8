"""A card-reading shoe's last refused report as a dealer's tablet shows it (home games and Triple Draw alike), and
the part of the screen's change token that notices one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count, Max, Q

from tables.models import Table, TableDevice
from tables.templatetags.tablet import card_face, with_card_faces

RULE_NOTE = " (rule: "


@dataclass(frozen=True)
class ShoeRefusal:
    """A refused shoe report, for the dealer: when, which device, the cards it sent and why they were refused."""

    at: datetime
    device: str
    cards: str
    message: str
    code: str
    count: int = 1  # cards in the refused report

    @property
    def deal_again(self) -> str:
        """What to deal again: a refused report records none of its cards, the good ones beside a misread included."""
        return "check the card and deal it again" if self.count <= 1 else "check the cards and deal all of them again"


def refusal_token(table: Table) -> str:
    """The time of the table's devices' last refused report and how many are active (part of the screen's change
    token: a refusal rolls back, and a shoe issued or revoked changes no round or game, so their versions would not
    show it)."""
    found = TableDevice.objects.filter(table=table).aggregate(at=Max("last_refused_at"),
                                                              active=Count("pk", filter=Q(active=True)))
    return f"{found['at'].isoformat() if found['at'] is not None else '-'}.{found['active']}"


def latest_refusal(table: Table, current: Callable[[dict[str, Any]], bool]) -> ShoeRefusal | None:
    """The latest refused report of the table's shoes if `current` says the table still stands as it did then (its
    stored `last_refusal` names the round or hand and version): the table moving on makes it history."""
    device = (TableDevice.objects.filter(table=table, last_refused_at__isnull=False)
              .order_by("-last_refused_at").first())
    if device is None or device.last_refused_at is None or not current(device.last_refusal or {}):
        return None
    refusal = device.last_refusal or {}
    sent = [str(code) for code in refusal.get("cards", [])]
    # The stored message is the shoe's answer, in codes as the API gives them; the dealer reads cards as symbols.
    message = with_card_faces(str(refusal.get("message", "")).split(RULE_NOTE)[0], sent)
    cards = " ".join(card_face(str(code)) for code in sent)  # a malformed code as sent
    return ShoeRefusal(at=device.last_refused_at, device=device.name, cards=cards, message=message,
                       code=str(refusal.get("code", "")), count=len(sent))
