"""Reads of the paytables app: paytables as DESIGN 6 JSON, as engine specs, and for lists and detail pages."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.db.models import QuerySet

from casino.engine.paytable import PaytableSpec
from paytables.models import Paytable, PaytableLine


def paytable_line_as_dict(line: PaytableLine) -> dict[str, Any]:
    """One line as DESIGN 6 JSON: {"hand", "min_rank"?, "ranks"?, "pays": 9 | "3/2"}."""
    data: dict[str, Any] = {"hand": line.hand}
    if line.min_rank:
        data["min_rank"] = line.min_rank
    if line.ranks:
        data["ranks"] = list(line.ranks)
    data["pays"] = line.pays_numerator if line.pays_denominator == 1 else line.pays
    return data


def paytable_as_dict(paytable: Paytable) -> dict[str, Any]:
    """The paytable as DESIGN 6 JSON (what `analyze_paytable FILE.json` reads)."""
    data: dict[str, Any] = {"name": paytable.name, "basis": paytable.basis}
    if paytable.wild_ranks:
        data["wild_ranks"] = list(paytable.wild_ranks)
    # all() rather than order_by() so a prefetched schedule is reused.
    lines = sorted(paytable.lines.all(), key=lambda line: line.position)
    data["lines"] = [paytable_line_as_dict(line) for line in lines]
    return data


def paytable_spec(paytable: Paytable) -> PaytableSpec:
    """The engine's view of a stored paytable (validated by the engine)."""
    return PaytableSpec.from_dict(paytable_as_dict(paytable))


def spec_fingerprint(spec: PaytableSpec) -> str:
    """A stable hash of what the analysis depends on (basis, wild ranks, lines), not the name."""
    data = spec.to_dict()
    data.pop("name", None)
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


def paytable_list(*, status: str | None = None, name: str | None = None) -> QuerySet[Paytable]:
    """Every version, by name then newest first; optionally one status and/or one name."""
    paytables = Paytable.objects.select_related("analysis", "approved_by", "created_by").order_by("name", "-version")
    if status:
        paytables = paytables.filter(status=status)
    if name:
        paytables = paytables.filter(name=name)
    return paytables


def paytable_get(paytable_id: int) -> Paytable:
    """One paytable with its lines and analysis loaded; Paytable.DoesNotExist when there is none."""
    return (
        Paytable.objects.select_related("analysis", "approved_by", "created_by", "cloned_from")
        .prefetch_related("lines")
        .get(pk=paytable_id)
    )


def paytable_analysis_or_none(paytable: Paytable) -> Any:
    """The paytable's analysis row, or None before the first job was queued."""
    try:
        return paytable.analysis
    except Paytable.analysis.RelatedObjectDoesNotExist:
        return None
