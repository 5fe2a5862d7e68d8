"""Reading deploy/ as production would: systemd units, the env file from env.example, nginx.conf for this run.

Everything here fails loudly (RehearsalError) on a file it cannot take as written, so a broken deploy file fails
the rehearsal instead of being quietly worked around.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

INSTALL_DIR = "/opt/casino"  # where the units and nginx.conf expect the release
ENV_FILE = "/etc/casino/env"  # the units' EnvironmentFile
CERT_DIR = "/etc/ssl/casino"  # nginx.conf's certificate directory
SERVER_NAME = "casino.example.com"
WEB_UPSTREAM = "127.0.0.1:8000"  # nginx.conf's proxy_pass target, gunicorn's default bind


class RehearsalError(Exception):
    """The product, as deploy/ describes it, did not start or did not behave."""


@dataclass(frozen=True)
class Unit:
    """What the rehearsal takes from a systemd service unit."""

    name: str
    user: str
    working_directory: str
    environment_file: str
    exec_start_pre: tuple[tuple[str, ...], ...]
    exec_start: tuple[str, ...]

    @property
    def node_name(self) -> str | None:
        """A Celery worker's node name prefix (`-n settlement@%h` -> settlement), None for other units."""
        argv = self.exec_start
        if "worker" not in argv or "-n" not in argv:
            return None
        return argv[argv.index("-n") + 1].split("@", 1)[0]

    @property
    def queues(self) -> tuple[str, ...]:
        argv = self.exec_start
        return tuple(argv[argv.index("-Q") + 1].split(",")) if "-Q" in argv else ()


def _logical_lines(text: str) -> list[str]:
    """Lines with systemd's backslash continuations joined; comments and blank lines dropped."""
    lines: list[str] = []
    pending = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith(("#", ";"))):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        lines.append(pending + line)
        pending = ""
    if pending:
        lines.append(pending)
    return lines


def command_argv(value: str, unit: str) -> tuple[str, ...]:
    """An Exec line as argv: systemd's prefixes stripped, `%%` unescaped; other specifiers and `$` refused."""
    command = value.lstrip("-@:+!")
    if re.search(r"%[^%]", command.replace("%%", "")):
        raise RehearsalError(f"{unit}: unsupported systemd specifier in {value!r} (write %% for a literal %)")
    if "$" in command:
        raise RehearsalError(f"{unit}: environment variables in Exec lines are not rehearsed: {value!r}")
    try:
        argv = tuple(shlex.split(command.replace("%%", "%")))
    except ValueError as exc:
        raise RehearsalError(f"{unit}: cannot parse {value!r}: {exc}") from None
    if not argv:
        raise RehearsalError(f"{unit}: empty command line")
    return argv


def parse_unit(path: Path) -> Unit:
    """The [Service] section of a unit; User, WorkingDirectory, EnvironmentFile and one ExecStart are required."""
    section = ""
    values: dict[str, list[str]] = {}
    for line in _logical_lines(path.read_text(encoding="utf-8")):
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
            continue
        if "=" not in line:
            raise RehearsalError(f"{path.name}: not a key=value line: {line!r}")
        if section == "Service":
            key, value = (part.strip() for part in line.split("=", 1))
            values.setdefault(key, []).append(value)
    for key in ("User", "WorkingDirectory", "EnvironmentFile", "ExecStart"):
        found = len(values.get(key, []))
        if found != 1:
            raise RehearsalError(f"{path.name}: needs exactly one {key}= in [Service] (found {found})")
    return Unit(
        name=path.stem,
        user=values["User"][0],
        working_directory=values["WorkingDirectory"][0],
        environment_file=values["EnvironmentFile"][0].lstrip("-"),
        exec_start_pre=tuple(command_argv(v, path.name) for v in values.get("ExecStartPre", [])),
        exec_start=command_argv(values["ExecStart"][0], path.name),
    )


