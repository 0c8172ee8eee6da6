"""Settings for Tenbou, read from environment variables.

Development needs no variables at all: DEBUG is on, the database is the SQLite file
`db.sqlite3` beside manage.py and a fixed development SECRET_KEY is used.

Production sets at least DEBUG=0, SECRET_KEY, ALLOWED_HOSTS and DATABASE_URL. With DEBUG
off the HTTPS-related settings default to their strict values, so that
`python manage.py check --deploy` is clean; each can still be overridden (see README).
"""

import os
import warnings
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    value = value.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be 1 or 0 (or true/false), not {value!r}.")


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}.") from None


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# Core

DEBUG = env_bool("DEBUG", True)

# Only good for a developer's machine: with DEBUG off it is refused below.
DEV_SECRET_KEY = "django-insecure-tenbou-development-key-never-use-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY", "").strip() or DEV_SECRET_KEY
if not DEBUG and SECRET_KEY == DEV_SECRET_KEY:
    raise ImproperlyConfigured(
        "SECRET_KEY is not set. With DEBUG=0 Tenbou needs its own secret key: set the "
        "SECRET_KEY environment variable to a long random string, for example the output "
        "of: python -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )

# With DEBUG on and no list, Django itself accepts localhost, 127.0.0.1 and [::1].
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS")
LOCAL_HOSTS = {"localhost", "127.0.0.1", "[::1]", "::1", "testserver", ".localhost"}
if DEBUG and any(host not in LOCAL_HOSTS for host in ALLOWED_HOSTS):
    # DEBUG shows settings and code to anyone who makes a page fail: never on a public host.
    raise ImproperlyConfigured(
        "DEBUG is on while ALLOWED_HOSTS names a public host "
        f"({', '.join(h for h in ALLOWED_HOSTS if h not in LOCAL_HOSTS)}). "
        "Set DEBUG=0 for a server others can reach, or leave ALLOWED_HOSTS empty to develop."
    )
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "config.apps.TenbouAdminConfig",  # django.contrib.admin, for superusers only
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # Before staticfiles, so that runserver serves static files the way production does.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_tables2",
    "django_htmx",
    "axes",
    "csp",
    "tournaments",
]
# The development-only tools (`manage.py bench_pages`, `manage.py load_test`, in perf/): on
# by default while DEBUG is on (development and the tests), off in production unless asked.
TENBOU_PERF = env_bool("TENBOU_PERF", DEBUG)
if TENBOU_PERF:
    INSTALLED_APPS.append("perf")

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After sessions, before CommonMiddleware: picks the language of each request from the
    # language cookie (the header's switcher) or else the browser's Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes asks: it turns a refused login into the "try again" page.
    "axes.middleware.AxesMiddleware",
]

# django-tables2's table template, its rows written without the indentation of each cell.
DJANGO_TABLES2_TEMPLATE = "tournaments/partials/table.html"

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

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
                "tournaments.accounts.site",
            ],
        },
    },
]

# Database: SQLite by default, anything dj-database-url understands through DATABASE_URL
# (postgres://user:password@host:5432/name in production).

