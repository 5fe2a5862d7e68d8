"""Django settings, read from the environment (see deploy/env.example for every variable)."""

from __future__ import annotations

import logging
import os
import sys
import zoneinfo
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

from csp.constants import NONCE, NONE, SELF, UNSAFE_INLINE

BASE_DIR = Path(__file__).resolve().parent.parent


def envstr(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def envbool(name: str, default: str = "False") -> bool:
    value = os.environ.get(name, default).strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off", ""}:
        return False
    sys.exit(f"{name}: expected true or false, got {value!r}")


def envint(name: str, default: str) -> int:
    value = os.environ.get(name, default)
    try:
        return int(value)
    except ValueError:
        sys.exit(f"{name}: expected a whole number, got {value!r}")


def envlist(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def envzone(name: str, default: str) -> str:
    value = os.environ.get(name, default).strip()
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        sys.exit(f"{name}: unknown time zone {value!r}, expected an IANA name such as UTC or Europe/Malta")
    return value


def envloglevel(name: str, default: str) -> str:
    value = os.environ.get(name, default).strip().upper()
    if value not in logging.getLevelNamesMapping():
        sys.exit(f"{name}: expected DEBUG, INFO, WARNING, ERROR or CRITICAL, got {value!r}")
    return value


DEBUG = envbool("DEBUG", "True")
SECRET_KEY = envstr("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        # A production process must never fall back to a key that is in the source.
        sys.exit("SECRET_KEY: required when DEBUG is off")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"  # noqa: S105 (DEBUG only)

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "127.0.0.1,localhost" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS")
SITE_NAME = envstr("SITE_NAME", "Triple Draw Casino")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "axes",
    "csp",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and ReDoc as static files: the API docs work offline
    "django_celery_beat",
    "outbox",
    "audit",
    "accounts",
    "paytables",
    "tables",
    "floor",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "casino.api_failures.ApiFailureMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "audit.middleware.AuditContextMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes requires: it turns a lockout into accounts.throttle.lockout_response (429).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "casino.urls"
WSGI_APPLICATION = "casino.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "casino" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "csp.context_processors.nonce",  # {{ CSP_NONCE }} on our few inline <style> blocks
            ],
        },
    },
]


def envfloat(name: str, default: str) -> float:
    value = os.environ.get(name, default)
    try:
        return float(value)
    except ValueError:
        sys.exit(f"{name}: expected a number, got {value!r}")


def _postgres_from_url(name: str, url: str) -> dict[str, object]:
    """One database alias from a URL (PostgreSQL in production; a sqlite:// URL works too): persistent checked
    connections, or psycopg's pool when DATABASE_POOL_MAX_SIZE is set."""
    import dj_database_url

    try:
        config: dict[str, object] = dict(
            dj_database_url.parse(url, conn_max_age=envint("DATABASE_CONN_MAX_AGE", "600"), conn_health_checks=True)
        )
    except Exception as exc:  # dj_database_url raises several types; all mean the same to an operator
        sys.exit(f"{name}: cannot parse {url!r}: {exc}")
    if not config.get("NAME") or not config.get("ENGINE"):
        sys.exit(f"{name}: cannot parse {url!r}: no database name")
    options: dict[str, object] = dict(config.get("OPTIONS") or {})  # type: ignore[call-overload]
    pool_size = envint("DATABASE_POOL_MAX_SIZE", "0")
    if pool_size > 0:
        # Django keeps one pool per process; it replaces persistent connections (Django refuses both at once).
        options["pool"] = {
            "min_size": min(envint("DATABASE_POOL_MIN_SIZE", "1"), pool_size),
            "max_size": pool_size,
            "timeout": envint("DATABASE_POOL_TIMEOUT", "10"),
        }
        config["CONN_MAX_AGE"] = 0
    if envbool("DATABASE_DISABLE_SERVER_SIDE_CURSORS"):
        config["DISABLE_SERVER_SIDE_CURSORS"] = True  # required behind PgBouncer in transaction pooling mode
    if config["ENGINE"] == "django.db.backends.postgresql" and envbool("DATABASE_PREPARED_STATEMENTS", "true"):
        # Parameters sent apart from the statement (not quoted into it by the client), so that psycopg can prepare
        # a statement on its fifth use on a connection: PostgreSQL then skips parsing and planning it. A Triple Draw
        # round's statements cost PostgreSQL about 35 ms of CPU prepared against 55 ms unprepared
        # (bench/profile_round.py --plain). Off behind a pooler that cannot track prepared statements (PgBouncer
        # before 1.21, or without max_prepared_statements, in transaction mode).
        options["server_side_binding"] = True
        options["prepare_threshold"] = 5
    config["OPTIONS"] = options
    return config


