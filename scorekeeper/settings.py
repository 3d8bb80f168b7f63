"""Django settings for Scorekeeper.

Everything that differs between machines comes from the environment (see README,
"Configuration"). With no environment at all the app runs in its embedded default:
SQLite in WAL mode under ``var/`` and Celery tasks executed in-process.
"""

import os
from pathlib import Path
from typing import Any

import environ
from csp.constants import NONE, SELF
from django.core.management.utils import get_random_secret_key

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"
VAR_DIR.mkdir(exist_ok=True)

env = environ.Env()

# --- Core -----------------------------------------------------------------------------------

DEBUG = env.bool("DEBUG", default=False)


def _persistent_secret_key(path: Path) -> str:
    """Read the git-ignored ``var/secret_key``, creating it once with a random key."""
    try:
        return path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        pass
    key = get_random_secret_key()
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process won the race: use its key
        return path.read_text(encoding="utf-8").strip()
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(key + "\n")
    return key


SECRET_KEY = env.str("SECRET_KEY", default="") or _persistent_secret_key(VAR_DIR / "secret_key")

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "csp",
    "allauth",
    "allauth.account",
    "scorekeeper",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "scorekeeper.middleware.RequestLimitsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "scorekeeper.middleware.RolesRememberedMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "scorekeeper.middleware.FormAddressMiddleware",
]

# Request bodies: larger ones are answered 413, JSON nested deeper 400 (scorekeeper/middleware.py).
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("MAX_BODY_BYTES", default=1024 * 1024)
MAX_JSON_DEPTH = env.int("MAX_JSON_DEPTH", default=32)

ROOT_URLCONF = "scorekeeper.urls"
WSGI_APPLICATION = "scorekeeper.wsgi.application"
ASGI_APPLICATION = "scorekeeper.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
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

# --- Database -------------------------------------------------------------------------------

SQLITE_OPTIONS: dict[str, Any] = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;",
}

if env.str("DATABASE_URL", default=""):
    _db: dict[str, Any] = env.db_url("DATABASE_URL")
else:
    _db = {"ENGINE": "django.db.backends.sqlite3", "NAME": str(VAR_DIR / "db.sqlite3")}

if _db["ENGINE"] == "django.db.backends.sqlite3":
    _db["OPTIONS"] = {**SQLITE_OPTIONS, **_db.get("OPTIONS", {})}
    # Tests use a file (not :memory:) so WAL and the init_command really apply.
    _db["TEST"] = {"NAME": str(VAR_DIR / "test_db.sqlite3")}
