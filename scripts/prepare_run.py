"""make run's start-up: check settings and services, create a missing database, migrate, seed; a failure is one line.

Run from the project folder: `.venv/bin/python -m scripts.prepare_run --host http://127.0.0.1:8000`.
Exit 0 when the server can start (the demo banner is printed), 1 with one line on stderr naming what is wrong
and what to do. `--traceback` shows the full traceback of an unexpected failure instead.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any
from urllib.parse import urlsplit

import django
import redis
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections
from django.db.backends.base.base import NO_DB_ALIAS

TRACEBACK_HINT = "for the details run: .venv/bin/python -m scripts.prepare_run --traceback"


class StartupError(Exception):
    """A start-up problem with a message an operator can act on."""


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split()) or error.__class__.__name__
    return text.removeprefix("connection failed: ")


def _host_port(settings_dict: dict[str, Any]) -> tuple[str, str]:
    return str(settings_dict.get("HOST") or "localhost"), str(settings_dict.get("PORT") or "5432")


def _create_missing_database(first_error: Exception) -> None:
    """The server answers but our database is not there: create it, or say how to."""
    settings_dict = connection.settings_dict
    host, port = _host_port(settings_dict)
    name, user = settings_dict["NAME"], settings_dict.get("USER") or os.environ.get("USER", "postgres")
    # NAME None: Django connects to the server's "postgres" maintenance database instead.
    maintenance = type(connections[DEFAULT_DB_ALIAS])({**settings_dict, "NAME": None}, alias=NO_DB_ALIAS)
    try:
        with maintenance.cursor() as cursor:
            cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
            if cursor.fetchone() is not None:
                # It exists, so something else refused us (a password, a permission): say what.
                raise StartupError(f"DATABASE_URL: cannot use database {name!r}: {_one_line(first_error)}")
            try:
                cursor.execute(f"CREATE DATABASE {maintenance.ops.quote_name(name)}")
            except DatabaseError as exc:
                raise StartupError(
                    f"DATABASE_URL: database {name!r} does not exist and {user!r} may not create it "
                    f"({_one_line(exc)}); create it with: createdb -h {host} -p {port} -U {user} {name}"
                ) from exc
    except DatabaseError as exc:
        raise StartupError(
            f"DATABASE_URL: cannot connect to PostgreSQL at {host}:{port}: {_one_line(first_error)}"
        ) from exc
    finally:
        maintenance.close()
    print(f"Created the PostgreSQL database {name!r} on {host}:{port}.")


def check_database() -> None:
    try:
        connection.ensure_connection()
    except DatabaseError as exc:
        if connection.vendor != "postgresql":
            raise StartupError(f"database {connection.settings_dict['NAME']}: {_one_line(exc)}") from exc
        _create_missing_database(exc)
        connection.ensure_connection()


def check_redis() -> None:
    if not settings.REDIS_URL:
        return  # embedded mode: Celery runs jobs in-process, no broker to reach
    try:
        redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=2).ping()
    except redis.RedisError as exc:
        parts = urlsplit(settings.REDIS_URL)  # never print the URL itself: it may carry a password
        where = f"{parts.hostname}:{parts.port or 6379}{parts.path or '/0'}"
        raise StartupError(f"REDIS_URL: cannot use Redis at {where}: {_one_line(exc)}") from exc


def prepare(host: str | None) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    django.setup()  # a bad setting exits here with one line of its own (casino/settings.py)
    check_redis()  # first: it changes nothing, while the database check may create the database
    check_database()
    call_command("migrate", interactive=False, verbosity=0)
    call_command("seed_demo", host=host)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", help="base URL the banner prints (default: seed_demo's, on $PORT or 8000)")
    parser.add_argument("--traceback", action="store_true", help="show the traceback of an unexpected failure")
    args = parser.parse_args(argv)
    try:
        prepare(args.host)
    except StartupError as exc:
        print(exc, file=sys.stderr)
        return 1
    except Exception as exc:
        if args.traceback:
            raise
        if isinstance(exc, CommandError):  # a command's own refusal already says what to do
            print(f"start-up failed: {_one_line(exc)}", file=sys.stderr)
        else:
            print(f"start-up failed: {exc.__class__.__name__}: {_one_line(exc)} ({TRACEBACK_HINT})", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
