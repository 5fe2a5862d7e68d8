"""The audit action registry: every action the product records is declared once (code, label, exception kind);
an undeclared one fails at once, and a scan of the source finds any call site recording one."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from django.apps import apps
from django.conf import settings
from django.db import transaction

from audit.actions import ACTIONS, ActionRegistry, AuditAction, ExceptionKind, UndeclaredAction
from audit.exception_rules import classify
from audit.models import AuditEvent
from audit.services import audit_event, audit_record

ROOT = Path(settings.BASE_DIR)
RECORDERS = {"audit_record", "audit_event"}
# The recorder itself forwards its caller's keyword arguments.
FORWARDING = {ROOT / "audit" / "services.py"}


def _product_sources() -> list[Path]:
    folders = [Path(cfg.path) for cfg in apps.get_app_configs() if Path(cfg.path).is_relative_to(ROOT)]
    folders.append(ROOT / "casino")
    return sorted(
        path for folder in folders for path in folder.rglob("*.py") if "migrations" not in path.parts
    )


def _module_of(path: Path) -> ModuleType:
    return importlib.import_module(".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"))


def recorded_actions(source: str, namespace: dict[str, Any], *, forwarding: bool = False) -> list[tuple[int, Any]]:
    """(line, what the call records) for every audit_record/audit_event call: a code, a declaration, or a
    sentence saying why it cannot be checked."""
    found: list[tuple[int, Any]] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        if name not in RECORDERS:
            continue
        given = next((k.value for k in node.keywords if k.arg == "action"), None)
        if given is None:
            if not (forwarding and any(k.arg is None for k in node.keywords)):
                found.append((node.lineno, "records no action= keyword"))
            continue
        # `a if condition else b` records one of two declarations: check both.
        choices = [given.body, given.orelse] if isinstance(given, ast.IfExp) else [given]
        found += [(node.lineno, _resolved(choice, namespace)) for choice in choices]
    return found


def _resolved(given: ast.expr, namespace: dict[str, Any]) -> Any:
    if isinstance(given, ast.Constant):
        return given.value
    if not isinstance(given, ast.Name | ast.Attribute):
        return f"computes its action ({ast.unparse(given)}); record a declaration"
    try:
        return eval(ast.unparse(given), dict(namespace))  # noqa: S307 (a name or a dotted name, nothing else)
    except Exception as exc:
        return f"{ast.unparse(given)} does not resolve: {exc}"


def _undeclared(found: list[tuple[int, Any]]) -> list[str]:
    problems = []
    for line, value in found:
        if isinstance(value, AuditAction):
            if ACTIONS.get(value.code) != value:
                problems.append(f"line {line}: {value.code!r} is not the registered declaration")
        elif isinstance(value, str) and value in ACTIONS:
            continue
        else:
            problems.append(f"line {line}: {value!r} is not a declared action")
    return problems


def _every_recorded() -> dict[Path, list[tuple[int, Any]]]:
    recorded = {}
    for path in _product_sources():
        source = path.read_text()
        if not RECORDERS & set(source.replace("(", " ").split()):
            continue
        recorded[path] = recorded_actions(source, vars(_module_of(path)), forwarding=path in FORWARDING)
    return recorded


def test_every_action_the_source_records_is_declared() -> None:
    recorded = _every_recorded()
    assert len(recorded) >= 5  # the scan reaches the services of every app
    problems = [f"{path.relative_to(ROOT)} {p}" for path, found in recorded.items() for p in _undeclared(found)]
    assert problems == []


def test_the_scan_flags_an_undeclared_code_a_stale_declaration_and_a_computed_action() -> None:
    source = (
        "def service(kind):\n"
        "    audit_record(action='seat_join')\n"
        "    audit_record(action='chip_vanish')\n"
        "    audit_record(action=actions.STALE)\n"
        "    audit_record(action=actions.MISSING)\n"
        "    audit_event(action=f'round_{kind}')\n"
        "    services.audit_record(obj=None)\n"
        "    audit_record(action=actions.STALE if kind else 'seat_join')\n"
    )

    class Namespace:
        STALE = AuditAction("seat_join", "Renamed without declaring")

    problems = _undeclared(recorded_actions(source, {"actions": Namespace}))
    assert [p.split(":")[0] for p in problems] == ["line 3", "line 4", "line 5", "line 6", "line 7", "line 8"]


def test_every_declared_product_action_is_recorded_somewhere() -> None:
    recorded = {
        value.code if isinstance(value, AuditAction) else value
        for found in _every_recorded().values()
        for _, value in found
    }
    declared = {
        value.code
        for cfg in apps.get_app_configs()
        if Path(cfg.path).is_relative_to(ROOT) and (Path(cfg.path) / "actions.py").exists()
        for value in vars(importlib.import_module(f"{cfg.name}.actions")).values()
        if isinstance(value, AuditAction)
    }
    assert {"paytable_approve", "round_void", "user_login"} <= declared
    assert declared - recorded == set()


@pytest.mark.django_db
def test_recording_an_undeclared_code_fails_at_once_and_writes_nothing() -> None:
    with pytest.raises(UndeclaredAction, match="'chip_vanish' is not declared"), transaction.atomic():
        audit_record(action="chip_vanish", object_type="tables.chip")
    with pytest.raises(UndeclaredAction):
        audit_event(action=AuditAction("seat_join", "A look-alike nobody declared"))
    assert not AuditEvent.objects.exists()


@pytest.mark.django_db
def test_an_event_stores_the_declared_code_and_shows_its_label() -> None:
    from paytables import actions

    event = audit_record(action=actions.PAYTABLE_APPROVE, object_type="paytables.paytable", object_id=1)
    stored = AuditEvent.objects.get(pk=event.pk)
    assert (stored.action, stored.action_label, stored.exception_kind) == (
        "paytable_approve",
        "Paytable approved",
        "approval",
    )


def test_a_code_no_longer_declared_is_shown_as_stored() -> None:
    assert ACTIONS.label("paytable_approve") == "Paytable approved"
    assert ACTIONS.label("retired_code") == "retired_code"


def test_the_exception_kind_comes_from_the_declaration_not_from_words_in_the_code() -> None:
    plain = AuditAction("round_void_reason_note", "A note on a void's reason")
    assert classify(plain, None) == ""
    ruling = AuditAction("pot_award", "Pot awarded by ruling", exception_kind=ExceptionKind.OVERRIDE)
    assert classify(ruling, None) == "override"
    assert classify(plain, {"total_return_cents": 10_000_000}) == "large_payout"


@pytest.mark.parametrize(
    ("code", "label", "kind", "message"),
    [
        ("seat_join", "Someone sat down", "", "declared twice"),
        ("seat_sit", "player seated", "", "labelled"),
        ("Seat Join", "Sat", "", "lowercase"),
        ("seat_sit", " ", "", "needs a label"),
        ("seat_sit", "Sat", "large_payout", "cannot be declared"),
        ("seat_sit", "Sat", "scandal", "cannot be declared"),
    ],
)
def test_the_registry_refuses_an_ambiguous_or_malformed_declaration(
    code: str, label: str, kind: str, message: str
) -> None:
    registry = ActionRegistry()
    registry.declare("seat_join", "Player seated")
    with pytest.raises(ValueError, match=message):
        registry.declare(code, label, exception_kind=kind)


def test_declaring_the_same_action_again_is_harmless() -> None:
    registry = ActionRegistry()
    first = registry.declare("seat_join", "Player seated")
    assert registry.declare("seat_join", "Player seated") == first
    assert len(registry) == 1
    assert registry.choices() == [("seat_join", "Player seated")]
