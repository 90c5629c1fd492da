"""Kaiser League settings: one module, everything that varies comes from the environment.

Embedded default (no variables set): SQLite in WAL mode, Celery eager, console e-mail, DEBUG on.
A club server sets DATABASE_URL, CELERY_BROKER_URL, SECRET_KEY and DJANGO_DEBUG=false.
"""

from __future__ import annotations

import os
from email.utils import parseaddr
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from kaiser_league.logs import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    if raw.lower() in {"1", "true", "yes", "on"}:
        return True
    if raw.lower() in {"0", "false", "no", "off"}:
        return False
    raise ValueError(f"{name} must be true or false, got {raw!r}")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    return default if raw is None or raw == "" else int(raw)


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG", True)
_DEV_SECRET = "dev-only-insecure-key-never-use-in-production-kaiser-league-0123456789"
SECRET_KEY = env_str("SECRET_KEY", _DEV_SECRET if DEBUG else "")
if not SECRET_KEY:
    raise RuntimeError("SECRET_KEY must be set when DJANGO_DEBUG is false")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# The address other devices open the links this server shows (table links and their QR codes,
# invitations), e.g. http://192.168.1.20:8000 on a hall laptop whose own browser uses
# 127.0.0.1; empty: the address each request came in on (`kaiser_league.http.absolute_url`).
PUBLIC_BASE_URL = env_str("PUBLIC_BASE_URL", "").rstrip("/")
if PUBLIC_BASE_URL and not PUBLIC_BASE_URL.startswith(("http://", "https://")):
    raise RuntimeError("PUBLIC_BASE_URL must start with http:// or https://")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "django_tables2",
    "axes",
    # The rooms, lowest first (CONTRIBUTING.md, "Map"); `leagues` is the assembly that wires them.
    "leagues.clubs",
    "scorecards",
    "leagues.standings",
    "leagues.tournaments",
    "leagues",
]

MIDDLEWARE = [
    # First: every log line of the request carries its id, the health check included.
    "kaiser_league.ops_middleware.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before anything reads the Host header (a probe from 127.0.0.1 names no allowed host);
    # the security middleware above does not for /healthz (SECURE_REDIRECT_EXEMPT).
    "kaiser_league.ops_middleware.HealthCheckMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.gzip.GZipMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "kaiser_league.middleware.ContentSecurityPolicyMiddleware",
    "kaiser_league.ops_middleware.PermissionsPolicyMiddleware",
    "kaiser_league.middleware.SignInRedirectMiddleware",
    # A view that fails because the database or the broker is down answers 503, Retry-After.
    "kaiser_league.ops_middleware.FaultMiddleware",
    # Last, so that a locked-out login is refused before the view runs.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "kaiser_league.urls"
WSGI_APPLICATION = "kaiser_league.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "kaiser_league.context_processors.signup",
            ],
            "builtins": ["template_partials.templatetags.partials"],
        },
    }
]
# --- Database -------------------------------------------------------------------------------
# Persistent connections matter on SQLite too: every new connection pays a WAL checkpoint.
CONN_MAX_AGE = env_int("CONN_MAX_AGE", 600)
DATABASE_URL = env_str("DATABASE_URL")
DB_STATEMENT_TIMEOUT = env_int("DB_STATEMENT_TIMEOUT", 5)  # a request's, then 503 (budget.py)
DB_COMMAND_STATEMENT_TIMEOUT = env_int("DB_COMMAND_STATEMENT_TIMEOUT", 600)  # commands, worker
if DATABASE_URL:
    DATABASES = {
        "default": dj_database_url.parse(
            DATABASE_URL, conn_max_age=CONN_MAX_AGE, conn_health_checks=True
        )
    }
    _budget = {"options": f"-c statement_timeout={DB_STATEMENT_TIMEOUT}s"}  # libpq: no query
    DATABASES["default"]["OPTIONS"] = DATABASES["default"].get("OPTIONS", {}) | _budget
else:
    DATABASES = {
        "default": {
            # Django's SQLite backend with the writers queued by a file lock, so a writer
            # goes on the moment the one before it commits (kaiser_league/sqlite_queue).
            "ENGINE": "kaiser_league.sqlite_queue",
            "NAME": env_str("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            "CONN_MAX_AGE": CONN_MAX_AGE,
            "CONN_HEALTH_CHECKS": True,
            "OPTIONS": {
                # IMMEDIATE takes the write lock at BEGIN, so two writers queue on busy_timeout
                # instead of one failing with "database is locked" half-way through a hand.
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                # cache_size: 32 MiB of pages a connection (it lives CONN_MAX_AGE), not 2: a
                # big season's games lie all over its file (see bench/RESULTS.md).
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
                " PRAGMA foreign_keys=ON; PRAGMA busy_timeout=20000; PRAGMA cache_size=-32768;",
            },
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
SESSION_ENGINE = "kaiser_league.sessions"  # database sessions, read by a compiled statement

# --- Cache ----------------------------------------------------------------------------------
CACHE_URL = env_str("CACHE_URL")
CACHES: dict[str, dict[str, Any]] = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}
        if CACHE_URL
        else {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            # The sheet keeps a rendered row per hand (about 1 KB): a night of 40 tables must
            # not push its own rows out (the default is 300 entries).
            "OPTIONS": {"MAX_ENTRIES": 20_000},
        }
    )
}

