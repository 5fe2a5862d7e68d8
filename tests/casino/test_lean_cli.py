"""`manage.py analyze_paytable FILE` starts lean (no models, admin, DRF or Celery) and answers as the full start-up."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection

from paytables.models import Paytable, PaytableLine

ROOT = Path(__file__).resolve().parents[2]
JACKS = ROOT / "paytables" / "standard" / "jacks_or_better_9_6.json"
sys.path.insert(0, str(ROOT))
from manage import lean_settings  # noqa: E402 (manage.py is a script at the root, not a package module)

HEAVY = ("django.contrib.admin", "rest_framework", "celery", "drf_spectacular", "paytables.models", "tables")
LOADED = (
    "import json, runpy, sys\n"
    "sys.argv = ['manage.py', *sys.argv[1:]]\n"
    "try:\n"
    "    runpy.run_path('manage.py', run_name='__main__')\n"
    "finally:\n"
    f"    print(json.dumps(sorted(m for m in sys.modules if m.startswith({HEAVY!r}))))\n"
)


def manage(*args: str, cache: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", LOADED, *args, "--cache-dir", str(cache)],
        cwd=ROOT,
        env=os.environ | env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("analysis-cache")


def test_only_a_file_analysis_takes_the_lean_settings() -> None:
    assert lean_settings(["manage.py", "analyze_paytable", "table.json"]) == "casino.settings_cli"
    assert lean_settings(["manage.py", "analyze_paytable", "--paytable", "3"]) is None
    assert lean_settings(["manage.py", "analyze_paytable", "--paytable=3"]) is None
    assert lean_settings(["manage.py", "migrate"]) is None
    assert lean_settings(["manage.py"]) is None


def test_a_file_is_analysed_without_loading_models_admin_drf_or_celery(cache: Path) -> None:
    done = manage("analyze_paytable", str(JACKS), "--json", cache=cache)
    assert done.returncode == 0, done.stderr
    *output, loaded = done.stdout.strip().splitlines()
    assert json.loads(loaded) == []
    out = StringIO()
    call_command("analyze_paytable", str(JACKS), "--json", "--cache-dir", str(cache), stdout=out)
    assert json.loads("\n".join(output)) == json.loads(out.getvalue())  # same answer as the full start-up


def test_a_bad_file_is_still_one_line_and_exit_code_1(cache: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"name": "x", "basis": "for_1", "lines": [{"hand": "royal", "pays": 1}]}')
    done = manage("analyze_paytable", str(bad), cache=cache)
    assert done.returncode == 1
    assert "bad paytable" in done.stderr


@pytest.mark.django_db(transaction=True)
def test_a_stored_paytable_is_analysed_from_the_shell_with_the_full_settings(
    require_postgres: None, cache: Path
) -> None:
    document = json.loads(JACKS.read_text())
    paytable = Paytable.objects.create(name="Shell 9/6", version=1, basis=document["basis"])
    for position, line in enumerate(document["lines"], start=1):
        PaytableLine.objects.create(
            paytable=paytable,
            position=position,
            hand=line["hand"],
            min_rank=line.get("min_rank", ""),
            pays_numerator=int(line["pays"]),
        )
    settings = connection.settings_dict
    url = f"postgres://{settings['USER']}@{settings['HOST']}:{settings['PORT']}/{settings['NAME']}"
    done = manage("analyze_paytable", "--paytable", str(paytable.pk), "--json", cache=cache, DATABASE_URL=url)
    assert done.returncode == 0, done.stderr
    *output, loaded = done.stdout.strip().splitlines()
    assert json.loads("\n".join(output))["return"] == pytest.approx(0.995439, abs=1e-6)
    assert "paytables.models" in json.loads(loaded)
