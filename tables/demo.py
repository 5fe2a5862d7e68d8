"""Demo Triple Draw tables for seed_demo: an rng table on the house to_1 paytable, a manual one on 9/6, a high-limit
rng table on Double Bonus 10/7, and one dealt from a card-reading shoe on the house paytable (idempotent)."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import CommandError

from paytables.models import Paytable, PaytableStatus
from tables.demo_tables import demo_table_get_or_create
from tables.models import CardSource, Table
from tables.services.tables import table_assign_dealer, table_create, table_open

# One table per paytable basis, so the demo shows table-style (to 1) and video-poker-style (for 1) payouts, and a
# high-limit table so the floor's reports compare pits and limits.
# Each table's key (Table.demo_key) is how a re-seed finds it again: the name is only what it is first called.
DEMO_TABLES: tuple[tuple[str, str, str, str, dict[str, Any]], ...] = (
    ("triple-draw-1", "Triple Draw 1", CardSource.RNG, "Triple Draw house", {}),
    ("triple-draw-2", "Triple Draw 2", CardSource.MANUAL, "Jacks or Better 9/6", {}),
    ("high-limit-1", "High Limit 1", CardSource.RNG, "Double Bonus 10/7",
     {"min_bet_cents": 2_500, "max_bet_cents": 500_000}),
    # Its shoe's token is printed by seed_demo (tables/shoe_demo.py), so the shoe can be tried with curl.
    ("triple-draw-shoe-1", "Triple Draw Shoe 1", CardSource.SHOE, "Triple Draw house", {}),
)


def demo_paytable(name: str) -> Paytable:
    """The newest approved or active version of a seeded paytable."""
    usable = Paytable.objects.filter(status__in=[PaytableStatus.ACTIVE, PaytableStatus.APPROVED], name=name)
    found = usable.order_by("-version").first()
    if found is None:
        raise CommandError(f"no approved paytable {name!r} to put on the demo tables (seed the paytables first)")
    return found


def _create(name: str, *, key: str, source: str, paytable_name: str, limits: dict[str, Any], floor: User) -> Table:
    table = table_create(name=name, card_source=source, paytable=demo_paytable(paytable_name), actor=floor,
                         demo_key=key, **limits)
    return table_open(table=table, actor=floor)


def seed_triple_draw_tables(users: dict[str, User]) -> list[Table]:
    floor, dealer = users["floor"], users["dealer"]
    tables = []
    for key, name, source, paytable_name, limits in DEMO_TABLES:
        create = partial(_create, key=key, source=source, paytable_name=paytable_name, limits=limits, floor=floor)
        table = demo_table_get_or_create(key, name, create)
        if not table.dealers.filter(pk=dealer.pk).exists():
            table_assign_dealer(table=table, dealer=dealer, actor=floor)
        tables.append(table)
    return tables
