"""Demo Triple Draw tables for seed_demo: an rng table and a manual table on the house paytable (idempotent)."""

from __future__ import annotations

import json
from pathlib import Path

from django.contrib.auth.models import User

from audit.services import audit_record
from paytables.models import Paytable, PaytableLine, PaytableStatus
from tables import services
from tables.models import CardSource, Table

STANDARD = Path(__file__).resolve().parent.parent / "paytables" / "standard"
HOUSE_NAME = "House Jacks or Better 9/6"
DEMO_TABLES = (
    ("Triple Draw 1", CardSource.RNG),
    ("Triple Draw 2", CardSource.MANUAL),
)


def house_paytable(floor: User) -> Paytable:
    """The active house paytable if there is one, else an approved one, else the standard 9/6 table approved now."""
    usable = Paytable.objects.filter(status__in=[PaytableStatus.ACTIVE, PaytableStatus.APPROVED])
    found = usable.filter(status=PaytableStatus.ACTIVE).first() or usable.first()
    if found is not None:
        return found
    document = json.loads((STANDARD / "jacks_or_better_9_6.json").read_text(encoding="utf-8"))
    paytable = Paytable.objects.create(
        name=HOUSE_NAME,
        version=1,
        basis=document["basis"],
        status=PaytableStatus.APPROVED,
        approval_reference="DEMO-SEED",
        approved_by=floor,
        created_by=floor,
    )
    for position, line in enumerate(document["lines"], start=1):
        PaytableLine.objects.create(
            paytable=paytable,
            position=position,
            hand=line["hand"],
            min_rank=line.get("min_rank", ""),
            ranks=line.get("ranks", []),
            pays_numerator=int(line["pays"]),
        )
    audit_record(action="paytable_seed", obj=paytable, after={"name": paytable.name, "lines": len(document["lines"])})
    return paytable


def seed_triple_draw_tables(users: dict[str, User]) -> list[Table]:
    floor, dealer = users["floor"], users["dealer"]
    paytable = house_paytable(floor)
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
