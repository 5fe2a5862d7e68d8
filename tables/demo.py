"""Demo Triple Draw tables for seed_demo: an rng table on the house to_1 paytable, a manual one on 9/6, a high-limit
rng table on Double Bonus 10/7, and one dealt from a card-reading shoe on the house paytable (idempotent)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import CommandError

from paytables.models import Paytable, PaytableStatus
from tables.models import CardSource, Table
from tables.services.tables import table_assign_dealer, table_create, table_open

# One table per paytable basis, so the demo shows table-style (to 1) and video-poker-style (for 1) payouts, and a
# high-limit table so the floor's reports compare pits and limits.
DEMO_TABLES: tuple[tuple[str, str, str, dict[str, Any]], ...] = (
    ("Triple Draw 1", CardSource.RNG, "Triple Draw house", {}),
    ("Triple Draw 2", CardSource.MANUAL, "Jacks or Better 9/6", {}),
    ("High Limit 1", CardSource.RNG, "Double Bonus 10/7", {"min_bet_cents": 2_500, "max_bet_cents": 500_000}),
    # Its shoe's token is printed by seed_demo (tables/shoe_demo.py), so the shoe can be tried with curl.
    ("Triple Draw Shoe 1", CardSource.SHOE, "Triple Draw house", {}),
)


def demo_paytable(name: str) -> Paytable:
    """The newest approved or active version of a seeded paytable."""
    usable = Paytable.objects.filter(status__in=[PaytableStatus.ACTIVE, PaytableStatus.APPROVED], name=name)
    found = usable.order_by("-version").first()
    if found is None:
        raise CommandError(f"no approved paytable {name!r} to put on the demo tables (seed the paytables first)")
    return found


def seed_triple_draw_tables(users: dict[str, User]) -> list[Table]:
    floor, dealer = users["floor"], users["dealer"]
    tables = []
    for name, source, paytable_name, limits in DEMO_TABLES:
        table = Table.objects.filter(name=name).first()
        if table is None:
            table = table_create(
                name=name, card_source=source, paytable=demo_paytable(paytable_name), actor=floor, **limits
            )
            table_open(table=table, actor=floor)
        if not table.dealers.filter(pk=dealer.pk).exists():
            table_assign_dealer(table=table, dealer=dealer, actor=floor)
        tables.append(table)
    return tables
