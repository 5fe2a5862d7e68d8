"""seed_standard_paytables: the standard paytables (paytables/standard/*.json), created and approved once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.db import transaction

from paytables.models import Paytable
from paytables.services import paytable_approve, paytable_create_draft

STANDARD_DIR = Path(__file__).resolve().parent / "standard"
DEMO_APPROVAL_REFERENCE = "DEMO-2026-0001"


def standard_paytable_files() -> list[Path]:
    return sorted(STANDARD_DIR.glob("*.json"))


@transaction.atomic
def seed_standard_paytables(
    approver: Any, *, drafter: Any, approval_reference: str = DEMO_APPROVAL_REFERENCE
) -> list[Paytable]:
    """Create and approve each standard paytable whose name is not there yet; a second run changes nothing.

    Two people: nobody approves a paytable they drafted (the services and the database refuse it).
    """
    seeded = []
    for path in standard_paytable_files():
        data = json.loads(path.read_text(encoding="utf-8"))
        existing = Paytable.objects.filter(name=data["name"]).order_by("-version").first()
        if existing is not None:
            seeded.append(existing)
            continue
        draft = paytable_create_draft(
            name=data["name"],
            basis=data["basis"],
            wild_ranks=data.get("wild_ranks", []),
            lines=data["lines"],
            actor=drafter,
        )
        seeded.append(paytable_approve(paytable=draft, approval_reference=approval_reference, actor=approver))
    return seeded
