"""Every Celery task is declared on the project's app (casino.celery.app), never with shared_task: in a web
process that has not loaded casino.celery, a shared task queues to an unconfigured default app and is lost."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

from celery.app.task import Task
from celery.local import PromiseProxy, Proxy
from django.apps import apps
from django.conf import settings

from casino.celery import app

ROOT = Path(settings.BASE_DIR)


def _project_sources() -> list[Path]:
    folders = [Path(cfg.path) for cfg in apps.get_app_configs() if Path(cfg.path).is_relative_to(ROOT)]
    folders.append(ROOT / "casino")
    return sorted(path for folder in folders for path in folder.rglob("*.py") if "migrations" not in path.parts)


def misdeclared_tasks(source: str, *, defines_app: bool = False) -> list[str]:
    """Task decorators other than `app.task` with `app` imported from casino.celery (or defined right there)."""
    tree = ast.parse(source)
    imports_app = defines_app or any(
        isinstance(node, ast.ImportFrom) and node.module == "casino.celery" and any(a.name == "app" for a in node.names)
        for node in ast.walk(tree)
    )
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for decorator in node.decorator_list:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            text = ast.unparse(target)
            if not (text == "task" or text.endswith(("_task", ".task"))):
                continue
            if text != "app.task" or not imports_app:
                found.append(f"line {node.lineno}: {node.name} is declared with {text}")
    return found


def test_every_task_in_the_source_is_declared_on_the_project_app() -> None:
    problems = [
        f"{path.relative_to(ROOT)} {problem}"
        for path in _project_sources()
        for problem in misdeclared_tasks(path.read_text(), defines_app=path == ROOT / "casino" / "celery.py")
    ]
    assert problems == []


def test_the_check_flags_shared_task_and_another_app() -> None:
    source = (
        "from celery import Celery, shared_task\n"
        "from casino.celery import app\n"
        "other = Celery('other')\n\n"
        "@shared_task(name='a')\ndef a(): ...\n\n"
        "@other.task\ndef b(): ...\n\n"
        "@app.task(name='c')\ndef c(): ...\n"
    )
    assert misdeclared_tasks(source) == [
        "line 6: a is declared with shared_task",
        "line 9: b is declared with other.task",
    ]
    assert misdeclared_tasks("from celery import Celery\napp = Celery('x')\n@app.task\ndef d(): ...\n") == [
        "line 4: d is declared with app.task"
    ]


def test_every_task_object_of_the_project_belongs_to_the_project_app() -> None:
    found = 0
    for path in _project_sources():
        if path.name != "tasks.py" and path != ROOT / "casino" / "celery.py":
            continue
        module = importlib.import_module(".".join(path.relative_to(ROOT).with_suffix("").parts))
        for name, found_value in vars(module).items():
            value = found_value
            # shared_task leaves a plain Proxy that picks whichever app is current when called; app.task leaves a
            # PromiseProxy of its own app until that app is finalized.
            if type(value) is Proxy:
                raise AssertionError(f"{module.__name__}.{name} is a shared task, not bound to casino.celery.app")
            if type(value) is PromiseProxy:
                value = value._get_current_object()
            if isinstance(value, Task):
                found += 1
                assert value.app is app, f"{module.__name__}.{name}"
                assert app.tasks[value.name] is value
    assert found >= 5  # ping, the three audit jobs, settlement and the paytable analysis
