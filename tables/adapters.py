"""Rows <-> engine values: a stored paytable version as the engine's PaytableSpec and its DESIGN 6 JSON."""

from __future__ import annotations

from typing import Any

from casino.engine.paytable import PaytableSpec
from paytables.models import Paytable


def paytable_document(paytable: Paytable) -> dict[str, Any]:
    """The DESIGN 6 JSON of a stored paytable version, lines in paying order."""
    lines = []
    for line in paytable.lines.order_by("position"):
        entry: dict[str, Any] = {
            "hand": line.hand,
            "pays": line.pays if line.pays_denominator != 1 else line.pays_numerator,
        }
        if line.min_rank:
            entry["min_rank"] = line.min_rank
        if line.ranks:
            entry["ranks"] = list(line.ranks)
        lines.append(entry)
    document: dict[str, Any] = {"name": str(paytable), "basis": paytable.basis, "lines": lines}
    if paytable.wild_ranks:
        document["wild_ranks"] = list(paytable.wild_ranks)
    return document


def paytable_spec_of(paytable: Paytable) -> PaytableSpec:
    """The engine's view of a stored version; PaytableError names anything the engine refuses."""
    return PaytableSpec.from_dict(paytable_document(paytable))
