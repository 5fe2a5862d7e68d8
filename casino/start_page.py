"""The start page: each screen the signed-in user's roles can use, what it is for, and whether it is read-only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.urls import reverse

from audit.access import can_read_audit
from audit.roles import COMPLIANCE, COUNT, DEALER, FLOOR, has_role


@dataclass(frozen=True)
class Destination:
    title: str
    url: str
    purpose: str
    read_only: bool = False


def destinations(user: Any) -> list[Destination]:
    """What this user may open, most used first. "Read-only" marks a screen others change that this user may only
    read (compliance on the floor's screens); a screen nobody changes (a report) carries no mark."""
    floor = has_role(user, FLOOR)
    found: list[Destination] = []
    if floor:
        found += [
            Destination("Floor view", reverse("floor:home"),
                        "Live tables: what each is doing, calls from dealers, payouts and voids awaiting approval."),
            Destination("Pits", reverse("floor:pits"), "Put each table in its pit, as the floor is laid out."),
        ]
    if can_read_audit(user):
        found += [
            Destination("Audit trail", reverse("audit:event-list"),
                        "Every recorded action: search by table, round, home game, person or time, and export it."),
            Destination("Exception queue", reverse("audit:exception-report"),
                        "Cases the rules flagged (large payouts, voids, paytables outside the band) to review and "
                        "sign off."),
            Destination("Daily compliance reports", reverse("audit:daily-reports"),
                        "Each gaming day's report, as a page, CSV or PDF."),
        ]
    if has_role(user, FLOOR, COMPLIANCE):
        found.append(Destination("Win and hold reports", reverse("floor:reports"),
                                 "Drop, win and hold per table and shift; home games' rake, time charges and pots."))
    if has_role(user, FLOOR, COMPLIANCE, COUNT):
        found.append(Destination("Shift books", reverse("floor:shift"),
                                 "Each shift's fills, credits and drop per table, and their sign-offs.",
                                 read_only=not has_role(user, FLOOR, COUNT)))
    if has_role(user, DEALER, FLOOR, COMPLIANCE):
        # The count team has no table on the tablet ("No tables are assigned to you"): not offered to them.
        found.append(Destination("Dealer tablet", reverse("tablet:home"),
                                 "The tables as the dealer runs them: rounds, hands, results and payouts.",
                                 read_only=not has_role(user, DEALER, FLOOR)))
    if getattr(user, "is_staff", False):
        found.append(Destination("Floor admin", reverse("admin:index"),
                                 "Tables, paytables, dealers, house rules and home-game settings.",
                                 read_only=not floor))
    found.append(Destination("API documentation", "/api/docs/",
                             "The REST API the tablets and shoes use, for integrations."))
    return found
