"""The rehearsal's run: its directory, the processes it starts (as the service user), and the names it owns
(database, Redis key prefix, ports), all given back by close() whether the rehearsal passed or not."""

from __future__ import annotations

import http.client
import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from rehearsal_files import SERVER_NAME, RehearsalError

SERVER_URL = os.environ.get("REHEARSE_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("REHEARSE_REDIS_URL", "redis://127.0.0.1:6379/0")
PORTS = os.environ.get("REHEARSE_PORTS", "8400-8449")


def step(message: str) -> None:
    print(f"== {message}", flush=True)


def free_ports(count: int) -> list[int]:
    low, high = (int(part) for part in PORTS.split("-"))
    found: list[int] = []
    for port in range(low, high + 1):
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
        found.append(port)
        if len(found) == count:
            return found
    raise RehearsalError(f"fewer than {count} free ports in {PORTS}")


class Run:
    """One rehearsal: its directory, services and names, all removed by close()."""

    def __init__(self, deploy_dir: Path | None) -> None:
        self.id = f"{time.strftime('%H%M%S')}_{secrets.token_hex(3)}"
        self.dir = Path(tempfile.mkdtemp(prefix="casino-rehearse-"))
        self.dir.chmod(0o755)  # the service user and nginx's workers read the release and static files here
        self.app = self.dir / "opt-casino"
        self.deploy_dir = deploy_dir
        self.database = f"casino_rehearse_{self.id}"
        self.key_prefix = f"rehearse-{self.id}:"
        self.processes: list[tuple[str, subprocess.Popen[bytes], Path]] = []
        self.created_database = False
        root = os.geteuid() == 0
        self.user = pwd.getpwnam("nobody") if root else None  # stands in for the units' User=casino
        self.https_port, self.http_port, self.web_port = free_ports(3)

    # -- processes ------------------------------------------------------------------------------------------
    def _log(self, name: str) -> Path:
        return self.dir / "logs" / f"{name}.log"

    def as_service_user(self) -> dict[str, Any]:
        if self.user is None:
            return {}
        return {"user": self.user.pw_uid, "group": self.user.pw_gid, "extra_groups": []}

    def run(
        self, name: str, argv: list[str], env: dict[str, str], timeout: float = 300, as_service: bool = True
    ) -> None:
        log = self._log(name)
        log.parent.mkdir(exist_ok=True)
        with log.open("ab") as out:
            done = subprocess.run(
                argv,
                cwd=self.app,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                timeout=timeout,
                check=False,
                **(self.as_service_user() if as_service else {}),
            )
        if done.returncode != 0:
            raise RehearsalError(f"{name}: {' '.join(argv)} exited {done.returncode}\n{tail(log)}")

    def start(self, name: str, argv: list[str], env: dict[str, str], as_service: bool = True) -> None:
        log = self._log(name)
        log.parent.mkdir(exist_ok=True)
        with log.open("ab") as out:
            process = subprocess.Popen(
                argv,
                cwd=self.app,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                **(self.as_service_user() if as_service else {}),
            )
        self.processes.append((name, process, log))

    def check_alive(self) -> None:
        for name, process, log in self.processes:
            if process.poll() is not None:
                raise RehearsalError(f"{name} exited with {process.returncode}\n{tail(log)}")

    def wait_for_port(self, port: int, what: str, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.check_alive()
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", port)) == 0:
                    return
            time.sleep(0.2)
        raise RehearsalError(f"{what} did not listen on {port} within {seconds:.0f} s")

    def wait_for_web(self, seconds: float = 60) -> None:
        """gunicorn answers /healthz itself (its master listens before any worker has booted, or failed to)."""
        deadline = time.monotonic() + seconds
        last = ""
        while time.monotonic() < deadline:
            self.check_alive()
            conn = http.client.HTTPConnection("127.0.0.1", self.web_port, timeout=5)
            try:
                conn.request("GET", "/healthz", headers={"Host": SERVER_NAME, "X-Forwarded-Proto": "https"})
                status = conn.getresponse().status
                if status == 200:
                    return
                last = f"HTTP {status}"
            except (OSError, http.client.HTTPException) as exc:
                last = str(exc)
            finally:
                conn.close()
            time.sleep(0.3)
        raise RehearsalError(f"gunicorn did not answer /healthz within {seconds:.0f} s ({last})")

    def stop_all(self) -> None:
        for _, process, _ in reversed(self.processes):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + 20
        for name, process, _ in reversed(self.processes):
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                print(f"   {name} ignored SIGTERM: killed", flush=True)
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()

    # -- names the run owns ---------------------------------------------------------------------------------
    def database_url(self) -> str:
        return urlsplit(SERVER_URL)._replace(path=f"/{self.database}").geturl()

    def admin_python(self, code: str, *args: str) -> str:
        """Run a snippet with the release's own interpreter (psycopg, redis) as the invoking user."""
        done = subprocess.run(
            [str(self.app / ".venv/bin/python"), "-c", code, *args],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        if done.returncode != 0:
            raise RehearsalError(f"admin step failed: {done.stderr[-2000:]}")
        return done.stdout

    def create_database(self) -> None:
        self.admin_python(
            "import psycopg, sys\nwith psycopg.connect(sys.argv[1], autocommit=True) as c:\n"
            "    c.execute(f'CREATE DATABASE \"{sys.argv[2]}\"')",
            SERVER_URL,
            self.database,
        )
        self.created_database = True

    def drop_names(self) -> None:
        """Drop the run's database and Redis keys (nothing to drop when the build failed before either existed)."""
        if not self.created_database:
            return
        code = (
            "import psycopg, redis, sys\n"
            "server, database, redis_url, prefix = sys.argv[1:]\n"
            "with psycopg.connect(server, autocommit=True) as c:\n"
            "    c.execute(f'DROP DATABASE IF EXISTS \"{database}\" WITH (FORCE)')\n"
            "client = redis.Redis.from_url(redis_url)\n"
            "for pattern in (prefix + '*', f'audit:seal-pending:{database}:*'):\n"
            "    keys = list(client.scan_iter(match=pattern, count=1000))\n"
            "    if keys:\n"
            "        client.delete(*keys)\n"
        )
        self.admin_python(code, SERVER_URL, self.database, REDIS_URL, self.key_prefix)

    def close(self) -> None:
        step("stopping everything the rehearsal started")
        try:
            self.stop_all()
            self.drop_names()
        except (RehearsalError, OSError, subprocess.SubprocessError) as exc:
            print(f"   clean-up incomplete: {exc}", flush=True)
            raise
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


def tail(log: Path, lines: int = 40) -> str:
    try:
        return "\n".join(f"   | {line}" for line in log.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""
