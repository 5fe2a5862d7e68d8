"""Reads of the paytables app: paytables as DESIGN 6 JSON, as engine specs, and for lists and detail pages."""

from __future__ import annotations

import copy
import hashlib
import json
import threading
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from casino.engine.hand_words import line_label
from casino.engine.paytable import PaytableSpec
from paytables.models import Paytable, PaytableLine, PaytableStatus


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


_snapshots: dict[tuple[Any, ...], dict[str, Any]] = {}
_snapshots_lock = threading.Lock()


def paytable_snapshot(paytable: Paytable) -> dict[str, Any]:
    """The engine-validated DESIGN 6 JSON a round locks at close of bets.

    Kept per process once the version is approved (its lines never change then; a database trigger forbids it),
    keyed by id and creation and approval times so a database rebuilt under the same ids is never mistaken for it:
    every close of bets used to read and validate the lines again.
    """
    if paytable.status == PaytableStatus.DRAFT or paytable.approved_at is None:
        return paytable_spec(paytable).to_dict()
    key = (paytable.pk, paytable.created_at, paytable.approved_at)
    with _snapshots_lock:
        found = _snapshots.get(key)
    if found is None:
        found = paytable_spec(paytable).to_dict()
        with _snapshots_lock:
            if len(_snapshots) > 256:
                _snapshots.clear()
            _snapshots[key] = found
    return copy.deepcopy(found)


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


def paytable_name(paytable_id: int) -> str | None:
    """ "Double Bonus 10/7 v1": how audit text names a paytable an event recorded by id; None when there is none."""
    paytable = Paytable.objects.filter(pk=paytable_id).only("name", "version").first()
    return str(paytable) if paytable is not None else None


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


@dataclass(frozen=True)
class LineChange:
    """One line of a schedule beside the previous version's: "same", "changed", "added" or "removed"."""

    hand: str  # in words, with its qualifier ("Pair, jacks or better")
    before: str  # the previous version's pays ("" when the line is new)
    after: str  # this version's pays ("" when the line was removed)
    change: str


def paytable_previous(paytable: Paytable) -> Paytable | None:
    """The version this one is measured against: the one it was cloned from, else the newest earlier version."""
    if paytable.cloned_from_id is not None:
        return Paytable.objects.prefetch_related("lines").get(pk=paytable.cloned_from_id)
    return (
        Paytable.objects.filter(name=paytable.name, version__lt=paytable.version)
        .prefetch_related("lines")
        .order_by("-version")
        .first()
    )


def _line_key(line: PaytableLine) -> tuple[str, str, tuple[str, ...]]:
    return (line.hand, line.min_rank or "", tuple(line.ranks or []))


def paytable_line_changes(paytable: Paytable, previous: Paytable | None) -> list[LineChange]:
    """This version's lines in order, each beside the previous version's pays; removed lines at the end."""
    old = {_line_key(line): line for line in (previous.lines.all() if previous is not None else [])}
    changes = []
    seen = set()
    for line in sorted(paytable.lines.all(), key=lambda item: item.position):
        key = _line_key(line)
        seen.add(key)
        label = line_label(line.hand, line.min_rank, line.ranks)
        before = old.get(key)
        if previous is None:
            changes.append(LineChange(label, "", line.pays, "same"))
        elif before is None:
            changes.append(LineChange(label, "", line.pays, "added"))
        else:
            changes.append(LineChange(label, before.pays, line.pays, "same" if before.pays == line.pays else "changed"))
    for key, line in old.items():
        if key not in seen:
            changes.append(LineChange(line_label(line.hand, line.min_rank, line.ranks), line.pays, "", "removed"))
    return changes
