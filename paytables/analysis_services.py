"""paytable_analysis_run: the analysis job's service — run the engine's exact analyzer and store its figures."""

from __future__ import annotations

import logging
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.module_loading import import_string

from audit.services import audit_record
from paytables import actions
from paytables.models import AnalysisStatus, Paytable, PaytableAnalysis
from paytables.selectors import paytable_spec, spec_fingerprint

logger = logging.getLogger(__name__)


def _analyzer() -> Callable[..., Any]:
    """The engine's analyze(spec, progress=...) (a setting, so tests and deployments can point elsewhere)."""
    return import_string(getattr(settings, "PAYTABLE_ANALYZER", "casino.engine.analysis.analyze"))  # type: ignore[no-any-return]


def _progress_writer(analysis_id: int, fingerprint: str) -> Callable[[float], None]:
    """A callback storing whole percents as the analyzer advances; each write commits at once so readers see it."""
    last = [0]

    def report(fraction: float) -> None:
        percent = max(0, min(99, int(fraction * 100)))  # 100 only once the results are stored
        if percent <= last[0]:
            return
        last[0] = percent
        PaytableAnalysis.objects.filter(pk=analysis_id, spec_hash=fingerprint, status=AnalysisStatus.RUNNING).update(
            progress=percent
        )

    return report


def _figures(result: Any) -> dict[str, Any]:
    """Key figures of an engine PaytableAnalysis, per unit staked (stake included in the return)."""
    exact: Fraction = result.return_exact
    return {
        "return_exact": f"{exact.numerator}/{exact.denominator}",
        "return_ratio": float(exact),
        "house_edge": float(result.house_edge),
        "hit_frequency": float(result.hit_frequency),
        "variance": float(result.variance),
        "std_dev": float(result.std_dev),
        "results": result.to_dict(),
    }


def _claim(paytable_id: int) -> tuple[PaytableAnalysis, Any, str] | None:
    """Mark the analysis running for the current schedule; None when there is nothing to do."""
    with transaction.atomic():
        paytable = Paytable.objects.select_for_update().filter(pk=paytable_id).first()
        if paytable is None:
            logger.info("paytable %s no longer exists; nothing to analyse", paytable_id)
            return None
        spec = paytable_spec(paytable)
        fingerprint = spec_fingerprint(spec)
        analysis = PaytableAnalysis.objects.select_for_update().filter(paytable=paytable).first()
        if analysis is None:
            analysis = PaytableAnalysis(paytable=paytable, queued_at=timezone.now())
        elif analysis.status == AnalysisStatus.DONE and analysis.spec_hash == fingerprint:
            return None  # a repeated or redelivered job: the results are already stored
        analysis.spec_hash = fingerprint
        analysis.status = AnalysisStatus.RUNNING
        analysis.progress = 0
        analysis.attempts += 1
        analysis.started_at = timezone.now()
        analysis.finished_at = None
        analysis.error = ""
        analysis.save()
        return analysis, spec, fingerprint


def _record_failure(analysis_id: int, fingerprint: str, exc: BaseException) -> None:
    with transaction.atomic():
        analysis = PaytableAnalysis.objects.select_for_update().select_related("paytable").get(pk=analysis_id)
        if analysis.spec_hash != fingerprint:
            return  # the schedule changed meanwhile; the newer job owns the row
        analysis.status = AnalysisStatus.FAILED
        analysis.finished_at = timezone.now()
        analysis.error = f"{type(exc).__name__}: {exc}"[:2000]
        analysis.save(update_fields=["status", "finished_at", "error"])
        audit_record(
            action=actions.PAYTABLE_ANALYSIS_FAILED,
            obj=analysis.paytable,
            after={"spec_hash": fingerprint, "error": analysis.error},
        )


def paytable_analysis_run(*, paytable_id: int) -> PaytableAnalysis | None:
    """Run the exact analysis of a paytable's current schedule and store it (idempotent).

    A second run for an unchanged schedule changes nothing. A failure is recorded on the row and re-raised,
    so the job is marked failed too. Results of a schedule edited while the job ran are discarded.
    """
    claimed = _claim(paytable_id)
    if claimed is None:
        return PaytableAnalysis.objects.filter(paytable_id=paytable_id).first()
    analysis, spec, fingerprint = claimed
    try:
        analyze = _analyzer()
        # The engine keeps its paytable-independent tables in its own cache ($CASINO_CACHE_DIR).
        figures = _figures(analyze(spec, progress=_progress_writer(analysis.pk, fingerprint)))
    except Exception as exc:
        _record_failure(analysis.pk, fingerprint, exc)
        raise
    with transaction.atomic():
        analysis = PaytableAnalysis.objects.select_for_update().select_related("paytable").get(pk=analysis.pk)
        if analysis.spec_hash != fingerprint:
            logger.info("schedule of paytable %s changed during its analysis; results discarded", paytable_id)
            return analysis
        for field, value in figures.items():
            setattr(analysis, field, value)
        analysis.status = AnalysisStatus.DONE
        analysis.progress = 100
        analysis.finished_at = timezone.now()
        analysis.save()
        audit_record(
            action=actions.PAYTABLE_ANALYSIS_DONE,
            obj=analysis.paytable,
            after={
                "spec_hash": fingerprint,
                "return": analysis.return_exact or analysis.return_ratio,
                "hit_frequency": analysis.hit_frequency,
                "std_dev": analysis.std_dev,
            },
        )
    return analysis
