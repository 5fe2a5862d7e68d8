"""The rules engine stays pure: importing it loads no Django, Celery, DRF, Redis or psycopg (DESIGN 2)."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import casino.engine

FORBIDDEN = ("django", "celery", "rest_framework", "redis", "psycopg", "kombu")
ROOT = Path(__file__).resolve().parents[2]


def engine_modules() -> list[str]:
    found = pkgutil.walk_packages(casino.engine.__path__, prefix="casino.engine.")
    return sorted(info.name for info in found)


def test_engine_has_the_contract_modules() -> None:
    modules = engine_modules()
    for name in ("cards", "errors", "hands", "variants", "showdown", "triple_draw"):
        assert f"casino.engine.{name}" in modules


def test_importing_every_engine_module_in_a_fresh_interpreter_loads_no_framework() -> None:
    script = (
        "import importlib, sys\n"
        f"for name in ['casino.engine', *{engine_modules()!r}]:\n"
        "    importlib.import_module(name)\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r})\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True, env={"PATH": ""}
    )
    assert result.stdout.strip() == ""
