"""analyze() reports its progress, stage by stage, to an optional callback (for the paytable job's progress bar)."""

from __future__ import annotations

import json
from pathlib import Path

from casino.engine.analysis import analyze
from casino.engine.paytable import PaytableSpec

STANDARD = Path(__file__).resolve().parents[2] / "paytables" / "standard"


def test_progress_rises_to_one_and_the_figures_do_not_change() -> None:
    spec = PaytableSpec.from_dict(json.loads((STANDARD / "jacks_or_better_9_6.json").read_text()))
    reported: list[float] = []
    with_progress = analyze(spec, progress=reported.append)
    assert reported == sorted(reported)
    assert 0 < reported[0] < 1
    assert reported[-1] == 1.0
    assert len(reported) >= 3
    assert with_progress == analyze(spec)
