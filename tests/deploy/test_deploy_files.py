"""deploy/ read as the rehearsal reads it: units, env file, nginx.conf and compose agree with the code."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from rehearsal_files import (
    RehearsalError,
    command_argv,
    env_from_example,
    installed,
    nginx_site,
    parse_env_file,
    read_units,
)

from casino.queues import ALL_QUEUES

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
NGINX = (DEPLOY / "nginx.conf").read_text()


def test_every_unit_runs_unprivileged_from_the_release_with_the_env_file() -> None:
    units = read_units(DEPLOY)
    assert units[0].name == "casino-web"
    assert [pre[1:3] for pre in units[0].exec_start_pre] == [("manage.py", "migrate")]
    assert {unit.name for unit in units} >= {"casino-web", "casino-beat", "casino-worker-settlement"}


def test_the_worker_units_consume_every_queue_and_settlement_alone() -> None:
    workers = [unit for unit in read_units(DEPLOY) if unit.node_name]
    consumed = [queue for unit in workers for queue in unit.queues]
    assert sorted(consumed) == sorted(ALL_QUEUES)  # each queue exactly once on a host
    settlement = next(unit for unit in workers if "settlement" in unit.queues)
    assert settlement.queues == ("settlement",)


def test_the_compose_file_starts_the_same_workers_with_health_checks_and_restart_policies() -> None:
    compose: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    queues = []
    for name, service in services.items():
        command = service.get("command") or []
        if "worker" in command:
            queues += command[command.index("-Q") + 1].split(",")
        if name != "migrate":
            assert service.get("restart") == "unless-stopped", name
        if name not in {"beat", "migrate"}:
            assert "healthcheck" in service, name
    assert sorted(queues) == sorted(ALL_QUEUES)
    assert services["web"]["build"]["dockerfile"] == "deploy/Dockerfile"
    assert services["migrate"]["command"] == ["python", "manage.py", "migrate", "--noinput"]


def test_env_example_lists_every_variable_the_settings_read() -> None:
    settings = (ROOT / "casino" / "settings.py").read_text()
    read = set(re.findall(r'env(?:str|bool|int|float|list)\("([A-Z0-9_]+)"', settings)) - {"TESTING"}  # tests set it
    listed = set(parse_env_file((DEPLOY / "env.example").read_text(), "env.example"))
    assert read - listed == set()


def test_the_env_file_is_env_example_with_the_runs_values(tmp_path: Path) -> None:
    env = env_from_example(DEPLOY / "env.example", {"DEBUG": "false", "SECRET_KEY": "s" * 50})
    assert env["DEBUG"] == "false"
    assert env["SECRET_KEY"] == "s" * 50
    assert env["SECURE_SSL_REDIRECT"] == "true"
    with pytest.raises(RehearsalError, match="does not list NOT_A_SETTING"):
        env_from_example(DEPLOY / "env.example", {"NOT_A_SETTING": "1"})


def test_a_malformed_env_line_is_refused() -> None:
    with pytest.raises(RehearsalError, match="env:2: not KEY=VALUE"):
        parse_env_file("DEBUG=false\nthis is not a setting\n", "env")


def test_exec_lines_unescape_percent_and_refuse_what_the_rehearsal_cannot_run() -> None:
    assert command_argv("/opt/casino/.venv/bin/celery worker -n a@%%h", "u")[-1] == "a@%h"
    with pytest.raises(RehearsalError, match="specifier"):
        command_argv("/opt/casino/.venv/bin/celery worker -n a@%h", "u")
    with pytest.raises(RehearsalError, match="environment variables"):
        command_argv("/opt/casino/.venv/bin/gunicorn --workers $WORKERS", "u")
    python = ("/opt/casino/.venv/bin/python", "manage.py")
    assert installed(python, Path("/run/x")) == ["/run/x/.venv/bin/python", "manage.py"]


def test_nginx_conf_gets_the_runs_ports_certificate_and_directories() -> None:
    ports = {"https_port": 9443, "http_port": 9080, "web_port": 9000}
    site = nginx_site(NGINX, **ports, app_dir=Path("/r/app"), cert_dir=Path("/r/tls"))
    assert "listen 127.0.0.1:9443 ssl" in site
    assert "listen 127.0.0.1:9080;" in site
    assert "ssl_certificate     /r/tls/fullchain.pem;" in site
    assert "alias /r/app/staticfiles/;" in site
    assert "proxy_pass http://127.0.0.1:9000;" in site
    assert "/opt/casino" not in site
    assert "/etc/ssl/casino" not in site


def test_an_nginx_conf_the_rehearsal_cannot_map_is_refused_not_skipped() -> None:
    with pytest.raises(RehearsalError, match="proxy_pass"):
        nginx_site(NGINX.replace("127.0.0.1:8000", "unix:/run/gunicorn.sock"), https_port=1, http_port=2,
                   web_port=3, app_dir=Path("/a"), cert_dir=Path("/c"))  # fmt: skip
