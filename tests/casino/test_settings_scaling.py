"""Settings for more than one machine: the replica alias, connection pooling and a Redis key prefix."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import json, django; from django.conf import settings; django.setup(); "
    "print(json.dumps({'databases': {k: d "
    "for k, d in settings.DATABASES.items()}, 'routers': settings.DATABASE_ROUTERS, "
    "'lag': settings.DATABASE_REPLICA_MAX_LAG_SECONDS, "
    "'broker_options': getattr(settings, 'CELERY_BROKER_TRANSPORT_OPTIONS', {}), "
    "'result_options': getattr(settings, 'CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS', {})}, default=str))"
)
CLEARED = {
    "DATABASE_URL", "DATABASE_REPLICA_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "DATABASE_POOL_MAX_SIZE",
    "DATABASE_CONN_MAX_AGE", "CELERY_KEY_PREFIX", "DATABASE_REPLICA_MAX_LAG_SECONDS", "DATABASE_PREPARED_STATEMENTS",
}  # fmt: skip
PRIMARY = "postgres://casino@db-primary:5432/casino"


def probe(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in CLEARED}
    clean.update(env, DJANGO_SETTINGS_MODULE="casino.settings")
    return subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60, check=False
    )


def settings_with(**env: str) -> Any:
    result = probe(**env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_a_replica_url_adds_a_read_only_alias_that_tests_mirror() -> None:
    config = settings_with(
        DATABASE_URL=PRIMARY,
        DATABASE_REPLICA_URL="postgres://casino@db-replica:5432/casino",
        DATABASE_REPLICA_MAX_LAG_SECONDS="5",
    )
    replica = config["databases"]["replica"]
    assert replica["HOST"] == "db-replica"
    assert replica["OPTIONS"]["connect_timeout"] == 2
    assert replica["TEST"]["MIRROR"] == "default"
    assert config["routers"] == ["casino.db_router.PrimaryReplicaRouter"]
    assert config["lag"] == 5.0


def test_without_a_replica_url_there_is_only_the_primary() -> None:
    assert list(settings_with(DATABASE_URL=PRIMARY)["databases"]) == ["default"]


def test_a_replica_needs_a_postgres_primary() -> None:
    result = probe(DATABASE_REPLICA_URL="postgres://casino@db-replica:5432/casino")
    assert result.returncode != 0
    assert "DATABASE_REPLICA_URL: a replica needs DATABASE_URL to select PostgreSQL" in result.stderr


def test_a_pool_size_selects_psycopgs_pool_instead_of_persistent_connections() -> None:
    default = settings_with(DATABASE_URL=PRIMARY, DATABASE_POOL_MAX_SIZE="8")["databases"]["default"]
    assert default["OPTIONS"]["pool"] == {"min_size": 1, "max_size": 8, "timeout": 10}
    assert default["CONN_MAX_AGE"] == 0


def test_postgresql_prepares_statements_unless_told_not_to() -> None:
    config = settings_with(DATABASE_URL=PRIMARY, DATABASE_REPLICA_URL="postgres://casino@db-replica:5432/casino")
    for alias in ("default", "replica"):
        assert config["databases"][alias]["OPTIONS"]["server_side_binding"] is True
        assert config["databases"][alias]["OPTIONS"]["prepare_threshold"] == 5
    # Behind a pooler that cannot track them (PgBouncer before 1.21 in transaction mode): Django's defaults again.
    off = settings_with(DATABASE_URL=PRIMARY, DATABASE_PREPARED_STATEMENTS="false")["databases"]["default"]
    assert "server_side_binding" not in off["OPTIONS"]
    assert "prepare_threshold" not in off["OPTIONS"]
    # SQLite knows neither option (its connect() would refuse them).
    sqlite = settings_with(DATABASE_URL="sqlite:////tmp/probe.sqlite3")["databases"]["default"]
    assert "server_side_binding" not in sqlite["OPTIONS"]


def test_connection_lifetime_comes_from_the_environment() -> None:
    default = settings_with(DATABASE_URL=PRIMARY, DATABASE_CONN_MAX_AGE="60")["databases"]["default"]
    assert default["CONN_MAX_AGE"] == 60
    assert "pool" not in default["OPTIONS"]


def test_a_redis_key_prefix_separates_installations_sharing_one_redis_database() -> None:
    config = settings_with(REDIS_URL="redis://127.0.0.1:6379/3", CELERY_KEY_PREFIX="rehearsal-1:")
    assert config["broker_options"]["global_keyprefix"] == "rehearsal-1:"
    assert config["result_options"]["global_keyprefix"] == "rehearsal-1:"


def test_a_pooled_connection_answers_queries(require_postgres: None) -> None:
    from django.db import connection

    url = "postgres://{USER}@{HOST}:{PORT}/{NAME}".format(**connection.settings_dict)
    code = (
        "import django; django.setup(); from django.db import connection; "
        "cursor = connection.cursor(); cursor.execute('SELECT 41 + 1'); "
        "print(cursor.fetchone()[0], type(connection.pool).__name__)"
    )
    clean = {k: v for k, v in os.environ.items() if k not in CLEARED}
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=clean | {"DATABASE_URL": url, "DATABASE_POOL_MAX_SIZE": "2", "DJANGO_SETTINGS_MODULE": "casino.settings"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["42", "ConnectionPool"]