def _database_from_env() -> dict[str, object]:
    url = envstr("DATABASE_URL")
    if not url:
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": BASE_DIR / "db.sqlite3",
            # SQLite serialises writers; waiting beats failing with "database is locked".
            "OPTIONS": {"timeout": 20},
        }
    return _postgres_from_url("DATABASE_URL", url)


def _replica_from_env(primary: dict[str, object]) -> dict[str, object] | None:
    """The streaming replica that stale-tolerant reads may use (casino/db_router.py), or None."""
    url = envstr("DATABASE_REPLICA_URL")
    if not url:
        return None
    if primary["ENGINE"] != "django.db.backends.postgresql":
        sys.exit("DATABASE_REPLICA_URL: a replica needs DATABASE_URL to select PostgreSQL")
    config = _postgres_from_url("DATABASE_REPLICA_URL", url)
    options = dict(config["OPTIONS"])  # type: ignore[call-overload]
    # A replica that does not answer must not hold a request up: the router then falls back to the primary.
    options.setdefault("connect_timeout", envint("DATABASE_REPLICA_CONNECT_TIMEOUT", "2"))
    config["OPTIONS"] = options
    # Tests never create a database on a read-only replica: it mirrors the primary's test database.
    config["TEST"] = {"MIRROR": "default"}
    return config


DATABASES = {"default": _database_from_env()}
_replica = _replica_from_env(DATABASES["default"])
if _replica is not None:
    DATABASES["replica"] = _replica
DATABASE_ROUTERS = ["casino.db_router.PrimaryReplicaRouter"]
# A replica further behind the primary than this is skipped (reads go to the primary); checked at most every
# DATABASE_REPLICA_CHECK_SECONDS per process.
DATABASE_REPLICA_MAX_LAG_SECONDS = envfloat("DATABASE_REPLICA_MAX_LAG_SECONDS", "10")
DATABASE_REPLICA_CHECK_SECONDS = envfloat("DATABASE_REPLICA_CHECK_SECONDS", "2")
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"


def _redis_url_from_env() -> str:
    url = envstr("REDIS_URL")
    if not url:
        return ""
    try:
        parts = urlsplit(url)
        port = parts.port
        db = parts.path.lstrip("/")
        if db and not db.isdigit():
            raise ValueError(f"database {db!r} is not a number")
    except ValueError as exc:
        sys.exit(f"REDIS_URL: cannot parse {url!r}: {exc}")
    if parts.scheme not in {"redis", "rediss"} or not parts.hostname:
        sys.exit(f"REDIS_URL: cannot parse {url!r}: expected redis://host:port/db")
    del port
    return url


REDIS_URL = _redis_url_from_env()

# Sign-in throttling (django-axes): every login form and the API token endpoint authenticate through here.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = envint("LOGIN_FAILURE_LIMIT", "5")
AXES_COOLOFF_TIME = timedelta(minutes=envint("LOGIN_COOLOFF_MINUTES", "15"))
# Each entry locks on its own: too many failures for one username, or from one client address.
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
# Refused attempts during a lockout neither count nor extend it; the audit trail gets one event per lockout.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_DISABLE_ACCESS_LOG = True  # successful sign-ins are in the audit trail already
AXES_CLIENT_IP_CALLABLE = "audit.middleware.client_address"
AXES_USERNAME_CALLABLE = "accounts.throttle.attempted_username"
AXES_LOCKOUT_CALLABLE = "accounts.throttle.lockout_response"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
# The one time zone of logs, screens and exports (storage is always UTC); every screen that shows times names it.
TIME_ZONE = envzone("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# The site's own files, not any one app's (the icon every page names).
STATICFILES_DIRS = [BASE_DIR / "casino" / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Manifest storage needs collectstatic; DEBUG and tests serve plain files.
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG and not envbool("TESTING")
        else "django.contrib.staticfiles.storage.StaticFilesStorage",
    },
}

LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/accounts/login/"

# Security: strict in production, relaxed for the embedded demo on plain http.
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", "False" if DEBUG else "True")
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000")
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_AGE = envint("SESSION_COOKIE_AGE", str(12 * 3600))  # one shift

# Content-Security-Policy (django-csp 4 format): only our own scripts and styles run, inline ones only with the
# per-response nonce; no eval (htmx trigger filters are off), nothing framed, no plugins. Inline style="..."
# attributes stay allowed (style-src-attr): they cannot run code and the admin and our screens use them.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, NONCE],
        "style-src-attr": [UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

REST_FRAMEWORK = {
    # Token first: an unauthenticated API call then gets 401 with WWW-Authenticate, not a bare 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": ["casino.parsers.BoundedJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "EXCEPTION_HANDLER": "casino.api_errors.exception_handler",
}
# API tokens (django-rest-knox): only a SHA-512 digest is stored; each expires, and a password change revokes it.
KNOX_TOKEN_MODEL = "accounts.ApiToken"  # noqa: S105 (a model name, not a secret)
# knox's own migrations create its AuthToken table although the model is swapped for ours: skip them.
MIGRATION_MODULES = {"knox": None}
REST_KNOX = {
    "TOKEN_TTL": timedelta(hours=envint("API_TOKEN_TTL_HOURS", "12")),  # one shift, like a session
    "AUTH_HEADER_PREFIX": "Token",
    "AUTO_REFRESH": False,
}

# API request bodies: larger is 413, nested deeper is 400, both before parsing (casino/parsers.py).
API_MAX_BODY_BYTES = envint("API_MAX_BODY_BYTES", str(256 * 1024))
API_MAX_JSON_DEPTH = envint("API_MAX_JSON_DEPTH", "32")
# JSON 403 instead of Django's HTML page when its CSRF check fails on an /api/ path.
CSRF_FAILURE_VIEW = "casino.api_failures.csrf_failure"

SPECTACULAR_SETTINGS = {
    "TITLE": "Triple Draw casino table-game API",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Served from our own static files, never a CDN; no online validator badge either.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    # One name for a home hand's status wherever it appears (its state and the game's list of hands).
    "ENUM_NAME_OVERRIDES": {"HomeHandStatusEnum": ["in_play", "settled", "voided"]},
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "casino.openapi.add_error_responses",
        "casino.openapi_tags.tag_by_area",
    ],
}

