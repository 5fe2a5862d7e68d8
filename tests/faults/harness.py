"""The processes a fault test runs and breaks: a private Redis, gunicorn, a Celery worker with beat, and a TCP
proxy in front of PostgreSQL that can be cut. Each is started in its own process group and killed by the test."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
ALL_QUEUES = "settlement,audit,analysis,reports,celery"


def port_is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port(candidates: Iterable[int], taken: set[int]) -> int:
    """The first free port of `candidates` not already `taken` by this test (each run keeps to its own range)."""
    for port in candidates:
        if port not in taken and port_is_free(port):
            taken.add(port)
            return port
    raise RuntimeError(f"no free port among {list(candidates)}")


def wait_for(predicate: Callable[[], Any], seconds: float, what: str, step: float = 0.2) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            result = predicate()
        except Exception:  # not up yet (connection refused, ...): ask again
            result = None
        if result:
            return result
        time.sleep(step)
    raise AssertionError(f"timed out after {seconds}s waiting for {what}")


class Processes:
    """Every process a test starts, killed (the whole group, SIGKILL) when the test ends, whatever happened."""

    def __init__(self, log_dir: Path) -> None:
        self.log_dir = log_dir
        self.running: list[subprocess.Popen[bytes]] = []

    def start(self, name: str, argv: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
        log = (self.log_dir / f"{name}.log").open("ab")
        process = subprocess.Popen(
            argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        log.close()
        self.running.append(process)
        return process

    def kill(self, process: subprocess.Popen[bytes]) -> None:
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=15)
        # A child that left the group (celery's embedded beat does not) would show up here.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)

    def kill_all(self) -> None:
        for process in reversed(self.running):
            self.kill(process)
        self.running.clear()

    def log(self, name: str, tail: int | None = None) -> str:
        path = self.log_dir / f"{name}.log"
        text = path.read_text(errors="replace") if path.exists() else ""
        return text[-tail:] if tail else text


def redis_argv(port: int) -> list[str]:
    return ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no"]


def web_argv(port: int) -> list[str]:
    # One worker process with threads, as deploy/gunicorn.conf.py runs them, small enough for a 2-core machine.
    return [
        PYTHON, "-m", "gunicorn", "casino.wsgi", "-c", "deploy/gunicorn.conf.py",
        "--bind", f"127.0.0.1:{port}", "--workers", "1", "--threads", "4", "--max-requests", "0",
        # gunicorn 27's control socket is one path per user (~/.gunicorn): another gunicorn must not share it.
        "--no-control-socket",
    ]


def worker_argv(schedule_file: Path, *, settlement_retries: int | None = None) -> list[str]:
    """A worker on every queue with beat embedded (beat's schedule in a file, not the database the test cuts)."""
    lines = ["import django", "django.setup()", "from casino.celery import app"]
    if settlement_retries is not None:
        # Few retries, so an outage outlasts them: the job is dropped, as issue 15 saw after nine tries.
        lines.append(f"app.conf.task_annotations = {{'tables.settle_round': {{'max_retries': {settlement_retries}}}}}")
    args = [
        "worker", "-B", "-s", str(schedule_file), "--scheduler", "celery.beat:PersistentScheduler",
        "--pool=solo", "-Q", ALL_QUEUES, "--loglevel=INFO", "--without-gossip", "--without-mingle",
        "--without-heartbeat",
    ]
    lines.append(f"app.worker_main({args!r})")
    return [PYTHON, "-c", "\n".join(lines)]


class TcpProxy:
    """127.0.0.1:port -> target. cut() refuses new connections and breaks every open one; restore() reopens."""

    def __init__(self, port: int, target: tuple[str, int]) -> None:
        self.port, self.target = port, target
        self.server: socket.socket | None = None
        self.links: list[socket.socket] = []
        self.lock = threading.Lock()

    def restore(self) -> None:
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", self.port))
        server.listen(64)
        self.server = server
        threading.Thread(target=self._accept, args=(server,), daemon=True).start()

    def _accept(self, server: socket.socket) -> None:
        while True:
            try:
                client, _ = server.accept()
            except OSError:
                return  # cut
            try:
                upstream = socket.create_connection(self.target, timeout=5)
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.links += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        if self.server is not None:
            # shutdown() wakes the accept() blocked in its thread; close() alone would not.
            with contextlib.suppress(OSError):
                self.server.shutdown(socket.SHUT_RDWR)
            self.server.close()
            self.server = None
        with self.lock:
            links, self.links = self.links, []
        for link in links:
            with contextlib.suppress(OSError):
                link.shutdown(socket.SHUT_RDWR)
            link.close()
