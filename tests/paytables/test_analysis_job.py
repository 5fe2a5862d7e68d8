"""The analysis job: runs the engine's exact analyzer, stores the figures, is idempotent, records failures,
shows its status and progress, and runs end to end on a real Celery worker."""

from __future__ import annotations

import time
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import override_settings
from rest_framework.test import APIClient

from audit.models import AuditEvent
from casino.celery import app
from casino.engine.analysis import analyze
from paytables.analysis_services import paytable_analysis_run
from paytables.models import AnalysisStatus, Paytable, PaytableAnalysis
from paytables.services import paytable_clone, paytable_create_draft, paytable_line_set
from tests.paytables.conftest import JACKS_9_6, jacks

# Jacks or Better 9/6 under optimal holds: the published return is 99.5439%, standard deviation 4.42.
JACKS_9_6_RETURN = 0.995439
JACKS_9_6_STD_DEV = 4.4175

SEEN: list[tuple[str, int]] = []


def broken_analyzer(spec: Any, **kwargs: Any) -> Any:
    raise RuntimeError("analysis tables are unreadable")


def watching_analyzer(spec: Any, **kwargs: Any) -> Any:
    """The real analyzer, noting what a reader of the analysis row sees while it runs."""
    row = PaytableAnalysis.objects.get(paytable__name="Jacks or Better 9/6")
    SEEN.append((row.status, row.progress))
    return analyze(spec, **kwargs)


def reporting_analyzer(spec: Any, progress: Any = None, **kwargs: Any) -> Any:
    """An analyzer that reports its progress, noting what a reader of the row sees after each report."""
    for fraction in (0.25, 0.5, 0.5, 0.999):
        progress(fraction)
        row = PaytableAnalysis.objects.get(paytable__name="Jacks or Better 9/6")
        SEEN.append((row.status, row.progress))
    return analyze(spec, **kwargs)


def observing_analyzer(spec: Any, progress: Any, **kwargs: Any) -> Any:
    """The real analyzer, noting what a reader of the row sees each time the engine reports progress."""

    def spy(fraction: float) -> None:
        progress(fraction)
        row = PaytableAnalysis.objects.get(paytable__name="Jacks or Better 9/6")
        SEEN.append((row.status, row.progress))

    return analyze(spec, progress=spy, **kwargs)


def editing_analyzer(spec: Any, **kwargs: Any) -> Any:
    """The real analyzer, while floor staff change the draft's schedule underneath it."""
    result = analyze(spec, **kwargs)
    paytable = Paytable.objects.get(name="Jacks or Better 9/6")
    paytable_line_set(paytable=paytable, lines=jacks(full_house=8, flush=5), actor=paytable.created_by)
    return result


@pytest.fixture
def eager_celery() -> Iterator[None]:
    """Run queued jobs in-process (as the embedded product does) whatever broker the suite is configured with."""
    before = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager, app.conf.task_eager_propagates = True, True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = before


def analysis_of(paytable: Paytable) -> PaytableAnalysis:
    return PaytableAnalysis.objects.get(paytable=paytable)


def assert_jacks_9_6_figures(analysis: PaytableAnalysis) -> None:
    assert analysis.status == AnalysisStatus.DONE
    assert analysis.progress == 100
    assert analysis.return_ratio == pytest.approx(JACKS_9_6_RETURN, abs=1e-6)
    assert float(Fraction(analysis.return_exact)) == pytest.approx(analysis.return_ratio, rel=1e-12)
    assert analysis.house_edge == pytest.approx(1 - JACKS_9_6_RETURN, abs=1e-6)
    assert analysis.std_dev == pytest.approx(JACKS_9_6_STD_DEV, abs=1e-4)
    assert analysis.variance == pytest.approx(analysis.std_dev**2)
    assert 0.4 < analysis.hit_frequency < 0.5
    lines = analysis.results["lines"]
    assert [line["hand"] for line in lines] == [line["hand"] for line in JACKS_9_6]
    assert sum(line["contribution"] for line in lines) == pytest.approx(analysis.return_ratio)
    assert analysis.started_at is not None
    assert analysis.finished_at is not None


