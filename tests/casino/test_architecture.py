"""Layering: imports point only downward (floor → tables → paytables → audit → outbox → casino.engine → stdlib;
accounts → audit)."""

from __future__ import annotations

import ast
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import casino.engine

ROOT = Path(__file__).resolve().parents[2]
# Each layer and the project packages it must never import.
FORBIDDEN = {
    "casino/engine": {
        "django",
        "celery",
        "rest_framework",
        "redis",
        "psycopg",
        "accounts",
        "audit",
        "paytables",
        "tables",
        "floor",
    },
    "audit": {"accounts", "paytables", "tables", "floor"},
    # The outbox carries every app's jobs by name, so it knows none of them.
    "outbox": {"accounts", "audit", "paytables", "tables", "floor"},
    "accounts": {"paytables", "tables", "floor"},
    "paytables": {"tables", "floor"},
    "tables": {"floor"},
}
HEAVY_MODULES = ("django", "celery", "rest_framework", "redis", "psycopg", "kombu")


def imported_top_names(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_a_layer_imports_nothing_above_it(layer: str) -> None:
    offences = []
    for path in sorted((ROOT / layer).rglob("*.py")):
        for name in imported_top_names(path):
            top = name.split(".")[0]
            if top in FORBIDDEN[layer] or (
                layer == "casino/engine" and name.startswith("casino.") and not name.startswith("casino.engine")
            ):
                offences.append(f"{path.relative_to(ROOT)} imports {name}")
    assert offences == []


def engine_modules() -> list[str]:
    """Every module of the engine, subpackages included (found by walking the package, not by a list)."""
    found = pkgutil.walk_packages(casino.engine.__path__, prefix="casino.engine.")
    return sorted(["casino.engine", *(info.name for info in found)])


def test_importing_every_engine_module_loads_no_framework_or_driver() -> None:
    # The one engine-purity test (DESIGN 2: "never imports django/celery/apps"): a fresh interpreter imports every
    # engine module and must not have loaded any framework, broker or database driver, directly or indirectly.
    modules = engine_modules()
    assert {"casino.engine.home.hand", "casino.engine.rules.model", "casino.engine.analysis"} <= set(modules)
    code = (
        "import importlib, json, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {list(HEAVY_MODULES)!r})))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
        env={"PATH": ""},
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == []


def test_the_casino_package_init_stays_empty_so_the_engine_imports_alone() -> None:
    assert (ROOT / "casino" / "__init__.py").read_text().strip() == ""