# Celery: eager in-process without REDIS_URL so the embedded default needs no broker.
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_TIME_LIMIT = envint("CELERY_TASK_TIME_LIMIT", "600")
CELERY_TASK_SOFT_TIME_LIMIT = envint("CELERY_TASK_SOFT_TIME_LIMIT", "540")
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
# Jobs that must follow a committed write wait in the outbox (outbox/) until they have run; the sweeper sends
# again any whose lease ran out (broker down, worker killed, database lost by the worker). Leases per task:
# settlement is quick and a dealer waits for it; an analysis takes longer, and a second copy would redo it.
OUTBOX_SWEEP_SECONDS = envint("OUTBOX_SWEEP_SECONDS", "5")
OUTBOX_LEASES = {
    "tables.settle_round": envint("OUTBOX_SETTLEMENT_LEASE_SECONDS", "10"),
    "paytables.analyze_paytable": envint("OUTBOX_ANALYSIS_LEASE_SECONDS", "60"),
    "floor.refresh_table_hour": envint("OUTBOX_REPORTS_LEASE_SECONDS", "20"),
}
# After a failed send, this process gives up sending at once for this long (casino/broker.py).
BROKER_DOWN_SECONDS = envint("BROKER_DOWN_SECONDS", "5")
# How often the whole audit hash chain is verified; the compliance screens turn amber after twice this.
AUDIT_VERIFY_SECONDS = envint("AUDIT_VERIFY_SECONDS", "900")
AUDIT_STRAGGLER_SECONDS = envint("AUDIT_STRAGGLER_SECONDS", "15")
CELERY_BEAT_SCHEDULE = {
    "outbox-sweep": {
        "task": "outbox.sweep",
        "schedule": float(OUTBOX_SWEEP_SECONDS),
        # A worker that was away finds one sweep to run, not every one beat sent meanwhile. django-celery-beat's
        # DatabaseScheduler reads `expire_seconds`, Celery's own schedulers `expires`.
        "options": {"expires": 2 * OUTBOX_SWEEP_SECONDS, "expire_seconds": 2 * OUTBOX_SWEEP_SECONDS},
    },
    # Seals events a lost seal_chain left behind and runs the compliance exception rules over them.
    "audit-seal-stragglers": {
        "task": "audit.tasks.seal_stragglers",
        "schedule": float(AUDIT_STRAGGLER_SECONDS),
        "options": {"expires": 2 * AUDIT_STRAGGLER_SECONDS, "expire_seconds": 2 * AUDIT_STRAGGLER_SECONDS},
    },
    # Seals events a lost seal_chain left behind, then recomputes the whole audit hash chain.
    "audit-verify-chain": {"task": "audit.tasks.verify_chain", "schedule": float(AUDIT_VERIFY_SECONDS)},
    # Each morning, from an hour after the gaming day ends: the compliance summary of that day (kept, page/CSV/PDF).
    # Asked every quarter hour and made once (the job waits out the hour and keeps a report it made): an interval,
    # not a crontab, so these settings import nothing of Celery (manage.py analyze_paytable starts without it).
    "audit-daily-compliance-report": {"task": "reports.audit.daily_compliance_report", "schedule": 900.0},
}
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
    CELERY_TASK_ACKS_LATE = True
    CELERY_TASK_REJECT_ON_WORKER_LOST = True
    CELERY_WORKER_PREFETCH_MULTIPLIER = 1
    # Redis consumes priority 0 first: jobs someone waits for (round settlement) are sent at 0, the rest
    # (audit sealing after every commit, analyses) default to 5 so a backlog of them never delays a payout.
    CELERY_TASK_DEFAULT_PRIORITY = 5
    # Longer than the longest task, or an unacknowledged task is redelivered while it still runs.
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {
        "visibility_timeout": envint("CELERY_VISIBILITY_TIMEOUT", "3600")
    }
    # Every broker and result key starts with this, so several deployments, a rehearsal or CI runs can share one
    # Redis database and each can remove exactly its own keys.
    CELERY_KEY_PREFIX = envstr("CELERY_KEY_PREFIX")
    CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS: dict[str, object] = {}
    if CELERY_KEY_PREFIX:
        CELERY_BROKER_TRANSPORT_OPTIONS["global_keyprefix"] = CELERY_KEY_PREFIX
        CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS["global_keyprefix"] = CELERY_KEY_PREFIX
    CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
else:
    # A host in the URL: kombu warns "No hostname was supplied" on every job otherwise (the host is ignored).
    CELERY_BROKER_URL = "memory://localhost/"
    CELERY_RESULT_BACKEND = "cache+memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True

