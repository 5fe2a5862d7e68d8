"""Layering: imports point only downward (floor → tables → paytables → audit → casino.engine → stdlib)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Each layer and the project packages it must never import.
FORBIDDEN = {
    "casino/engine": {
        "django",
        "celery",
        "rest_framework",
        "redis",
        "psycopg",
        "audit",
        "paytables",
        "tables",
        "floor",
    },
    "audit": {"paytables", "tables", "floor"},
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


def test_importing_the_engine_loads_no_framework_or_driver() -> None:
    engine_modules = sorted(
        "casino.engine"
        + (
            "." + ".".join(p.with_suffix("").relative_to(ROOT / "casino/engine").parts)
            if p.name != "__init__.py" or p.parent != ROOT / "casino/engine"
            else ""
        )
        for p in (ROOT / "casino/engine").rglob("*.py")
        if p.name != "__init__.py" or p.parent == ROOT / "casino/engine"
    )
    code = (
        "import importlib, json, sys\n"
        f"for name in {engine_modules!r}: importlib.import_module(name)\n"
        f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {list(HEAVY_MODULES)!r})))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == []


def test_the_casino_package_init_stays_empty_so_the_engine_imports_alone() -> None:
    assert (ROOT / "casino" / "__init__.py").read_text().strip() == ""
