"""Every write service of every app records an audit event (DESIGN 8: "Every write ... goes through a service
that records an AuditEvent in the same transaction").

This walks the source of every app module that holds services and checks each public function that opens a
transaction reaches `audit_record` (or `audit_record_many`), directly, through a helper of its module, or through
another audited service. Each app's own tests assert the event's contents with the `assert_audited` fixture.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
PROJECT_APPS = [cfg for cfg in apps.get_app_configs() if Path(cfg.path).is_relative_to(ROOT)]


def _service_modules() -> list[Path]:
    found = []
    for cfg in PROJECT_APPS:
        for path in sorted(Path(cfg.path).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            text = path.read_text()
            in_services = "services" in (path.stem, path.parent.name) or path.stem.endswith("_services")
            if in_services or "audit_record" in text:
                found.append(path)
    return found


def _opens_transaction(func: ast.FunctionDef) -> bool:
    for deco in func.decorator_list:
        if "transaction.atomic" in ast.unparse(deco):
            return True
    return any(
        "transaction.atomic" in ast.unparse(item.context_expr)
        for node in ast.walk(func)
        if isinstance(node, ast.With)
        for item in node.items
    )


def _called_names(func: ast.FunctionDef) -> set[str]:
    names = set()
    for node in ast.walk(func):
        if isinstance(node, ast.Call):
            target = node.func
            if isinstance(target, ast.Name):
                names.add(target.id)
            elif isinstance(target, ast.Attribute):
                names.add(target.attr)
    return names


def _functions(path: Path) -> dict[str, ast.FunctionDef]:
    tree = ast.parse(path.read_text())
    return {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}


def _audited_closure() -> tuple[set[str], dict[str, tuple[Path, ast.FunctionDef]]]:
    """Names of functions that (transitively) call audit_record(_many), across every service module."""
    every: dict[str, tuple[Path, ast.FunctionDef]] = {}
    for path in _service_modules():
        for name, func in _functions(path).items():
            every[f"{path.stem}:{name}"] = (path, func)
    audited = {"audit_record", "audit_record_many"}  # one event, or several in one INSERT
    changed = True
    while changed:
        changed = False
        for key, (_, func) in every.items():
            name = key.split(":", 1)[1]
            if name not in audited and _called_names(func) & audited:
                audited.add(name)
                changed = True
    return audited, every


def _write_services() -> list[tuple[str, ast.FunctionDef]]:
    _, every = _audited_closure()
    return [
        (f"{path.relative_to(ROOT)}:{func.name}", func)
        for path, func in every.values()
        if not func.name.startswith("_") and _opens_transaction(func) and path.parent.name != "migrations"
    ]


def test_the_walk_finds_the_services_of_every_app_on_main() -> None:
    apps_with_services = {name.split("/")[0] for name, _ in _write_services()}
    assert {"tables", "paytables", "audit"} <= apps_with_services
    assert len(_write_services()) >= 1


@pytest.mark.parametrize(("name", "func"), _write_services(), ids=[n for n, _ in _write_services()])
def test_every_write_service_records_an_audit_event(name: str, func: ast.FunctionDef) -> None:
    audited, _ = _audited_closure()
    assert _called_names(func) & audited, f"{name} opens a transaction but never calls audit_record"


def test_the_walk_flags_a_write_service_that_forgets_its_event() -> None:
    source = (
        "@transaction.atomic\ndef chip_adjust(*, amount):\n    Chip.objects.update(amount=amount)\n\n"
        "def _helper():\n    audit_record(action='x')\n\n"
        "@transaction.atomic\ndef chip_reset():\n    _helper()\n"
    )
    funcs = {n.name: n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef)}
    audited = {"audit_record", "_helper"}
    assert _opens_transaction(funcs["chip_adjust"])
    assert not _called_names(funcs["chip_adjust"]) & audited
    assert _called_names(funcs["chip_reset"]) & audited