else:
    # Connections kept open between requests (a new one per request roughly halves the
    # throughput of the deal write path), checked before each request reuses them.
    _db["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
    _db["CONN_HEALTH_CHECKS"] = _db["CONN_MAX_AGE"] != 0
    # The ORM's statements are never prepared (Django binds their values on the client):
    # psycopg need not keep count of them.
    _db.setdefault("OPTIONS", {}).setdefault("prepare_threshold", None)
# The hot statements of the game's read and the deal's write (scorekeeper.statements) are
# prepared once a connection has run one this many times (PostgreSQL). None: never, behind a
# pooler that cannot keep prepared statements (e.g. PgBouncer before 1.21 in transaction mode).
HOT_STATEMENTS_PREPARE_AFTER = 5 if env.bool("DB_PREPARED_STATEMENTS", default=True) else None
# Services own their transactions; no implicit per-request transaction.
_db["ATOMIC_REQUESTS"] = False

DATABASES = {"default": _db}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache (shared by every worker process: rate limits) -------------------------------------

# Redis when CACHE_URL names it (e.g. redis://127.0.0.1:6379/1), else a database table.
CACHES = {"default": env.cache_url("CACHE_URL", default="dbcache://scorekeeper_cache")}
if CACHES["default"]["BACKEND"].endswith("RedisCache"):
    # An unreachable Redis answers within a second instead of holding the request.
    CACHES["default"].setdefault("OPTIONS", {}).update(
        {"socket_connect_timeout": 1, "socket_timeout": 1}
    )

# --- Auth -----------------------------------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Accounts (django-allauth, accounts only): sign up with an email address that must be
# verified, sign in with the username or the address, reset and change by email.
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
ACCOUNT_ADAPTER = "scorekeeper.accounts.AccountAdapter"
ACCOUNT_FORMS = {"login": "scorekeeper.accounts.LoginForm"}
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_CHANGE_EMAIL = True
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_SESSION_REMEMBER = True
ACCOUNT_EMAIL_SUBJECT_PREFIX = "Scorekeeper: "
# Failed sign-ins, counted in the cache (OWASP ASVS 2.2.1: at most 100 an hour per account):
# LOGIN_ATTEMPTS a quarter of an hour per account (so at most 4 x LOGIN_ATTEMPTS an hour;
# username and email count together, see scorekeeper.accounts), and
# LOGIN_ATTEMPTS_PER_ADDRESS a quarter of an hour from one address: generous, since a
# club room shares one address and one member's typos must not lock out the others. The
# API's token endpoint counts on the same keys.
LOGIN_ATTEMPTS = env.int("LOGIN_ATTEMPTS", default=10)
LOGIN_ATTEMPTS_PER_ADDRESS = env.int("LOGIN_ATTEMPTS_PER_ADDRESS", default=100)
ACCOUNT_RATE_LIMITS = {
    "login_failed": f"{LOGIN_ATTEMPTS_PER_ADDRESS}/15m/ip,{LOGIN_ATTEMPTS}/15m/key",
    # "Send the verification email again" (pages.member_views.verification_resend), on top
    # of allauth's cooldown per address.
    "verification_resend": "10/m/ip",
}

# --- I18N / time ----------------------------------------------------------------------------

LANGUAGE_CODE = "en-us"
TIME_ZONE = env.str("TIME_ZONE", default="UTC")  # times shown on pages, e.g. Europe/London
USE_I18N = True
# The site's wording of the account pages (django-allauth's) in sentence case: locale/.
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_TZ = True

# --- Static files (served by WhiteNoise) ----------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# --- REST API -------------------------------------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "scorekeeper.api.schema.Schema",
    # Token first: its WWW-Authenticate challenge makes "not logged in" a 401, not a 403.
    # Session authentication enforces CSRF on unsafe methods.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "scorekeeper.api.limits.LimitedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # Secure by default: every API view needs a logged-in caller unless it says otherwise.
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # One error format for every API response: {"error": {code, message, field, deal, details}}.
    "EXCEPTION_HANDLER": "scorekeeper.api.errors.exception_handler",
    # Rate limits (scorekeeper/api/limits.py), counted in the shared cache per client address.
    "DEFAULT_THROTTLE_RATES": {
        "auth_token": env.str("API_TOKEN_RATE", default="20/minute"),
        "bad_token": env.str("API_BAD_TOKEN_RATE", default="20/minute"),
    },
    # How many proxies in front add to X-Forwarded-For; 0: the header is not believed.
    "NUM_PROXIES": env.int("NUM_PROXIES", default=0),
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Scorekeeper API",
    "DESCRIPTION": """Score-keeping and tournaments for whist-family card games.

**Authentication.** `POST /api/v1/auth/token/` with a username and password returns a token;
send it as `Authorization: Token <token>`. `DELETE /api/v1/auth/token/` revokes it (a revoked
token gets 401). Browser sessions work too; they must send the CSRF token on writes.

**Ids and visibility.** Paths take numeric ids (`{club_id}`, `{game_id}`, `{season_id}`) and
deal numbers (1, 2, 3, ...), and end with a slash. A club's data is visible to its members
only: a logged-in caller who is not a member gets 404, as if it did not exist. An anonymous
caller gets 401 everywhere, except for the standings of a club that publishes its results.
Ids the caller cannot see, given in a request body, are refused with 400 naming the field.

**Errors.** Every error has one shape: `{"error": {"code", "message", "field", "deal",
"details"}}`. `field` names the field at fault (`"tricks"`, `"options.limit"`, `"number"`);
`deal` the deal's number; validation errors are all listed in `details.errors`.

**Deals.** Send an `Idempotency-Key` with every deal so retries are safe. Corrections need
`If-Match` with the deal's version, which `GET` of the deal returns as its `ETag`.
""",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # A PATCH body is its input serializer's: the fields it may leave out say so there
    # (required=False); a rename's name is required (no all-optional "Patched" copies).
    "COMPONENT_SPLIT_PATCH": False,
    # The games' keys are one enum wherever a field takes them (game_type, a trick's game).
    "ENUM_NAME_OVERRIDES": {"GameTypeEnum": "scorekeeper.api.serializers.GAME_TYPES"},
    # What to do next with what was just made: OpenAPI links (scorekeeper/api/schema.py).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "scorekeeper.api.schema.add_links",
        "scorekeeper.api.schema.closed_bodies",
    ],
    # Serve Swagger UI / Redoc from the installed sidecar package: works offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# --- Celery ---------------------------------------------------------------------------------

CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="")
# No job's result is read: none is stored unless CELERY_RESULT_BACKEND names a store.
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default="") or None
CELERY_TASK_IGNORE_RESULT = CELERY_RESULT_BACKEND is None
if CELERY_BROKER_URL:
    CELERY_TASK_ALWAYS_EAGER = False
else:
    # Embedded default: no broker, tasks run in-process and raise their errors.
    CELERY_BROKER_URL = "memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True