# Several web processes must share one cache: a page must never depend on which process answers
# it. Caches that keep nothing between processes (their memory is their own) are refused then.
PER_PROCESS_CACHES = frozenset({"django.core.cache.backends.locmem.LocMemCache"})
# gunicorn's worker count, as deploy/gunicorn.conf.py reads it (its default: two per core).
# gunicorn.conf.py passes the count it really starts (a --workers flag included) to its workers.
WEB_CONCURRENCY = env_int("WEB_CONCURRENCY", 2 * (os.cpu_count() or 1))


def per_process_cache_refusal(
    *, debug: bool, caches: dict[str, dict[str, Any]], workers: int
) -> str | None:
    """Why production must not start with these settings (None when it may): `workers` web
    processes, DEBUG off, and a cache that each process keeps in its own memory. Each process
    would then show what it kept, not what the others wrote. DEBUG is the development server
    (`make run`, one process); one worker has no one to disagree with."""
    if debug or workers <= 1:
        return None
    backends = sorted({conf.get("BACKEND", "") for conf in caches.values()} & PER_PROCESS_CACHES)
    if not backends:
        return None
    kept = ", ".join(backend.rsplit(".", 1)[-1] for backend in backends)
    return (
        f"WEB_CONCURRENCY={workers} web processes with DJANGO_DEBUG=false would each keep their "
        f"own cache ({kept}) and show different pages: set CACHE_URL to a shared cache "
        "(e.g. CACHE_URL=redis://127.0.0.1:6379/1, see deploy/kaiser.env.example), "
        "or run a single web process (WEB_CONCURRENCY=1)."
    )


# Only for measuring on one machine without Redis (bench/): every cache left is keyed by what it
# shows, so pages stay right, but each process warms its own copy. Never on a club server.
_refusal = per_process_cache_refusal(debug=DEBUG, caches=CACHES, workers=WEB_CONCURRENCY)
if _refusal and not env_bool("ALLOW_PER_PROCESS_CACHE", False):
    raise ImproperlyConfigured(_refusal)

# --- Auth -----------------------------------------------------------------------------------
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
# Anyone may create an account only when SIGNUP_OPEN (by default on the development server
# only): on a club server people come in through an invitation link, which still lets them
# create their account.
SIGNUP_OPEN = env_bool("SIGNUP_OPEN", DEBUG)
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Login throttling (kaiser_league/throttle.py): 5 failures per username and address pair, and
# KAISER_LOGIN_ADDRESS_LIMIT per address across usernames, forgotten after 15 minutes.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
KAISER_LOGIN_ADDRESS_LIMIT = env_int("KAISER_LOGIN_ADDRESS_LIMIT", 20)
AXES_COOLOFF_TIME = 0.25  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_ENABLED = env_bool("AXES_ENABLED", True)
AXES_HANDLER = "kaiser_league.throttle.KaiserAxesHandler"
AXES_LOCKOUT_CALLABLE = "kaiser_league.throttle.lockout_response"
# The client address, through django-ipware as axes does it: behind N reverse proxies that each
# append to X-Forwarded-For (deploy/: one, nginx), the address the nearest one saw. 0: no proxy,
# REMOTE_ADDR (a forged X-Forwarded-For is then ignored).
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
if TRUSTED_PROXY_COUNT:
    AXES_IPWARE_PROXY_COUNT = TRUSTED_PROXY_COUNT
    AXES_IPWARE_PROXY_ORDER = "right-most"
    AXES_IPWARE_META_PRECEDENCE_ORDER: tuple[str, ...] = ("HTTP_X_FORWARDED_FOR", "REMOTE_ADDR")
else:
    AXES_IPWARE_META_PRECEDENCE_ORDER = ("REMOTE_ADDR",)

# --- I18n -----------------------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("fr", _("French"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "America/Regina")
USE_I18N = True
USE_TZ = True

# --- Static files ---------------------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
# WhiteNoise does not know the web manifest's type (Python's mimetypes, used by runserver, does).
WHITENOISE_MIMETYPES = {".webmanifest": "application/manifest+json"}
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# --- E-mail ---------------------------------------------------------------------------------
EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Kaiser League <noreply@localhost>")

# --- Celery ---------------------------------------------------------------------------------
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL")
# No broker configured means the embedded default: tasks run in the caller, no services needed.
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", not CELERY_BROKER_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Every task's limits (no task sets its own): a season's full rebuild stays far below them.
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 600)
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 540)
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
# Fail fast when the broker is down: a hand submit must never wait on it.
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_BROKER_TRANSPORT_OPTIONS = {"max_retries": 1, "socket_connect_timeout": 2}
CELERY_TIMEZONE = TIME_ZONE

