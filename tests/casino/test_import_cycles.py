"""No import cycles between project modules, local imports included (a local import must not hide one), and the
audit services never import the jobs that call them."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("audit", "paytables", "tables", "casino")


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def import_graph() -> dict[str, set[str]]:
    """Each project module and the project modules it imports anywhere in its body."""
    paths = {
        _module_name(path): path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    }
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets.add(node.module)
                targets.update(f"{node.module}.{alias.name}" for alias in node.names)  # `from audit import tasks`
        graph[name] = {target for target in targets if target in paths and target != name}
    return graph


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """Groups of modules that import each other, directly or around a loop (strongly connected components)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        for other in sorted(graph.get(node, ())):
            if other not in order:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], order[other])
        if low[node] == order[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in order:
            visit(node)
    return found


def test_no_project_modules_import_each_other() -> None:
    graph = import_graph()
    assert {"audit.services", "audit.tasks", "paytables.services", "casino.errors"} <= set(graph)
    assert cycles(graph) == []


def test_the_audit_jobs_import_the_services_and_never_the_other_way_round() -> None:
    graph = import_graph()
    assert "audit.services" in graph["audit.tasks"]
    assert not {name for name in graph if name.startswith("audit.") and "audit.tasks" in graph[name]} - {
        "audit.apps"  # the wiring connects the sealing job to the services' signal
    }


def test_the_cycle_finder_sees_a_loop_through_a_local_import() -> None:
    graph = {"a.services": {"a.tasks"}, "a.tasks": {"a.chain"}, "a.chain": {"a.services"}, "a.views": {"a.tasks"}}
    assert cycles(graph) == [["a.chain", "a.services", "a.tasks"]]
    assert cycles({"a.services": set(), "a.tasks": {"a.services"}}) == []
