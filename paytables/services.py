"""Every write to paytables: drafts and their lines, approval, retirement, clones, table status, analysis jobs."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from audit.roles import FLOOR, has_role
from audit.services import audit_record
from casino.engine.cards import Rank
from casino.engine.paytable import PaytableError, PaytableSpec
from casino.errors import BadInput, ConcurrentChange, DomainError, NotAllowed, WrongPhase
from outbox.jobs import outbox_add
from paytables import actions
from paytables.models import AnalysisStatus, Paytable, PaytableAnalysis, PaytableLine, PaytableStatus
from paytables.selectors import paytable_as_dict, paytable_spec, spec_fingerprint

NAME_MAX_LENGTH = Paytable._meta.get_field("name").max_length or 100
# PositiveIntegerField: 32-bit signed on PostgreSQL.
PAYS_MAX = 2**31 - 1
REFERENCE_MAX_LENGTH = Paytable._meta.get_field("approval_reference").max_length or 100
REFERENCE_PATTERN = re.compile(r"(?=.*[0-9])[A-Za-z0-9][A-Za-z0-9 ./-]{2,}")


def _require_floor(actor: Any, doing: str) -> None:
    if not has_role(actor, FLOOR):
        raise NotAllowed(f"Only floor staff may {doing}.", code="permission_denied")


def _domain_error(exc: PaytableError) -> BadInput:
    """The engine's validation message (it names the line and the problem), as an API error with its field."""
    message = exc.message
    field = "lines"
    for key in ("basis", "wild_ranks", "name"):
        if message.startswith((f"paytable '{key}'", f"paytable {key}", f"'{key}'")):
            field = key
    return BadInput(message[:1].upper() + message[1:], code=exc.code, field=field)


def _validated_spec(
    *, name: str, basis: str, wild_ranks: Iterable[str], lines: Sequence[Mapping[str, Any]]
) -> PaytableSpec:
    """Validate a schedule with the engine's PaytableSpec rules (the one place they live)."""
    data: dict[str, Any] = {"name": name, "basis": basis, "lines": list(lines)}
    wild = list(wild_ranks or [])
    if wild:
        data["wild_ranks"] = wild
    try:
        spec = PaytableSpec.from_dict(data)
    except PaytableError as exc:
        raise _domain_error(exc) from exc
    for position, line in enumerate(spec.lines, start=1):
        if max(line.pays.numerator, line.pays.denominator) > PAYS_MAX:
            # The columns are 32-bit; a bigger value would fail in the database (a 500) instead of here.
            raise DomainError(
                f"Line {position} ({line.hand}): pays {str(line.pays)[:24]} is too large; the numerator and "
                f"denominator are at most {PAYS_MAX}.",
                code="pays_too_large",
                field="lines",
            )
    return spec


def _clean_name(name: str) -> str:
    cleaned = (name or "").strip()
    if not cleaned:
        raise BadInput("A paytable needs a name.", code="name_required", field="name")
    if len(cleaned) > NAME_MAX_LENGTH:
        raise BadInput(
            f"A paytable name has at most {NAME_MAX_LENGTH} characters.", code="name_too_long", field="name"
        )
    return cleaned


def _rank_codes(ranks: Iterable[Rank]) -> list[str]:
    return [rank.code for rank in sorted(ranks, reverse=True)]


def _wild_codes(spec: PaytableSpec) -> list[str]:
    return [rank.code for rank in sorted(spec.wild_ranks)]


def _write_schedule(paytable: Paytable, spec: PaytableSpec) -> None:
    """Replace a draft's lines with the spec's, in order (position 1 is the best hand)."""
    PaytableLine.objects.filter(paytable=paytable).delete()
    PaytableLine.objects.bulk_create(
        PaytableLine(
            paytable=paytable,
            position=index,
            hand=line.hand,
            min_rank=line.min_rank.code if line.min_rank is not None else "",
            ranks=_rank_codes(line.ranks),
            pays_numerator=line.pays.numerator,
            pays_denominator=line.pays.denominator,
        )
        for index, line in enumerate(spec.lines, start=1)
    )


def _snapshot(paytable: Paytable) -> dict[str, Any]:
    """What an audit event records of a paytable: its identity, status and whole schedule."""
    return {
        "id": paytable.pk,
        "version": paytable.version,
        "status": paytable.status,
        "approval_reference": paytable.approval_reference,
        **paytable_as_dict(paytable),
    }


def _locked(paytable: Paytable) -> Paytable:
    return Paytable.objects.select_for_update().get(pk=paytable.pk)


def _require_draft(paytable: Paytable) -> None:
    if paytable.status != PaytableStatus.DRAFT:
        raise WrongPhase(
            f"{paytable} is {paytable.get_status_display().lower()}: an approved version never changes; "
            "clone it to make a new draft version.",
            code="paytable_not_draft",
        )


