"""Approved paytables for tests and benchmarks, made from DESIGN 6 JSON (the files in paytables/standard/).

`make_paytable` writes the rows directly instead of going through paytable_create_draft/paytable_approve, so no
analysis job is queued and no audit event is written: the approval workflow is the paytables app's own tests.
It imports no pytest, so bench scripts call it too; the `approved_paytable` fixture (tests/conftest.py) wraps it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from django.utils import timezone

from paytables.models import Paytable, PaytableLine, PaytableStatus
from paytables.seed import STANDARD_DIR


def standard_document(stem: str) -> dict[str, Any]:
    """The DESIGN 6 JSON of paytables/standard/<stem>.json, e.g. standard_document("jacks_or_better_9_6")."""
    return dict(json.loads((STANDARD_DIR / f"{stem}.json").read_text(encoding="utf-8")))


def make_paytable(
    document: Mapping[str, Any] | str, approver: Any = None, *, approval_reference: str = "GC-TEST-1"
) -> Paytable:
    """An approved paytable (version 1) from DESIGN 6 JSON or the stem of a file in paytables/standard/."""
    data = standard_document(document) if isinstance(document, str) else document
    # Lines go in while it is a draft: the database refuses lines of an approved paytable.
    paytable = Paytable.objects.create(
        name=data["name"],
        version=1,
        basis=data["basis"],
        wild_ranks=list(data.get("wild_ranks", [])),
        status=PaytableStatus.DRAFT,
    )
    pays = [Fraction(str(line["pays"])) for line in data["lines"]]
    PaytableLine.objects.bulk_create(
        PaytableLine(
            paytable=paytable,
            position=position,
            hand=line["hand"],
            min_rank=line.get("min_rank", ""),
            ranks=list(line.get("ranks", [])),
            pays_numerator=paid.numerator,
            pays_denominator=paid.denominator,
        )
        for position, (line, paid) in enumerate(zip(data["lines"], pays, strict=True), start=1)
    )
    Paytable.objects.filter(pk=paytable.pk).update(
        status=PaytableStatus.APPROVED,
        approval_reference=approval_reference,
        approved_by=approver,
        approved_at=timezone.now(),
    )
    paytable.refresh_from_db()
    return paytable