@pytest.mark.django_db
def test_saving_a_draft_queues_the_job_which_stores_the_figures(
    floor_user: User, eager_celery: None, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        paytable = paytable_create_draft(name="Jacks or Better 9/6", basis="for_1", lines=JACKS_9_6, actor=floor_user)
    assert_jacks_9_6_figures(analysis_of(paytable))
    event = AuditEvent.objects.get(action="paytable_analysis_done")
    assert event.object_id == str(paytable.pk)
    assert event.actor_kind == "worker"


@pytest.mark.django_db
def test_a_queued_job_is_visible_before_it_runs(draft: Paytable) -> None:
    analysis = analysis_of(draft)
    assert (analysis.status, analysis.progress, analysis.started_at) == ("queued", 0, None)
    assert AuditEvent.objects.filter(action="paytable_analysis_queue").count() == 1


@pytest.mark.django_db
@override_settings(PAYTABLE_ANALYZER="tests.paytables.test_analysis_job.watching_analyzer")
def test_the_row_shows_the_job_running_while_the_analyzer_works(draft: Paytable) -> None:
    SEEN.clear()
    paytable_analysis_run(paytable_id=draft.pk)
    assert SEEN == [("running", 0)]
    assert_jacks_9_6_figures(analysis_of(draft))


@pytest.mark.django_db
@override_settings(PAYTABLE_ANALYZER="tests.paytables.test_analysis_job.reporting_analyzer")
def test_an_analyzer_reporting_progress_shows_it_in_whole_percents(draft: Paytable) -> None:
    SEEN.clear()
    paytable_analysis_run(paytable_id=draft.pk)
    assert SEEN == [("running", 25), ("running", 50), ("running", 50), ("running", 99)]
    assert_jacks_9_6_figures(analysis_of(draft))


@pytest.mark.django_db
@override_settings(PAYTABLE_ANALYZER="tests.paytables.test_analysis_job.observing_analyzer")
def test_the_engines_progress_reaches_the_row_while_the_job_runs(draft: Paytable) -> None:
    SEEN.clear()
    paytable_analysis_run(paytable_id=draft.pk)
    assert {status for status, _ in SEEN} == {"running"}
    percents = [percent for _, percent in SEEN]
    assert percents == sorted(percents)
    assert 0 < percents[0] < 99
    assert percents[-1] == 99  # 100 only once the figures are stored
    assert analysis_of(draft).progress == 100


@pytest.mark.django_db
def test_running_the_job_again_changes_nothing(draft: Paytable) -> None:
    first = paytable_analysis_run(paytable_id=draft.pk)
    assert first is not None
    second = paytable_analysis_run(paytable_id=draft.pk)
    assert second is not None
    assert (second.attempts, second.finished_at, second.results) == (1, first.finished_at, first.results)
    assert AuditEvent.objects.filter(action="paytable_analysis_done").count() == 1


@pytest.mark.django_db
def test_a_failure_is_recorded_and_raised_then_a_rerun_succeeds(draft: Paytable, floor_user: User) -> None:
    broken = override_settings(PAYTABLE_ANALYZER="tests.paytables.test_analysis_job.broken_analyzer")
    with broken, pytest.raises(RuntimeError, match="unreadable"):
        paytable_analysis_run(paytable_id=draft.pk)
    failed = analysis_of(draft)
    assert failed.status == AnalysisStatus.FAILED
    assert failed.error == "RuntimeError: analysis tables are unreadable"
    assert failed.finished_at is not None
    assert AuditEvent.objects.get(action="paytable_analysis_failed").after["error"] == failed.error
    assert paytable_analysis_run(paytable_id=draft.pk) is not None
    assert_jacks_9_6_figures(analysis_of(draft))
    assert analysis_of(draft).attempts == 2


@pytest.mark.django_db
@override_settings(PAYTABLE_ANALYZER="tests.paytables.test_analysis_job.editing_analyzer")
def test_figures_for_a_schedule_edited_meanwhile_are_not_stored(draft: Paytable) -> None:
    paytable_analysis_run(paytable_id=draft.pk)
    analysis = analysis_of(draft)
    assert analysis.status == AnalysisStatus.QUEUED  # the edit queued a job for the new schedule
    assert analysis.results is None
    assert not AuditEvent.objects.filter(action="paytable_analysis_done").exists()


@pytest.mark.django_db
def test_a_clone_reuses_the_analysis_of_its_unchanged_schedule(approved: Paytable, floor_user: User) -> None:
    paytable_analysis_run(paytable_id=approved.pk)
    clone = paytable_clone(paytable=approved, actor=floor_user)
    copied = analysis_of(clone)
    assert copied.status == AnalysisStatus.DONE
    assert copied.return_exact == analysis_of(approved).return_exact
    assert AuditEvent.objects.get(action="paytable_analysis_copied").after["from_paytable"] == approved.pk
    paytable_line_set(paytable=clone, lines=jacks(full_house=8, flush=5), actor=floor_user)
    assert analysis_of(clone).status == AnalysisStatus.QUEUED


@pytest.mark.django_db
def test_floor_staff_can_run_the_analysis_again(draft: Paytable, floor_user: User) -> None:
    paytable_analysis_run(paytable_id=draft.pk)
    response = APIClient()
    response.force_authenticate(floor_user)
    queued = response.post(f"/api/v1/paytables/{draft.pk}/analysis/")
    assert queued.status_code == 202
    assert (queued.json()["status"], queued.json()["progress"]) == ("queued", 0)
    paytable_analysis_run(paytable_id=draft.pk)
    assert analysis_of(draft).attempts == 2


@pytest.mark.django_db
def test_the_api_detail_carries_the_analysis(draft: Paytable, dealer_user: User) -> None:
    paytable_analysis_run(paytable_id=draft.pk)
    client = APIClient()
    client.force_authenticate(dealer_user)
    analysis = client.get(f"/api/v1/paytables/{draft.pk}/").json()["analysis"]
    assert analysis["status"] == "done"
    assert analysis["return_ratio"] == pytest.approx(JACKS_9_6_RETURN, abs=1e-6)
    assert len(analysis["results"]["lines"]) == len(JACKS_9_6)


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_runs_the_job_end_to_end(celery_worker: Any, floor_user: User) -> None:
    paytable = paytable_create_draft(name="Jacks or Better 9/6", basis="for_1", lines=JACKS_9_6, actor=floor_user)
    deadline = time.monotonic() + 120
    seen = set()
    while time.monotonic() < deadline:
        analysis = analysis_of(paytable)
        seen.add(analysis.status)
        if analysis.status in (AnalysisStatus.DONE, AnalysisStatus.FAILED):
            break
        time.sleep(0.2)
    assert analysis.status == AnalysisStatus.DONE, analysis.error
    assert_jacks_9_6_figures(analysis)
    assert AuditEvent.objects.get(action="paytable_analysis_done").actor_kind == "worker"