def _refuse_self_approval(paytable: Paytable, actor: Any) -> None:
    """Two people per approval: neither the drafter nor the last editor of the schedule may approve it."""
    actor_id = getattr(actor, "pk", None)
    if actor_id is not None and actor_id in (paytable.created_by_id, paytable.last_edited_by_id):
        raise NotAllowed(
            f"You drafted or last edited {paytable}: another floor supervisor must approve it.",
            code="self_approval",
        )


@transaction.atomic
def paytable_create_draft(
    *,
    name: str,
    basis: str,
    lines: Sequence[Mapping[str, Any]],
    wild_ranks: Iterable[str] = (),
    actor: Any,
) -> Paytable:
    """A new paytable (version 1, draft) with a complete, valid schedule; its analysis is queued."""
    _require_floor(actor, "create paytables")
    name = _clean_name(name)
    spec = _validated_spec(name=name, basis=basis, wild_ranks=wild_ranks, lines=lines)
    if Paytable.objects.filter(name=name).exists():
        raise BadInput(
            f"A paytable named {name!r} already exists: clone its latest version to make a new one.",
            code="name_taken",
            field="name",
        )
    try:
        with transaction.atomic():
            paytable = Paytable.objects.create(
                name=name,
                version=1,
                basis=spec.basis,
                wild_ranks=_wild_codes(spec),
                status=PaytableStatus.DRAFT,
                created_by=actor,
                last_edited_by=actor,
            )
    except IntegrityError as exc:
        raise ConcurrentChange(f"A paytable named {name!r} was created meanwhile.", field="name") from exc
    _write_schedule(paytable, spec)
    audit_record(action=actions.PAYTABLE_CREATE_DRAFT, obj=paytable, after=_snapshot(paytable), actor=actor)
    paytable_analysis_queue(paytable=paytable, actor=actor)
    return paytable


@transaction.atomic
def paytable_line_set(
    *,
    paytable: Paytable,
    lines: Sequence[Mapping[str, Any]],
    actor: Any,
    basis: str | None = None,
    wild_ranks: Iterable[str] | None = None,
) -> Paytable:
    """Replace a draft's whole schedule (and optionally its basis and wild ranks); approved versions refuse."""
    _require_floor(actor, "edit paytables")
    paytable = _locked(paytable)
    _require_draft(paytable)
    before = _snapshot(paytable)
    spec = _validated_spec(
        name=paytable.name,
        basis=paytable.basis if basis is None else basis,
        wild_ranks=paytable.wild_ranks if wild_ranks is None else wild_ranks,
        lines=lines,
    )
    paytable.basis = spec.basis
    paytable.wild_ranks = _wild_codes(spec)
    paytable.save(update_fields=["basis", "wild_ranks"])
    _write_schedule(paytable, spec)
    after = _snapshot(paytable)
    if after != before:
        # Whoever changes the schedule may no longer approve it, like its drafter.
        paytable.last_edited_by = actor
        paytable.save(update_fields=["last_edited_by"])
        audit_record(action=actions.PAYTABLE_LINE_SET, obj=paytable, before=before, after=after, actor=actor)
        paytable_analysis_queue(paytable=paytable, actor=actor)
    return paytable


def _clean_reference(approval_reference: str) -> str:
    """The regulator's reference, given and not too long (its form is checked once the request may go ahead)."""
    reference = (approval_reference or "").strip()
    if not reference:
        raise BadInput(
            "Approving a paytable needs the regulator's approval reference.",
            code="approval_reference_required",
            field="approval_reference",
        )
    if len(reference) > REFERENCE_MAX_LENGTH:
        raise BadInput(
            f"An approval reference has at most {REFERENCE_MAX_LENGTH} characters.",
            code="approval_reference_too_long",
            field="approval_reference",
        )
    return reference


def _check_reference_form(reference: str) -> None:
    """A code as written on the approval letter, with at least one digit ("GC-2026-0042"); "x" or "ok" is not one."""
    if not REFERENCE_PATTERN.fullmatch(reference):
        raise BadInput(
            f"{reference[:30]!r} is not a regulator's reference: give the code on the approval letter "
            "(letters, digits and - / . only, with at least one digit, e.g. GC-2026-0042).",
            code="approval_reference_invalid",
            field="approval_reference",
        )


def return_outside_band(return_ratio: float | None) -> str:
    """Why a theoretical return needs an override to be approved ("" when it is within the band, or not known)."""
    if return_ratio is None:
        return ""
    floor = float(settings.PAYTABLE_RETURN_FLOOR)
    if return_ratio > 1:
        return f"the return is {return_ratio * 100:.4f} %, above 100 %: players win back more than they stake"
    if return_ratio < floor:
        return f"the return is {return_ratio * 100:.4f} %, below the floor of {floor * 100:.2f} %"
    return ""