# --- Security (production: DJANGO_DEBUG=false) ----------------------------------------------
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
)
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    # The preload flag does nothing until the domain is submitted to the browsers' list; a club
    # host serving plain HTTP sub-domains sets SECURE_HSTS_PRELOAD=false.
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    # The load balancer's and systemd's health probes speak plain HTTP to 127.0.0.1.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

# --- Logs and error reports -------------------------------------------------------------------
# One format for Django, gunicorn (deploy/gunicorn.conf.py) and Celery: UTC with its zone, the
# request id on each line; LOG_FORMAT=json for one JSON object per line (kaiser_league/logs.py).
LOG_FORMAT = env_str("LOG_FORMAT", "text")
LOGGING = logging_config(
    log_format=LOG_FORMAT, level=env_str("LOG_LEVEL", "INFO"), mail_admins=True
)
# Celery keeps Django's logging instead of installing its own format (local time, no zone).
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# ADMINS="Ann <ann@example.org>,bob@example.org" (quoted for a shell): who is mailed each
# server error (500) with its traceback, through EMAIL_BACKEND. Empty: nobody is mailed.
ADMINS = [(name or address, address) for name, address in map(parseaddr, env_list("ADMINS", []))]
SERVER_EMAIL = env_str("SERVER_EMAIL", DEFAULT_FROM_EMAIL)
# Sentry: only with SENTRY_DSN set and sentry-sdk installed (it is not a requirement); nothing
# leaves the server otherwise. No personal data is sent (send_default_pii off).
SENTRY_DSN = env_str("SENTRY_DSN")
if SENTRY_DSN:
    try:
        import sentry_sdk
    except ImportError as missing:
        raise ImproperlyConfigured(
            "SENTRY_DSN is set but sentry-sdk is not installed: pip install sentry-sdk"
        ) from missing
    sentry_sdk.init(
        dsn=SENTRY_DSN,
        environment=env_str("SENTRY_ENVIRONMENT", "production"),
        send_default_pii=False,
        traces_sample_rate=0.0,
    )
# What the site never uses (kaiser_league/ops_middleware.py).
PERMISSIONS_POLICY = (
    "accelerometer=(), autoplay=(), camera=(), display-capture=(), geolocation=(), "
    "gyroscope=(), magnetometer=(), microphone=(), midi=(), payment=(), usb=(), "
    "interest-cohort=()"
)

# --- Standings and ratings --------------------------------------------------------------------
# Beat (no broker: leagues.standings.runner) repairs rebuilds lost or never queued, in <= 60 s.
CELERY_BEAT_SCHEDULE = {
    "derived-data-reconcile": {
        "task": "leagues.derived_data_reconcile",
        "schedule": env_int("DERIVED_DATA_RECONCILE_SECONDS", 60),
    },
    # /healthz?deep=1 wants a heartbeat younger than WORKER_HEARTBEAT_MAX_AGE.
    "worker-heartbeat": {
        "task": "kaiser_league.worker_heartbeat",
        "schedule": env_int("WORKER_HEARTBEAT_SECONDS", 20),
    },
    "sessions-purge": {"task": "kaiser_league.sessions_purge", "schedule": 6 * 3600},
    "login-attempts-purge": {"task": "kaiser_league.login_attempts_purge", "schedule": 6 * 3600},
    "club-backups": {
        "task": "leagues.club_backups_write",
        "schedule": env_int("BACKUP_EVERY_SECONDS", 24 * 3600),
    },
}
# kaiser_league is not an app: its tasks are imported by name.
CELERY_IMPORTS = ["kaiser_league.tasks"]
WORKER_HEARTBEAT_MAX_AGE = env_int("WORKER_HEARTBEAT_MAX_AGE", 60)
# Login attempts and login records kept this many days (a lockout itself lasts 15 minutes).
LOGIN_RECORDS_KEEP_DAYS = env_int("LOGIN_RECORDS_KEEP_DAYS", 30)
# Club backups written by beat (leagues.backup.periodic): where, and how many days kept (the
# newest of each club always stays). Empty BACKUP_DIR: none written.
BACKUP_DIR = env_str("BACKUP_DIR", str(BASE_DIR / "backups"))
BACKUP_KEEP_DAYS = env_int("BACKUP_KEEP_DAYS", 14)

# --- Load and faults --------------------------------------------------------------------------
# A refused CSRF check answers the hand outbox in JSON, naming the field, like other refusals.
CSRF_FAILURE_VIEW = "kaiser_league.errors.csrf_failure"
# Seconds a request may spend publishing to the broker (connect, and each socket read/write):
# a broker that is down or hung costs a hand submit at most about this (leagues.standings.services).
BROKER_PUBLISH_TIMEOUT = float(os.environ.get("BROKER_PUBLISH_TIMEOUT", "0.5"))