DATABASES = {
    # An empty DATABASE_URL is no address: the default, as when it is unset.
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", "").strip() or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        # In production a worker keeps its connection between requests (checked before
        # reuse): opening one per request cost a PostgreSQL room a third of its throughput.
        # The development server starts a thread per request, which no connection outlives.
        conn_max_age=env_int("CONN_MAX_AGE", 0 if DEBUG else 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Take the write lock when a transaction starts, so that a second organiser saving
    # the same hand waits and then gets the clear "entered already" message instead of
    # "database is locked". Write-ahead logging lets readers go on while a hand is saved
    # and makes each commit a single append to the log.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20, "init_command": "PRAGMA journal_mode=WAL;"}
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Cache: every cache of the app goes through Django's cache framework. Each process keeps
# its own in memory unless CACHE_URL names a shared one (redis://host:6379/1, or rediss://
# for TLS), which several app servers then share. Cached numbers are never stale either
# way: their keys carry the version of the results they were computed from.


# Django's Redis cache, keeping one Redis client object per connection pool (config/cache.py).
REDIS_CACHE = "config.cache.KeptClientRedisCache"


def cache_config(url: str) -> dict:
    """The CACHES entry for a CACHE_URL (empty: this process's memory)."""
    url = url.strip()
    if not url:
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    if url.startswith(("redis://", "rediss://", "unix://")):
        return {"BACKEND": REDIS_CACHE, "LOCATION": url}
    raise ImproperlyConfigured(
        f"CACHE_URL {url!r} is not a Redis address: give redis://host:port/db (or rediss:// "
        "for TLS), or leave CACHE_URL unset to cache in each process's memory."
    )


CACHES = {"default": cache_config(os.environ.get("CACHE_URL", ""))}

# Authentication


def session_engine(cache: dict) -> str:
    """Django's database sessions, read through the cache when the cache is shared
    (CACHE_URL). Each process's own memory is not: signing out in one process would leave
    the session kept in the others, so without a shared cache every request reads the
    session's row."""
    if cache["BACKEND"] == REDIS_CACHE:
        return "django.contrib.sessions.backends.cached_db"
    return "django.contrib.sessions.backends.db"


SESSION_ENGINE = session_engine(CACHES["default"])

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Login throttling (django-axes 8, settings as its axes/conf.py reads them): failed logins
# are counted per pair of account and address, so that someone who knows an organiser's
# username cannot lock them out from elsewhere, and one player's typos behind a venue's
# shared address lock out nobody else. After LOGIN_FAILURE_LIMIT failures that pair waits
# LOGIN_LOCK_MINUTES, counted from the failure that locked it: tries during the wait do not
# start it again (AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT). A superuser unlocks at
# once in the admin ("Access attempts": delete the rows) or with `manage.py
# axes_reset_username NAME`.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_LOCK_MINUTES", 10))
# A list inside the list: the combination of both, not either of them.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "tournaments.accounts.lockout_response"
# Behind N reverse proxies that append to X-Forwarded-For, set LOGIN_PROXY_COUNT=N so that
# the client's address (not the proxy's) is counted; see tournaments.accounts.client_ip.
LOGIN_PROXY_COUNT = env_int("LOGIN_PROXY_COUNT", 0)
AXES_CLIENT_IP_CALLABLE = "tournaments.accounts.client_ip"

# Anyone may create an account on the sign-up page only when this is on; otherwise accounts
# are made by a superuser (admin or `manage.py createsuperuser` / `changepassword`).
OPEN_SIGNUP = env_bool("OPEN_SIGNUP", False)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournaments:home"
LOGOUT_REDIRECT_URL = "tournaments:home"

# Email, for password resets and invitations: sent through EMAIL_HOST. Without one, DEBUG
# prints mail on the console; production refuses to start unless EMAIL_TO_CONSOLE=1 says
# that printing mail (reset links included) into the server's log is meant.

EMAIL_HOST = os.environ.get("EMAIL_HOST", "").strip()
EMAIL_TO_CONSOLE = env_bool("EMAIL_TO_CONSOLE", False)
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = env_int("EMAIL_PORT", 587)
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", EMAIL_PORT == 587)
    EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", EMAIL_PORT == 465)
elif DEBUG or EMAIL_TO_CONSOLE:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
else:
    raise ImproperlyConfigured(
        "EMAIL_HOST is not set. With DEBUG=0 Tenbou sends password-reset mail through an SMTP "
        "server: set EMAIL_HOST (and EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_PORT), or "
        "set EMAIL_TO_CONSOLE=1 to print every mail, reset links included, into the "
        "server's log on purpose."
    )
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "tenbou@localhost")
EMAIL_TIMEOUT = 20
# Password-reset mails asked for per hour from one address, and for one email address.
PASSWORD_RESETS_PER_ADDRESS = env_int("PASSWORD_RESETS_PER_ADDRESS", 5)
PASSWORD_RESETS_PER_EMAIL = env_int("PASSWORD_RESETS_PER_EMAIL", 3)

# An event import from the web page that has not finished writing after this many seconds
# is taken back and refused: keep it well under the web server's worker timeout (gunicorn's
# --timeout, 30 s by default; see README, "Deployment"). 0: no limit.
IMPORT_TIME_LIMIT = env_int("IMPORT_TIME_LIMIT", 15)

# Internationalisation

# Every page speaks English or Japanese: the language follows the browser (Accept-Language)
# until someone picks one in the page header, which a cookie then remembers for a year.
# Translations live in locale/<language>/LC_MESSAGES/django.po; `make messages` updates and
# compiles them (see README, "Languages").
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ja", "日本語")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates as each language writes them: English day first (config/formats/en), Japanese
# 2026年11月23日 (config/formats/ja).
FORMAT_MODULE_PATH = ["config.formats"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

# Static files, served by WhiteNoise. With DEBUG off the manifest storage gives every file
# a hashed name so that browsers may cache it forever; it needs `collectstatic` first.

if DEBUG:
    # In development STATIC_ROOT stays empty until someone runs collectstatic.
    warnings.filterwarnings("ignore", message="No directory at: ", category=UserWarning)

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
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

# Security. Strict by default when DEBUG is off; each one can be relaxed by its variable,
# e.g. SECURE_SSL_REDIRECT=0 when a proxy in front already redirects to HTTPS.

SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
# Behind a proxy that terminates TLS, Django only knows the request was HTTPS from this
# header; without it SECURE_SSL_REDIRECT would redirect forever.
if env_bool("SECURE_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp): scripts and styles only from our own files, so an
# injected <script> or onclick= would not run. Templates therefore carry no inline
# JavaScript and no style= attributes; everything lives under static/.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# Logging: everything to the console, where gunicorn or the service manager collects it.
# Django's own "django" logger is replaced so that messages are not printed twice.

LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "{levelname} {name}: {message}", "style": "{"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
        # django-axes says hello at every start; keep its warnings (lockouts) only.
        "axes": {"level": "WARNING"},
    },
}