@transaction.atomic
def paytable_approve(
    *, paytable: Paytable, approval_reference: str, actor: Any, override_reason: str = ""
) -> Paytable:
    """Approve a draft under the regulator's reference; from now on its schedule never changes.

    A draft whose analysed return is above 100 % or below the configured floor (PAYTABLE_RETURN_FLOOR) needs an
    explicit override reason, recorded with the approval.
    """
    _require_floor(actor, "approve paytables")
    reference = _clean_reference(approval_reference)
    override = (override_reason or "").strip()
    paytable = _locked(paytable)
    _require_draft(paytable)
    _refuse_self_approval(paytable, actor)
    _check_reference_form(reference)
    try:
        paytable_spec(paytable)  # the schedule must still satisfy the engine's rules
    except PaytableError as exc:
        raise _domain_error(exc) from exc
    analysis = PaytableAnalysis.objects.filter(paytable=paytable, status=AnalysisStatus.DONE).first()
    return_ratio = analysis.return_ratio if analysis is not None else None
    outside = return_outside_band(return_ratio)
    if outside and not override:
        raise BadInput(
            f"{outside[:1].upper()}{outside[1:]}. Approving it needs an override reason.",
            code="return_out_of_band",
            field="override_reason",
        )
    before = _snapshot(paytable)
    paytable.status = PaytableStatus.APPROVED
    paytable.approval_reference = reference
    paytable.approved_by = actor
    paytable.approved_at = timezone.now()
    paytable.save(update_fields=["status", "approval_reference", "approved_by", "approved_at"])
    after = {**_snapshot(paytable), "return": return_ratio}
    audit_record(
        action=actions.PAYTABLE_APPROVE,
        obj=paytable,
        before=before,
        after=after,
        reason=override if outside else "",
        approver=actor,
        actor=actor,
    )
    if outside:
        audit_record(
            action=actions.PAYTABLE_RETURN_OVERRIDE,
            obj=paytable,
            after={"return": return_ratio, "floor": float(settings.PAYTABLE_RETURN_FLOOR), "why": outside},
            reason=override,
            approver=actor,
            actor=actor,
        )
    paytable_analysis_queue(paytable=paytable, actor=actor)
    return paytable


@transaction.atomic
def paytable_retire(*, paytable: Paytable, actor: Any, reason: str = "") -> Paytable:
    """Withdraw an approved version from use; a version still active on a table must be replaced there first."""
    _require_floor(actor, "retire paytables")
    paytable = _locked(paytable)
    if paytable.status == PaytableStatus.ACTIVE:
        raise WrongPhase(
            f"{paytable} is active on a table: give the table another paytable before retiring this one.",
            code="paytable_active",
        )
    if paytable.status != PaytableStatus.APPROVED:
        raise WrongPhase(
            f"{paytable} is {paytable.get_status_display().lower()}: only an approved version can be retired.",
            code="paytable_not_approved",
        )
    before = {"status": paytable.status}
    paytable.status = PaytableStatus.RETIRED
    paytable.retired_at = timezone.now()
    paytable.save(update_fields=["status", "retired_at"])
    audit_record(
        action=actions.PAYTABLE_RETIRE,
        obj=paytable,
        before=before,
        after={"status": paytable.status},
        reason=reason.strip(),
        actor=actor,
    )
    return paytable


@transaction.atomic
def paytable_clone(*, paytable: Paytable, actor: Any, name: str | None = None) -> Paytable:
    """A new draft with the same schedule: the next version of the same name, or version 1 of a new name."""
    _require_floor(actor, "clone paytables")
    source = Paytable.objects.get(pk=paytable.pk)
    new_name = source.name if name is None or not name.strip() else _clean_name(name)
    # Clones of one name queue on its first version's row lock; the version count below is read after the lock
    # is granted, so it sees every clone committed meanwhile (READ COMMITTED takes a new snapshot per statement).
    anchor = Paytable.objects.select_for_update().filter(name=new_name).order_by("version").first()
    if new_name != source.name and anchor is not None:
        raise BadInput(
            f"A paytable named {new_name!r} already exists: clone its latest version instead.",
            code="name_taken",
            field="name",
        )
    version = (Paytable.objects.filter(name=new_name).aggregate(latest=Max("version"))["latest"] or 0) + 1
    spec = paytable_spec(source)
    try:
        with transaction.atomic():
            clone = Paytable.objects.create(
                name=new_name,
                version=version,
                basis=source.basis,
                wild_ranks=list(source.wild_ranks),
                status=PaytableStatus.DRAFT,
                created_by=actor,
                last_edited_by=actor,
                cloned_from=source,
            )
    except IntegrityError as exc:
        raise ConcurrentChange(f"Version {version} of {new_name!r} was created meanwhile; try again.") from exc
    _write_schedule(clone, spec)
    audit_record(
        action=actions.PAYTABLE_CLONE,
        obj=clone,
        before={"cloned_from": source.pk, "cloned_from_repr": str(source)},
        after=_snapshot(clone),
        actor=actor,
    )
    paytable_analysis_queue(paytable=clone, actor=actor)
    return clone


