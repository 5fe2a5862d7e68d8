"""Settings come from the environment: database and broker selection, and clear start-up failures."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import json, django; from django.conf import settings; django.setup(); "
    "db = settings.DATABASES['default']; "
    "print(json.dumps({'engine': db['ENGINE'], 'name': str(db['NAME']), 'conn_max_age': db.get('CONN_MAX_AGE'), "
    "'health': db.get('CONN_HEALTH_CHECKS'), 'eager': settings.CELERY_TASK_ALWAYS_EAGER, "
    "'broker': settings.CELERY_BROKER_URL, 'acks_late': getattr(settings, 'CELERY_TASK_ACKS_LATE', False), "
    "'reject': getattr(settings, 'CELERY_TASK_REJECT_ON_WORKER_LOST', False), "
    "'visibility': getattr(settings, 'CELERY_BROKER_TRANSPORT_OPTIONS', {}).get('visibility_timeout'), "
    "'time_limit': settings.CELERY_TASK_TIME_LIMIT, 'use_tz': settings.USE_TZ, 'time_zone': settings.TIME_ZONE}))"
)


def run_probe(**env: str) -> subprocess.CompletedProcess[str]:
    unset = {"DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "TIME_ZONE", "CELERY_KEY_PREFIX"}
    clean = {k: v for k, v in os.environ.items() if k not in unset}
    clean.update(env, DJANGO_SETTINGS_MODULE="casino.settings")
    return subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60, check=False
    )


def test_no_database_url_selects_the_sqlite_file_in_the_project() -> None:
    result = run_probe()
    assert result.returncode == 0, result.stderr
    config = json.loads(result.stdout)
    assert config["engine"] == "django.db.backends.sqlite3"
    assert config["name"] == str(ROOT / "db.sqlite3")
    assert config["use_tz"] is True


def test_a_postgres_url_selects_psycopg_with_persistent_checked_connections() -> None:
    config = json.loads(run_probe(DATABASE_URL="postgres://postgres@127.0.0.1:5432/casino").stdout)
    assert config["engine"] == "django.db.backends.postgresql"
    assert config["name"] == "casino"
    assert config["conn_max_age"] == 600
    assert config["health"] is True


def test_without_redis_url_celery_runs_tasks_eagerly_in_process() -> None:
    config = json.loads(run_probe().stdout)
    assert config["eager"] is True
    assert config["broker"] == "memory://localhost/"


def test_with_redis_url_celery_uses_redis_with_late_acks_and_a_long_visibility_timeout() -> None:
    config = json.loads(run_probe(REDIS_URL="redis://127.0.0.1:6379/7").stdout)
    assert config["eager"] is False
    assert config["broker"] == "redis://127.0.0.1:6379/7"
    assert config["acks_late"] is True
    assert config["reject"] is True
    assert config["visibility"] > config["time_limit"]


def test_a_malformed_database_url_stops_start_up_with_one_line_naming_the_variable() -> None:
    result = run_probe(DATABASE_URL="not a url at all")
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("DATABASE_URL:")


def test_a_malformed_redis_url_stops_start_up_with_one_line_naming_the_variable() -> None:
    result = run_probe(REDIS_URL="redis://127.0.0.1:notaport/0")
    assert result.returncode != 0
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert result.stderr.startswith("REDIS_URL:")


def test_debug_off_requires_a_secret_key() -> None:
    result = run_probe(DEBUG="false")
    assert result.returncode != 0
    assert result.stderr.strip() == "SECRET_KEY: required when DEBUG is off"


def test_debug_off_with_a_secret_key_starts() -> None:
    result = run_probe(DEBUG="false", SECRET_KEY="x" * 50, ALLOWED_HOSTS="casino.example")
    assert result.returncode == 0, result.stderr


def test_times_are_utc_unless_time_zone_is_set() -> None:
    assert json.loads(run_probe().stdout)["time_zone"] == "UTC"
    assert json.loads(run_probe(TIME_ZONE="Europe/Malta").stdout)["time_zone"] == "Europe/Malta"


def test_an_unknown_time_zone_stops_start_up_with_one_line_naming_the_variable() -> None:
    result = run_probe(TIME_ZONE="Mars/Olympus")
    assert result.returncode != 0
    assert result.stderr.strip() == (
        "TIME_ZONE: unknown time zone 'Mars/Olympus', expected an IANA name such as UTC or Europe/Malta"
    )


def test_a_celery_key_prefix_prefixes_every_broker_and_result_key() -> None:
    code = (
        "import json, django; from django.conf import settings; django.setup(); "
        "print(json.dumps([settings.CELERY_BROKER_TRANSPORT_OPTIONS.get('global_keyprefix'), "
        "settings.CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS.get('global_keyprefix')]))"
    )
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DEBUG"}}
    env |= {"REDIS_URL": "redis://127.0.0.1:6379/7", "CELERY_KEY_PREFIX": "ci_42:"}
    env["DJANGO_SETTINGS_MODULE"] = "casino.settings"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert json.loads(result.stdout) == ["ci_42:", "ci_42:"], result.stderr
