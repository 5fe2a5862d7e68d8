"""Django settings, read from the environment (see deploy/env.example for every variable)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from urllib.parse import urlsplit

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
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "django_celery_beat",
    "audit",
    "paytables",
    "tables",
    "floor",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "audit.middleware.AuditContextMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
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
            ],
        },
    },
]


def _database_from_env() -> dict[str, object]:
    url = envstr("DATABASE_URL")
    if not url:
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": BASE_DIR / "db.sqlite3",
            # SQLite serialises writers; waiting beats failing with "database is locked".
            "OPTIONS": {"timeout": 20},
        }
    import dj_database_url

    try:
        config: dict[str, object] = dict(dj_database_url.parse(url, conn_max_age=600, conn_health_checks=True))
    except Exception as exc:  # dj_database_url raises several types; all mean the same to an operator
        sys.exit(f"DATABASE_URL: cannot parse {url!r}: {exc}")
    if not config.get("NAME") or not config.get("ENGINE"):
        sys.exit(f"DATABASE_URL: cannot parse {url!r}: no database name")
    return config


DATABASES = {"default": _database_from_env()}
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

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = envstr("TIME_ZONE", "America/Los_Angeles")
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
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

REST_FRAMEWORK = {
    # Token first: an unauthenticated API call then gets 401 with WWW-Authenticate, not a bare 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "EXCEPTION_HANDLER": "casino.api_errors.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Triple Draw casino table-game API",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "casino.openapi.add_error_responses",
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
CELERY_BEAT_SCHEDULE = {
    "audit-seal-stragglers": {"task": "audit.tasks.seal_stragglers", "schedule": 60.0},
    # Seals events a lost seal_chain left behind, then recomputes the whole audit hash chain.
    "audit-verify-chain": {"task": "audit.tasks.verify_chain", "schedule": envint("AUDIT_VERIFY_SECONDS", "900")},
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
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": envint("CELERY_VISIBILITY_TIMEOUT", "3600")}
    CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
else:
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = "cache+memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True

# Audit trail: payouts at or above this are "large" in the exception report; the round replay verdict
# provider is a dotted path to a function (round_id: int) -> {"ok": bool, "differences": [...]}.
AUDIT_LARGE_PAYOUT_CENTS = envint("AUDIT_LARGE_PAYOUT_CENTS", "1000000")
AUDIT_ROUND_VERDICT = envstr("AUDIT_ROUND_VERDICT", "tables.selectors.records.round_replay_verdict")
AUDIT_TRUST_X_FORWARDED_FOR = envbool("AUDIT_TRUST_X_FORWARDED_FOR", "False")


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
FLOOR_IDLE_MINUTES = envint("FLOOR_IDLE_MINUTES", "20")
FLOOR_STUCK_SETTLEMENT_SECONDS = envint("FLOOR_STUCK_SETTLEMENT_SECONDS", "120")
# Dotted path of the home-game figures source (floor/sources.py describes it); empty until home-game tables land.
FLOOR_HOME_FIGURES = envstr("FLOOR_HOME_FIGURES", "")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"stdout": {"class": "logging.StreamHandler", "stream": sys.stdout, "formatter": "plain"}},
    "root": {"handlers": ["stdout"], "level": envstr("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}
