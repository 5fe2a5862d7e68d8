"""A broken deploy file fails the rehearsal (and so CI): deploy/rehearse run on deliberately broken copies of deploy/.

Needs what the rehearsal needs: nginx (deploy/rehearse --install-only installs it), PostgreSQL and Redis. It skips
without them, and fails instead under REQUIRE_REHEARSAL=1, which CI sets.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def rehearsal_env(require_postgres: None, require_redis: str) -> dict[str, str]:
    if shutil.which("nginx") is None:
        message = "nginx is required (deploy/rehearse --install-only installs it)"
        if os.environ.get("REQUIRE_REHEARSAL") == "1":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    server = connection.settings_dict
    return os.environ | {
        "REHEARSE_DATABASE_URL": f"postgres://{server['USER']}@{server['HOST']}:{server['PORT']}/postgres",
        "REHEARSE_REDIS_URL": str(settings.REDIS_URL),
    }


def broken_copy(tmp_path: Path, name: str, old: str, new: str) -> Path:
    deploy = tmp_path / "deploy"
    shutil.copytree(ROOT / "deploy", deploy, ignore=shutil.ignore_patterns("__pycache__"))
    text = (deploy / name).read_text()
    assert old in text, f"{name} no longer contains {old!r}: update this test"
    (deploy / name).write_text(text.replace(old, new, 1))
    return deploy


def rehearse(deploy: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(ROOT / "deploy" / "rehearse"), "--deploy-dir", str(deploy)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def assert_cleaned_up(output: str) -> None:
    assert "== stopping everything the rehearsal started" in output
    assert "clean-up incomplete" not in output
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_database WHERE datname LIKE 'casino_rehearse_%%'")
        assert cursor.fetchone()[0] == 0


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_an_nginx_conf_that_nginx_rejects_fails_the_rehearsal(rehearsal_env: dict[str, str], tmp_path: Path) -> None:
    deploy = broken_copy(tmp_path, "nginx.conf", "client_max_body_size 2m;", "client_max_body_size 2m")
    done = rehearse(deploy, rehearsal_env)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "REHEARSAL FAILED: nginx rejects deploy/nginx.conf" in done.stdout
    assert_cleaned_up(done.stdout)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_unit_whose_server_cannot_start_fails_the_rehearsal(rehearsal_env: dict[str, str], tmp_path: Path) -> None:
    deploy = broken_copy(tmp_path, "casino-web.service", "casino.wsgi", "casino.wsgi_missing")
    done = rehearse(deploy, rehearsal_env)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "REHEARSAL FAILED: casino-web exited" in done.stdout
    assert "casino.wsgi_missing" in done.stdout  # the service's own log tells why
    assert_cleaned_up(done.stdout)