# Whether some table uses a version: (the status it must have, the status it gets).
_USE_CHANGES = {
    True: (PaytableStatus.APPROVED, PaytableStatus.ACTIVE),
    False: (PaytableStatus.ACTIVE, PaytableStatus.APPROVED),
}


@transaction.atomic
def paytable_mark_in_use(paytable: Paytable, *, in_use: bool, table: Any, actor: Any = None) -> Paytable:
    """`table` starts using this version (approved becomes active) or was the last one using it (active goes back
    to approved, so it can be retired). Already in that state changes nothing; only an approved version can be put
    on a table. The event names the table, so compliance sees which table a version went onto.
    """
    paytable = _locked(paytable)
    source, target = _USE_CHANGES[in_use]
    if paytable.status == target:
        return paytable
    if paytable.status != source:
        if not in_use:
            return paytable  # a version that is not active is on no table: nothing to take off
        raise WrongPhase(
            f"{paytable} is {paytable.get_status_display().lower()}: only an approved paytable can be put on a table.",
            code="paytable_not_approved",
            field="paytable",
        )
    paytable.status = target
    paytable.save(update_fields=["status"])
    audit_record(
        action=actions.PAYTABLE_MARK_ACTIVE if in_use else actions.PAYTABLE_MARK_INACTIVE,
        obj=paytable,
        table=table,
        before={"status": source.value},
        after={"status": target.value, "table": str(table)},
        actor=actor,
    )
    return paytable


@transaction.atomic
def paytable_analysis_queue(*, paytable: Paytable, actor: Any = None, force: bool = False) -> PaytableAnalysis:
    """Queue the analysis job for the paytable's current schedule, unless it is already done or under way.

    A schedule already analysed for another paytable (a clone, say) is copied instead of recomputed.
    """
    if force:
        _require_floor(actor, "run paytable analyses")
    fingerprint = spec_fingerprint(paytable_spec(paytable))
    analysis = PaytableAnalysis.objects.select_for_update().filter(paytable=paytable).first()
    under_way = (AnalysisStatus.DONE, AnalysisStatus.QUEUED, AnalysisStatus.RUNNING)
    if analysis is not None and analysis.spec_hash == fingerprint and analysis.status in under_way and not force:
        return analysis
    now = timezone.now()
    if analysis is None:
        analysis = PaytableAnalysis(paytable=paytable)
    analysis.spec_hash = fingerprint
    analysis.queued_at = now
    analysis.started_at = None
    analysis.error = ""
    known = (
        PaytableAnalysis.objects.filter(spec_hash=fingerprint, status=AnalysisStatus.DONE)
        .exclude(pk=analysis.pk)
        .first()
    )
    if known is not None and not force:
        for field in ("return_exact", "return_ratio", "house_edge", "hit_frequency", "variance", "std_dev"):
            setattr(analysis, field, getattr(known, field))
        analysis.results = {**(known.results or {}), "name": paytable.name}
        analysis.status = AnalysisStatus.DONE
        analysis.progress = 100
        analysis.finished_at = now
        analysis.save()
        audit_record(
            action=actions.PAYTABLE_ANALYSIS_COPIED,
            obj=paytable,
            after={"from_paytable": known.paytable_id, "return": analysis.return_exact},
            actor=actor,
        )
        return analysis
    analysis.status = AnalysisStatus.QUEUED
    analysis.progress = 0
    analysis.finished_at = None
    for field in ("return_ratio", "house_edge", "hit_frequency", "variance", "std_dev", "results"):
        setattr(analysis, field, None)
    analysis.return_exact = ""
    analysis.save()
    audit_record(action=actions.PAYTABLE_ANALYSIS_QUEUE, obj=paytable, after={"spec_hash": fingerprint}, actor=actor)
    # The job commits with this row (the outbox) and is sent again until it has run. robust: eagerly, a failed
    # analysis (which the job records on the row) is logged rather than turned into an error for the floor.
    outbox_add("paytables.analyze_paytable", [paytable.pk], robust=True)
    return analysis