# Audit trail: payouts at or above this are "large" in the exception report; the round replay verdict
# provider is a dotted path to a function (round_id: int) -> {"ok": bool, "differences": [...]}.
# Compliance exception rules (audit/exception_rules.py): a payout at or above the reporting threshold (default
# $1,200, the US W-2G level); a seat paid at least the cash-reporting threshold in one gaming day (default
# $10,000); a paytable put in use with a theoretical return outside [min, max]; a round settled more than
# AUDIT_LATE_SETTLEMENT_SECONDS after its rows.
AUDIT_REPORTING_THRESHOLD_CENTS = envint("AUDIT_REPORTING_THRESHOLD_CENTS", "120000")
AUDIT_CASH_REPORTING_THRESHOLD_CENTS = envint("AUDIT_CASH_REPORTING_THRESHOLD_CENTS", "1000000")
AUDIT_PAYTABLE_RETURN_MIN = envstr("AUDIT_PAYTABLE_RETURN_MIN", "0.85")
AUDIT_PAYTABLE_RETURN_MAX = envstr("AUDIT_PAYTABLE_RETURN_MAX", "1.0")
AUDIT_LATE_SETTLEMENT_SECONDS = envint("AUDIT_LATE_SETTLEMENT_SECONDS", "60")
# Without a broker (the embedded demo) the beat schedule runs in a thread of the web process (audit/local_beat.py).
AUDIT_LOCAL_BEAT = envbool("AUDIT_LOCAL_BEAT", "True")
AUDIT_ROUND_VERDICT = envstr("AUDIT_ROUND_VERDICT", "tables.selectors.records.round_replay_verdict")
# What happened in a round (seats, bets, cards, results, payouts), and each seat's payout per round, for the
# compliance timeline and exception rules: dotted paths, as audit never imports tables.
AUDIT_ROUND_SUMMARY = envstr("AUDIT_ROUND_SUMMARY", "tables.selectors.round_summary.round_summary")
AUDIT_ROUND_PAYOUTS = envstr("AUDIT_ROUND_PAYOUTS", "tables.selectors.round_summary.round_payouts")
# A paytable's name and version for audit text that recorded its id ("Paytable: Double Bonus 10/7 v1 (#7)").
AUDIT_PAYTABLE_NAME = envstr("AUDIT_PAYTABLE_NAME", "paytables.selectors.paytable_name")
# The names screens give a table's stored codes, for audit text ("Card source: Dealer-entered cards", not "manual").
AUDIT_CODE_NAME = envstr("AUDIT_CODE_NAME", "tables.selectors.code_names.code_name")
# A round's DESIGN 9 record (what replay_round reads), for the round record's download.
AUDIT_ROUND_RECORD = envstr("AUDIT_ROUND_RECORD", "tables.selectors.records.round_record")
# A home game's and a home hand's timeline (their events in order, the replay verdict) for the audit API's
# audit/games/{id}/ and audit/hands/{id}/: dotted paths, as for rounds.
AUDIT_HOME_GAME_TIMELINE = envstr("AUDIT_HOME_GAME_TIMELINE", "tables.selectors.home_timeline.game_timeline")
AUDIT_HOME_HAND_TIMELINE = envstr("AUDIT_HOME_HAND_TIMELINE", "tables.selectors.home_timeline.hand_timeline")
# The trail's "Home game" filter (compliance list, CSV, API): the events of a game, its hands and its players.
AUDIT_HOME_GAME_EVENTS = envstr("AUDIT_HOME_GAME_EVENTS", "tables.selectors.home_timeline.game_events_chosen")
# The compliance timeline of an event's object, by its object_type: the URL name, reversed with the object's id (the
# trail, an event and an exception link a home-game hand or game to its timeline and replay verdict).
AUDIT_OBJECT_TIMELINES = {"tables.homehand": "home-compliance:hand", "tables.homegame": "home-compliance:game",
                          "tables.homegameplayer": "home-compliance:player"}
# The gaming day (floor/gaming_day.py): the compliance filters, daily report and cash-reporting totals use it.
AUDIT_GAMING_DAY = envstr("AUDIT_GAMING_DAY", "floor.gaming_day.gaming_day")
AUDIT_GAMING_DAY_WINDOW = envstr("AUDIT_GAMING_DAY_WINDOW", "floor.gaming_day.day_window")
AUDIT_TRUST_X_FORWARDED_FOR = envbool("AUDIT_TRUST_X_FORWARDED_FOR", "False")
# Each good chain check's head is signed with this key (HMAC-SHA256) and logged, and appended to the file when
# set; `verify_audit --anchors FILE` compares the chain with them. Keep the key out of the database's reach.
AUDIT_ANCHOR_KEY = envstr("AUDIT_ANCHOR_KEY")
AUDIT_ANCHOR_FILE = envstr("AUDIT_ANCHOR_FILE")

LOG_LEVEL = envloglevel("LOG_LEVEL", "INFO")

def _shifts_from_env(day_start: int) -> tuple[tuple[str, int], ...]:
    """FLOOR_SHIFTS "day:6,swing:14,grave:22" -> (("day", 6), ...) in gaming-day order; one starts the gaming day."""
    raw = envlist("FLOOR_SHIFTS", "day:6,swing:14,grave:22")
    shifts: list[tuple[str, int]] = []
    for item in raw:
        code, _, hour = item.partition(":")
        code = code.strip().lower()
        if not code.isidentifier() or not hour.strip().isdigit() or not 0 <= int(hour) <= 23:
            sys.exit(f"FLOOR_SHIFTS: expected name:start-hour items like day:6, got {item!r}")
        shifts.append((code, int(hour)))
    codes, hours = [code for code, _ in shifts], [hour for _, hour in shifts]
    if len(set(codes)) != len(codes) or len(set(hours)) != len(hours) or day_start not in hours:
        sys.exit(
            f"FLOOR_SHIFTS: {','.join(raw)!r} needs distinct names and hours, one of them the gaming day's start "
            f"(FLOOR_GAMING_DAY_START_HOUR={day_start})"
        )
    return tuple(sorted(shifts, key=lambda shift: (shift[1] - day_start) % 24))


