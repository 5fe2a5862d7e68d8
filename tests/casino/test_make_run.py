"""`make run` as a new user runs it: a missing database is created, a start-up failure is one line, logs are quiet.

These run the real command in a subprocess (make, prepare_run, runserver) against PostgreSQL with a database
name of their own, and against ports where nothing listens.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.conf import settings

from tests.conftest import _missing

pytestmark = [pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
# The test run's own configuration must not leak into the product the test starts.
NOT_INHERITED = {
    "DATABASE_URL", "REDIS_URL", "CELERY_KEY_PREFIX", "DJANGO_SETTINGS_MODULE", "TESTING", "DEBUG", "SECRET_KEY",
    "TIME_ZONE", "LOG_LEVEL", "DJANGO_ALLOW_ASYNC_UNSAFE", "MAKEFLAGS", "MFLAGS", "MAKELEVEL",
}  # fmt: skip
# Our log format: ISO time with its offset, level, logger, message.
LOG_LINE = re.compile(r"^(\S+T\S+[+-]\d\d:\d\d) (DEBUG|INFO|WARNING|ERROR|CRITICAL) (\S+) ")


def free_port() -> int:
    """A port nothing listens on (the kernel's choice, released at once)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def product_env(**env: str) -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in NOT_INHERITED} | env


def make_run(port: int, **env: str) -> subprocess.CompletedProcess[str]:
    """`make run` to the end: for start-ups that must fail before the server starts."""
    return subprocess.run(
        ["make", "run", f"PORT={port}"],
        cwd=ROOT,
        env=product_env(**env),
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


def own_lines(output: str) -> list[str]:
    """What the product printed: everything but make's own `make: *** [...] Error 1` trailer."""
    return [line for line in output.splitlines() if line.strip() and not line.startswith("make")]


def assert_one_line_failure(result: subprocess.CompletedProcess[str], starts: str) -> None:
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert "Traceback" not in output
    lines = own_lines(output)
    assert len(lines) == 1, output
    assert lines[0].startswith(starts), output


def postgres_server() -> dict[str, Any]:
    """Where the test run's PostgreSQL is (the product gets a database of its own on the same server)."""
    db = settings.DATABASES["default"]
    if "postgresql" not in db["ENGINE"]:
        _missing("PostgreSQL", "DATABASE_URL does not point at PostgreSQL")
    return {"host": db["HOST"] or "127.0.0.1", "port": int(db["PORT"] or 5432), "user": db["USER"] or "postgres"}


def admin_sql(server: dict[str, Any], sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    with psycopg.connect(dbname="postgres", autocommit=True, **server) as conn:
        cursor = conn.execute(sql, params)  # type: ignore[arg-type]
        return cursor.fetchall() if cursor.description else []


def database_exists(server: dict[str, Any], name: str) -> bool:
    return bool(admin_sql(server, "SELECT 1 FROM pg_database WHERE datname = %s", (name,)))


# --- start-up failures: one line each ------------------------------------------------------------------------


def test_an_unreachable_database_is_one_line_naming_it() -> None:
    port = free_port()
    result = make_run(free_port(), DATABASE_URL=f"postgres://postgres@127.0.0.1:{port}/casino")
    assert_one_line_failure(result, f"DATABASE_URL: cannot connect to PostgreSQL at 127.0.0.1:{port}")


def test_an_unreachable_redis_is_one_line_naming_it_without_its_password() -> None:
    port = free_port()
    result = make_run(free_port(), REDIS_URL=f"redis://:s3cret@127.0.0.1:{port}/3")
    assert_one_line_failure(result, f"REDIS_URL: cannot use Redis at 127.0.0.1:{port}/3")
    assert "s3cret" not in result.stdout + result.stderr


@pytest.mark.parametrize(
    ("name", "value"),
    [("TIME_ZONE", "Mars/Olympus"), ("LOG_LEVEL", "LOUD"), ("DEBUG", "perhaps"), ("DATABASE_URL", "not a url")],
)
def test_a_bad_setting_is_one_line_naming_the_variable(name: str, value: str) -> None:
    assert_one_line_failure(make_run(free_port(), **{name: value}), f"{name}:")


def test_a_database_the_user_may_not_create_is_one_line_saying_how() -> None:
    server = postgres_server()
    role, name = f"casino_nocreate_{uuid.uuid4().hex[:8]}", f"casino_run_{uuid.uuid4().hex[:8]}"
    admin_sql(server, f'CREATE ROLE "{role}" LOGIN NOCREATEDB')
    try:
        url = f"postgres://{role}@{server['host']}:{server['port']}/{name}"
        result = make_run(free_port(), DATABASE_URL=url)
        assert_one_line_failure(result, f"DATABASE_URL: database '{name}' does not exist and '{role}' may not create")
        assert f"createdb -h {server['host']} -p {server['port']} -U {role} {name}" in result.stderr
        assert not database_exists(server, name)
    finally:
        admin_sql(server, f'DROP ROLE IF EXISTS "{role}"')


# --- a fresh database: created, migrated, seeded, served -----------------------------------------------------


class Served:
    """A `make run` in progress: its base URL, its database and everything it has printed so far."""

    def __init__(self, url: str, database: str, log: Path, server: dict[str, Any]) -> None:
        self.url, self.database, self.log, self.server = url, database, log, server

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def get(self, path: str, opener: Any = None) -> tuple[int, str]:
        try:
            with (opener or urllib.request.build_opener()).open(self.url + path, timeout=30) as response:
                return int(response.status), response.read().decode()
        except urllib.error.HTTPError as error:
            return int(error.code), error.read().decode()

    def signed_in(self, username: str, password: str) -> Any:
        """An opener with the session of `username`, signed in through the sign-in form as a browser would."""
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        self.get("/accounts/login/", opener)
        token = next(cookie.value for cookie in jar if cookie.name == "csrftoken")
        form = urllib.parse.urlencode({"username": username, "password": password, "csrfmiddlewaretoken": token})
        request = urllib.request.Request(  # noqa: S310 (our own http:// server)
            self.url + "/accounts/login/", data=form.encode(), headers={"Referer": self.url + "/accounts/login/"}
        )
        with opener.open(request, timeout=30) as response:
            assert "/accounts/login/" not in response.url, f"{username} could not sign in"
        return opener

    def log_lines_after(self, mark: int) -> list[str]:
        return self.output()[mark:].splitlines()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    server = postgres_server()
    name = f"casino_run_{uuid.uuid4().hex[:12]}"
    assert not database_exists(server, name)
    port = free_port()
    log = tmp_path_factory.mktemp("make_run") / "output.log"
    url = f"postgres://{server['user']}@{server['host']}:{server['port']}/{name}"
    with log.open("w") as sink:
        process = subprocess.Popen(
            ["make", "run", f"PORT={port}"],
            cwd=ROOT,
            env=product_env(DATABASE_URL=url),
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # make, runserver and its reloader child stop together
        )
    running = Served(f"http://127.0.0.1:{port}", name, log, server)
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            assert process.poll() is None, f"make run stopped:\n{running.output()}"
            try:
                if running.get("/healthz/")[0] == 200:
                    break
            except OSError:
                pass  # not listening yet
            time.sleep(0.5)
        else:
            raise AssertionError(f"make run did not serve within 300 s:\n{running.output()}")
        yield running
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=20)
        admin_sql(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_it_creates_the_missing_database_and_serves(served: Served) -> None:
    assert f"Created the PostgreSQL database '{served.database}'" in served.output()
    assert database_exists(served.server, served.database)
    status, body = served.get("/healthz/")
    health = json.loads(body)
    assert (status, health["status"], health["database"], health["broker"]) == (200, "ok", "ok", "eager")
    assert health["waiting"]["rounds_settling"] == 0
    assert "Traceback" not in served.output()


def test_the_banner_prints_every_screen_and_the_demo_logins_and_each_screen_answers(served: Served) -> None:
    output = served.output()
    for path in ("/tablet/", "/admin/", "/compliance/", "/api/docs/", "/api/redoc/", "/healthz"):
        assert f"{served.url}{path}" in output.split("Serving on")[0], path
        assert served.get(path)[0] == 200, path  # screens that need a sign-in redirect to their sign-in page
    for login in ("admin-demo-pw", "floor-demo-pw", "dealer-demo-pw", "compliance-demo-pw"):
        assert login in output


def test_an_expected_403_is_one_log_line_without_a_traceback(served: Served) -> None:
    dealer = served.signed_in("dealer", "dealer-demo-pw")
    mark = len(served.output())
    assert served.get("/compliance/", dealer)[0] == 403
    assert served.get("/api/v1/tables/")[0] == 401
    assert served.get("/no-such-page/")[0] == 404
    time.sleep(0.5)  # the server writes its log line after the answer
    lines = served.log_lines_after(mark)
    for status, path in (("403", "/compliance/"), ("401", "/api/v1/tables/"), ("404", "/no-such-page/")):
        about = [line for line in lines if path in line]
        assert len(about) == 1, "\n".join(lines)
        assert f"WARNING django.request {status} GET {path}" in about[0]
    assert "The compliance screens need the compliance role. user=dealer" in "\n".join(lines)
    assert "Traceback" not in served.output()


def test_logs_carry_no_spurious_warning_and_their_times_are_utc(served: Served) -> None:
    served.signed_in("floor", "floor-demo-pw")  # a write: its audit seal job runs in-process (eager Celery)
    time.sleep(0.5)
    log_lines = [LOG_LINE.match(line) for line in served.output().splitlines()]
    matched = [m for m in log_lines if m]
    assert matched, served.output()
    assert all(m.group(1).endswith("+00:00") for m in matched)
    warnings = [m.string for m in matched if m.group(2) != "INFO" and m.group(3) != "django.request"]
    assert warnings == []
    assert "No hostname was supplied" not in served.output()