# A broker that is away holds a request for about a second (CELERY_BROKER_TIMEOUT), not more:
# the job stays in the outbox (scorekeeper/outbox.py) and the relay sends it later. Each
# hand-over opens its connection again when the broker comes back.
BROKER_TIMEOUT = env.float("CELERY_BROKER_TIMEOUT", default=1.0)
# A hand-over tries twice (a connection Redis dropped when it restarted is made again on the
# second try): each connection attempt gets half of the time.
CELERY_BROKER_CONNECTION_TIMEOUT = BROKER_TIMEOUT / 2
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# A job is acknowledged when it has run, not when it arrives. A worker process that dies
# holding one (killed, out of memory) gives it back at once; a whole worker that dies leaves
# it with the broker, which hands it out again after CELERY_VISIBILITY_TIMEOUT seconds. The
# jobs are idempotent, so running one twice does no harm.
CELERY_TASK_ACKS_LATE = True
# A worker that loses Redis while it runs such a job reconnects instead of exiting (see
# scorekeeper/celery.py).
CELERY_WORKER_CONSUMER = "scorekeeper.celery:Consumer"
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# No job runs longer than this (seating searches for 5 s at most); the visibility timeout
# must be longer than any job and any retry's countdown.
CELERY_TASK_TIME_LIMIT = 120
CELERY_TASK_SOFT_TIME_LIMIT = 100
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=300),
    # Look for jobs of dead workers about every 30 s.
    "unacked_restore_interval": 10,
    "unacked_restore_throttle": 3,
    # Redis that does not answer: a hand-over gives up within the timeout (the job waits in
    # the outbox); a worker waits longer (CELERY_WORKER_SOCKET_TIMEOUT) and reconnects.
    "socket_connect_timeout": BROKER_TIMEOUT / 2,
    "socket_timeout": BROKER_TIMEOUT / 2,
}
# A worker's own socket timeout (scorekeeper/celery.py sets it when the worker starts): longer
# than the 1 s BRPOP with which it waits for jobs.
CELERY_WORKER_SOCKET_TIMEOUT = max(2 * BROKER_TIMEOUT, 2.0)
# A job not done this long after it was asked for (or tried again) is shown as stuck, with a
# "try again" button: on the tournament dashboard, the club's ratings page and the admin.
JOB_STUCK_SECONDS = env.int("JOB_STUCK_SECONDS", default=60)
# A job the broker took but that is not done this long after is handed over again by the
# relay (a few times at most; the jobs are idempotent): a Redis restarted without
# persistence loses what was queued.
JOB_RESEND_SECONDS = env.int("JOB_RESEND_SECONDS", default=30)
CELERY_TIMEZONE = "UTC"
CELERY_ENABLE_UTC = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Beat (make beat): the tournament clock calls time and closes timed rounds every 15 s (a
# round closes at most that long after the deadline its clocks show; one small query).
CELERY_BEAT_SCHEDULE = {
    "tournaments-close-due-rounds": {
        "task": "tournaments.close_due_rounds",
        "schedule": 15.0,
    },
    "scorekeeper-relay-jobs": {
        "task": "scorekeeper.relay_jobs",
        "schedule": 30.0,
    },
    "scorekeeper-send-unsent-email": {
        "task": "scorekeeper.send_unsent_email",
        "schedule": 300.0,
    },
}

# --- Email (players told where they sit) --------------------------------------------------

# Mail goes to the console unless EMAIL_URL says otherwise (e.g. smtp+tls://user:pass@host:587);
# django-environ turns the URL into the EMAIL_* settings.
vars().update(env.email_url("EMAIL_URL", default="consolemail://"))
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Scorekeeper <scorekeeper@localhost>")
# The site's own address, for links in what background jobs send (where a player sits, with
# their table's link): they have no request to take it from.
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000").rstrip("/")

# --- Security -------------------------------------------------------------------------------

SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
if not DEBUG and env.bool("SECURE_SSL", default=False):
    # Behind a TLS-terminating reverse proxy that sets X-Forwarded-Proto.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    # Asking browsers to preload HSTS binds every subdomain to HTTPS for good, and cannot
    # be taken back quickly: the operator's choice (SECURE_HSTS_PRELOAD=true), not a default.
    SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
    if not SECURE_HSTS_PRELOAD:
        SILENCED_SYSTEM_CHECKS = ["security.W021"]

# Content-Security-Policy (django-csp): scripts, styles and everything else from this site
# only, no inline scripts or styles, no framing. The admin keeps Django's own defaults.
CONTENT_SECURITY_POLICY = {
    "EXCLUDE_URL_PREFIXES": ["/admin/"],
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "font-src": [SELF],
        "manifest-src": [SELF],
        "worker-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# --- Logging --------------------------------------------------------------------------------

LOG_LEVEL = env.str("LOG_LEVEL", default="INFO").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "console": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "console"},
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
    },
}