def _denominations_from_env() -> tuple[int, ...]:
    """FLOOR_CHIP_DENOMINATIONS_CENTS "100,500,2500" -> (100, 500, 2500): the chips a table's tray holds, in cents."""
    raw = envlist("FLOOR_CHIP_DENOMINATIONS_CENTS", "100,500,2500,10000,50000,100000")
    if not raw or not all(item.isdigit() and int(item) > 0 for item in raw):
        sys.exit(f"FLOOR_CHIP_DENOMINATIONS_CENTS: expected positive whole cents like 100,500, got {','.join(raw)!r}")
    return tuple(sorted({int(item) for item in raw}))


# Floor operations (floor app): the gaming day starts at this local hour and is cut into shifts at whole hours;
# chip denominations counted in inventories, fills and credits; count win vs system win is flagged beyond the
# tolerance; a table open with no action for FLOOR_IDLE_MINUTES and a round settling for longer than
# FLOOR_STUCK_SETTLEMENT_SECONDS raise alerts on the live floor view.
FLOOR_GAMING_DAY_START_HOUR = envint("FLOOR_GAMING_DAY_START_HOUR", "6")
if not 0 <= FLOOR_GAMING_DAY_START_HOUR <= 23:
    sys.exit(f"FLOOR_GAMING_DAY_START_HOUR: expected an hour 0-23, got {FLOOR_GAMING_DAY_START_HOUR}")
FLOOR_SHIFTS = _shifts_from_env(FLOOR_GAMING_DAY_START_HOUR)
FLOOR_CHIP_DENOMINATIONS_CENTS = _denominations_from_env()
FLOOR_WIN_TOLERANCE_CENTS = envint("FLOOR_WIN_TOLERANCE_CENTS", "10000")
# A paytable returning less than this (or more than 100 %) is approved only with an explicit override reason.
PAYTABLE_RETURN_FLOOR = envfloat("PAYTABLE_RETURN_FLOOR", "0.80")
if not 0 < PAYTABLE_RETURN_FLOOR <= 1:
    sys.exit(f"PAYTABLE_RETURN_FLOOR: expected a fraction in (0, 1] (0.80 is 80 %), got {PAYTABLE_RETURN_FLOOR}")
FLOOR_IDLE_MINUTES = envint("FLOOR_IDLE_MINUTES", "20")
FLOOR_STUCK_SETTLEMENT_SECONDS = envint("FLOOR_STUCK_SETTLEMENT_SECONDS", "120")
# Dotted path of the home-game figures source (floor/sources.py describes it); empty: no home-game figures.
FLOOR_HOME_FIGURES = envstr("FLOOR_HOME_FIGURES", "floor.home_ledger.home_figures")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {
            "()": "casino.logs.ZonedFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s",
            "zone": TIME_ZONE,
        }
    },
    "filters": {"client_errors": {"()": "casino.logs.ClientErrorsOnOneLine"}},
    "handlers": {
        "stdout": {
            "class": "logging.StreamHandler",
            "stream": sys.stdout,
            "formatter": "plain",
            "filters": ["client_errors"],
        }
    },
    "root": {"handlers": ["stdout"], "level": LOG_LEVEL},
    "loggers": {
        # Django's own console and runserver handlers would print each request warning a second time, in
        # another format: every Django logger goes through the one handler above.
        "django": {"handlers": ["stdout"], "level": LOG_LEVEL, "propagate": False},
        "django.server": {"handlers": ["stdout"], "level": LOG_LEVEL, "propagate": False},
        "django.db.backends": {"level": "WARNING"},
        # axes: lockouts are warnings; its INFO line on every successful sign-in is noise (the trail has sign-ins).
        "axes": {"level": "WARNING"},
        # Embedded mode runs every job inside the request: a line per job would bury the requests.
        # Failures still log (ERROR); a real worker logs its jobs as usual.
        **({"celery.app.trace": {"level": "WARNING"}} if CELERY_TASK_ALWAYS_EAGER else {}),
    },
}