def read_units(deploy_dir: Path) -> list[Unit]:
    """Every unit in deploy/, the web unit first (its ExecStartPre migrates before anything else runs)."""
    units = [parse_unit(path) for path in sorted(deploy_dir.glob("*.service"))]
    if not any(unit.name == "casino-web" for unit in units):
        raise RehearsalError("deploy/casino-web.service is missing")
    for unit in units:
        if unit.user == "root":
            raise RehearsalError(f"{unit.name}: runs as root")
        if unit.working_directory != INSTALL_DIR or unit.environment_file != ENV_FILE:
            raise RehearsalError(f"{unit.name}: expected WorkingDirectory={INSTALL_DIR} EnvironmentFile={ENV_FILE}")
    return sorted(units, key=lambda unit: unit.name != "casino-web")


def installed(argv: tuple[str, ...], app_dir: Path) -> list[str]:
    """An Exec command line with the install directory replaced by this run's."""
    return [str(app_dir) + arg[len(INSTALL_DIR) :] if arg.startswith(INSTALL_DIR + "/") else arg for arg in argv]


def parse_env_file(text: str, name: str) -> dict[str, str]:
    """systemd EnvironmentFile syntax: KEY=VALUE lines, # or ; comments, optional quotes around the value."""
    env: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        match = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)=(.*)", line)
        if match is None:
            raise RehearsalError(f"{name}:{number}: not KEY=VALUE: {raw!r}")
        key, value = match.groups()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        env[key] = value
    return env


def env_from_example(example: Path, overrides: dict[str, str]) -> dict[str, str]:
    """The env file an operator makes from env.example: every variable it lists, with this run's values set."""
    env = parse_env_file(example.read_text(encoding="utf-8"), example.name)
    unknown = sorted(set(overrides) - set(env))
    if unknown:
        raise RehearsalError(f"{example.name} does not list {', '.join(unknown)}")
    env.update(overrides)
    return env


def render_env_file(env: dict[str, str]) -> str:
    return "".join(f"{key}={value}\n" for key, value in env.items())


def _substitute(text: str, pattern: str, replacement: str, what: str) -> str:
    result, count = re.subn(pattern, replacement, text)
    if count == 0:
        raise RehearsalError(f"nginx.conf: {what} not found (pattern {pattern!r}); the rehearsal cannot run it")
    return result


def nginx_site(conf: str, *, https_port: int, http_port: int, web_port: int, app_dir: Path, cert_dir: Path) -> str:
    """deploy/nginx.conf for this run: its ports, certificate directory, install directory and gunicorn port."""
    conf = _substitute(conf, r"listen\s+443\b", f"listen 127.0.0.1:{https_port}", "listen 443")
    conf = _substitute(conf, r"listen\s+80\b", f"listen 127.0.0.1:{http_port}", "listen 80")
    conf = _substitute(conf, re.escape(CERT_DIR + "/"), f"{cert_dir}/", f"certificates in {CERT_DIR}")
    conf = _substitute(conf, re.escape(INSTALL_DIR + "/"), f"{app_dir}/", f"paths under {INSTALL_DIR}")
    return _substitute(conf, re.escape(f"http://{WEB_UPSTREAM}"), f"http://127.0.0.1:{web_port}", "proxy_pass")


def nginx_main(site: Path, prefix: Path, user: str | None) -> str:
    """The main nginx.conf around the site (as Debian's /etc/nginx/nginx.conf would include it)."""
    temp = "\n".join(
        f"  {kind}_temp_path {prefix}/{kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return (
        (f"user {user};\n" if user else "")
        + f"worker_processes 1;\npid {prefix}/nginx.pid;\nerror_log {prefix}/error.log warn;\n"
        + "events { worker_connections 256; }\n"
        + "http {\n  include /etc/nginx/mime.types;\n  default_type application/octet-stream;\n"
        + f"  access_log {prefix}/access.log;\n  sendfile on;\n{temp}\n  include {site};\n}}\n"
    )
