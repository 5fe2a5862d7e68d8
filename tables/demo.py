"""Demo Triple Draw tables for seed_demo: an rng table and a manual table on the house paytable (idempotent)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.management.base import CommandError

from paytables.models import Paytable, PaytableStatus
from tables import services
from tables.models import CardSource, Table

HOUSE_NAME = "Jacks or Better 9/6"
DEMO_TABLES = (
    ("Triple Draw 1", CardSource.RNG),
    ("Triple Draw 2", CardSource.MANUAL),
)


def house_paytable() -> Paytable:
    """The house paytable: the seeded Jacks or Better 9/6, else any version in force or approved."""
    usable = Paytable.objects.filter(status__in=[PaytableStatus.ACTIVE, PaytableStatus.APPROVED])
    found = usable.filter(name=HOUSE_NAME).order_by("-version").first() or usable.order_by("-status").first()
    if found is None:
        raise CommandError("no approved paytable to put on the demo tables (seed the paytables first)")
    return found


def seed_triple_draw_tables(users: dict[str, User]) -> list[Table]:
    floor, dealer = users["floor"], users["dealer"]
    paytable = house_paytable()
    tables = []
    for name, source in DEMO_TABLES:
        table = Table.objects.filter(name=name).first()
        if table is None:
            table = services.table_create(name=name, card_source=source, paytable=paytable, actor=floor)
            services.table_open(table=table, actor=floor)
        if not table.dealers.filter(pk=dealer.pk).exists():
            services.table_assign_dealer(table=table, dealer=dealer, actor=floor)
        tables.append(table)
    return tables
