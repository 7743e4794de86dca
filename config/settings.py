"""Settings, read from environment variables with defaults that run on a laptop.

A bad value stops start-up with ImproperlyConfigured and a message saying which variable is wrong.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from config import database, vapid
from config.channel_layers import from_environment as channel_layers_from_environment

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: str) -> bool:
    value = os.environ.get(name, default).strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off", ""}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def _envnumber(
    name: str, default: str, low: float, high: float, parse: Callable[[str], float], noun: str
) -> float:
    value = os.environ.get(name, default).strip()
    try:
        number = parse(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be {noun}, not {value!r}") from None
    if not low <= number <= high:  # also refuses nan
        raise ImproperlyConfigured(f"{name} must be between {low} and {high}, not {value}")
    return number


def envint(name: str, default: str, low: int, high: int) -> int:
    return int(_envnumber(name, default, low, high, int, "a whole number"))


def envfloat(name: str, default: str, low: float, high: float) -> float:
    return float(_envnumber(name, default, low, high, float, "a number of seconds"))


def envrange(name: str, default: str, high: float) -> tuple[float, float]:
    """Seconds as "low,high" (a pause drawn between the two) or one value for a fixed pause."""
    value = os.environ.get(name, default)
    try:
        numbers = [float(part) for part in value.split(",")]
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be seconds like 0.8,2.5, not {value!r}") from None
    if len(numbers) == 1:
        numbers *= 2
    if len(numbers) != 2 or not 0 <= numbers[0] <= numbers[1] <= high:
        raise ImproperlyConfigured(
            f"{name} must be seconds low,high with 0 <= low <= high <= {high}"
        )
    return (numbers[0], numbers[1])


DEBUG = envbool("DEBUG", "true")
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "dev-only-insecure-key-change-me"
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")
for _origin in CSRF_TRUSTED_ORIGINS:
    if not _origin.startswith(("http://", "https://")):
        raise ImproperlyConfigured(
            f"CSRF_TRUSTED_ORIGINS entries start with https://, not {_origin!r}"
        )
# Behind a proxy that terminates TLS and sets X-Forwarded-Proto and X-Real-IP (see README):
# a request is secure when the proxy says it came over HTTPS, and the client's address is the
# one the proxy saw (X-Real-IP; tables.ratelimit), never X-Forwarded-For's client-written part.
BEHIND_PROXY = envbool("BEHIND_PROXY", "false")
if BEHIND_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# HTTPS. With DEBUG off the defaults are the safe ones: plain-HTTP requests are redirected to
# HTTPS, browsers are told to use HTTPS only for a year (HSTS), and cookies travel over HTTPS
# only. The laptop default (DEBUG on, http://127.0.0.1:8000) keeps them off.
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", "false" if DEBUG else "true")
# Health checks and metrics are fetched by the machine's own monitors over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^metrics$"]
SECURE_HSTS_SECONDS = envint(
    "SECURE_HSTS_SECONDS", "0" if DEBUG else str(60 * 60 * 24 * 365), 0, 60 * 60 * 24 * 365 * 2
)
# Both reach beyond this site (every subdomain; browsers' built-in lists): only when asked.
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", "false")
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", "false")
# `check --deploy` asks for both; this app cannot know whether every subdomain serves HTTPS or
# whether a listing in browsers (hard to undo) is wanted, so the operator decides and the check
# stays quiet about the choice. Every other deploy warning still counts.
SILENCED_SYSTEM_CHECKS = ["security.W005", "security.W021"]
SESSION_COOKIE_SECURE = envbool("SESSION_COOKIE_SECURE", "false" if DEBUG else "true")
CSRF_COOKIE_SECURE = envbool("CSRF_COOKIE_SECURE", "false" if DEBUG else "true")
# No script reads either cookie: pages carry the CSRF token in the markup (hx-headers, forms).
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Content Security Policy (django-csp; config/security.py adds this host's ws:// or wss:// to
# connect-src). Scripts and styles only from files of this site: no inline script, no eval,
# no inline style. htmx's own <style> for request indicators is turned off and its eval is off
# (templates/base.html, htmx-config meta); scripts that move elements set element.style
# properties through the DOM, which CSP allows. Inline JSON data blocks are not scripts.
# Images and the web app manifest fall back to default-src 'self' (not repeated: every page
# carries this header, and a phone's repeat visit to a table is held to 6 KB).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "connect-src": [SELF],
        "form-action": [SELF],
        "base-uri": [SELF],
        "object-src": [NONE],
        "frame-ancestors": [NONE],
    },
}
# Browser features this app may use: the share sheet and the clipboard (join links), sound
# for "your turn" (autoplay); everything else off. Vibration ("your turn" on a phone) is not
# a policy-controlled feature: browsers allow it after a tap, and an unknown name in this
# header is an error in the console, so it is not listed.
PERMISSIONS_POLICY = ", ".join([
    "accelerometer=()", "autoplay=(self)", "camera=()", "clipboard-write=(self)",
    "display-capture=()", "fullscreen=()", "geolocation=()", "gyroscope=()",
    "magnetometer=()", "microphone=()", "midi=()", "payment=()", "usb=()",
    "web-share=(self)",
])
# Web Push (notifications on a locked phone): the VAPID pair from the environment, made once and
# kept in .vapid-dev.json for development; none in production means no notifications
# (config/vapid.py). The subject is how a push service reaches the operator.
VAPID_PRIVATE_KEY, VAPID_PUBLIC_KEY = vapid.keys(
    os.environ.get("VAPID_PRIVATE_KEY", "").strip(), os.environ.get("VAPID_PUBLIC_KEY", "").strip(),
    debug=DEBUG, kept=BASE_DIR / ".vapid-dev.json",
)
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "mailto:admin@localhost").strip()
if not VAPID_SUBJECT.startswith(("mailto:", "https://")):
    raise ImproperlyConfigured(
        f"VAPID_SUBJECT must start with mailto: or https://, not {VAPID_SUBJECT!r}"
    )
# The push services a subscription may name (a browser's own: Chrome's, Firefox's, Safari's,
# Edge's); the server posts to no other address, whatever a client sends ("*." : any subdomain).
PUSH_SERVICE_HOSTS = envlist(
    "PUSH_SERVICE_HOSTS",
    "fcm.googleapis.com,updates.push.services.mozilla.com,*.push.apple.com,*.notify.windows.com",
)
# Sending runs on threads of its own, after the change is saved ("false": at once, in the
# thread that made the change; tests).
PUSH_IN_BACKGROUND = envbool("PUSH_IN_BACKGROUND", "true")
# The address join links and QR codes point at (e.g. https://poker.example.org); by default the
# host the request came to.
PUBLIC_URL = os.environ.get("PUBLIC_URL", "").rstrip("/")
if PUBLIC_URL and not PUBLIC_URL.startswith(("http://", "https://")):
    raise ImproperlyConfigured(
        f"PUBLIC_URL must start with http:// or https://, not {PUBLIC_URL!r}"
    )

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "tables",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Pages gzipped for browsers that accept it (all do): a table's page, 13 to 20 KB of HTML,
    # is 3.6 to 4.5 KB on the wire. Django pads each response with random bytes against BREACH.
    "django.middleware.gzip.GZipMiddleware",
    # The templates' indentation left out of pages, before they are gzipped (config/unindent.py).
    "config.unindent.CompactHTMLMiddleware",
    # After WhiteNoise: static files go without these headers, pages with them.
    "config.security.ContentSecurityPolicyMiddleware",
    "config.security.PermissionsPolicyMiddleware",
    # Pages that can carry hole cards: never kept by a cache (config/security.py).
    "config.security.PrivatePagesMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A client with too many wrong codes this minute: 429, whichever page it asked (tables.lookups).
    "tables.lookups.TooManyWrongCodesMiddleware",
    # No table with that code, hands not yours: the page's own refusal (tables.pages.common).
    "tables.pages.common.RefusalMiddleware",
    # The database away: the app's own 503 page, not a server error (config/errors.py).
    "config.errors.DatabaseAwayMiddleware",
]

ROOT_URLCONF = "config.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # Django's cached loader, the templates' indentation left out once when each is
            # compiled (config/unindent.py): the live frames are drawn without a middleware.
            "loaders": [("config.unindent.Loader", [
                "django.template.loaders.filesystem.Loader",
                "django.template.loaders.app_directories.Loader",
            ])],
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = None


def _database(url: str) -> dict[str, Any]:
    """One host, or a primary and its standby (``config.database``: libpq's list of hosts with
    ``target_session_attrs=read-write``)."""
    try:
        return database.parse(url, conn_max_age=60)
    except Exception as exc:  # the library raises several types for a bad URL
        raise ImproperlyConfigured(f"DATABASE_URL is not a database URL: {exc}") from exc


DATABASE_URL = os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}")
DATABASES = {"default": _database(DATABASE_URL)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE transactions take SQLite's write lock at BEGIN: the equivalent of locking the
    # table row, so two writers never interleave a read-check-write.
    # WAL lets readers (every connection's view) proceed while a writer holds the lock, and
    # synchronous=NORMAL spares the write path an fsync per commit: a killed server process
    # loses nothing, only a power cut could lose the last few commits.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # One connection per thread for the life of the process: opening a SQLite file (and
    # running the pragmas above) for every request or websocket message costs more than the
    # query it serves.
    DATABASES["default"]["CONN_MAX_AGE"] = None

# One Redis server, or several separated by commas (config/channel_layers.py: the tables are
# spread over them by a hash of their group's name); or masters found through Redis Sentinel
# (REDIS_SENTINELS, REDIS_MASTER_NAME, REDIS_DB, REDIS_PASSWORD).
REDIS_URL = os.environ.get("REDIS_URL", "")
try:
    CHANNEL_LAYERS = channel_layers_from_environment(os.environ)
except ValueError as error:
    raise ImproperlyConfigured(str(error)) from None

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_PASSWORD_VALIDATORS: list[dict[str, Any]] = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
     "OPTIONS": {"min_length": 10}},  # as create_admin asks
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ne", "नेपाली")]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", "") or BASE_DIR / "staticfiles")
# `manage.py collectstatic` has gathered the files into STATIC_ROOT with hashed names and gzip
# and Brotli copies (config/static.py): pages name the hashed files, cached for a year. Off, the
# developer's default, pages name the plain files of static/ and an edit shows at once.
# scripts/run.sh collects and turns it on.
STATIC_COLLECTED = envbool("STATIC_COLLECTED", "false" if DEBUG else "true")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "config.static.CollectedStorage"
        if STATIC_COLLECTED
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
# The app serves its own static files through WhiteNoise: hashed names immutable for a year,
# Brotli or gzip as the browser accepts. Behind nginx (deploy/) the proxy serves STATIC_ROOT
# at /static/ itself and this may be off (README).
SERVE_STATIC = envbool("SERVE_STATIC", "true")
WHITENOISE_USE_FINDERS = not STATIC_COLLECTED
WHITENOISE_AUTOREFRESH = DEBUG and not STATIC_COLLECTED
# Plain (unhashed) names, such as the icons a browser asks for by themselves: a day.
WHITENOISE_MAX_AGE = 0 if DEBUG and not STATIC_COLLECTED else 60 * 60 * 24
# Pages only ever name the hashed files: the plain copies are neither kept nor compressed.
WHITENOISE_KEEP_ONLY_HASHED_FILES = True
# Only this site's pages use its static files: no Access-Control-Allow-Origin on each.
WHITENOISE_ALLOW_ALL_ORIGINS = False
if SERVE_STATIC:
    # First after SecurityMiddleware: a static file skips sessions, CSRF and the page's gzip.
    MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")
    # Hashed files without ETag and Last-Modified: cached as immutable, never asked again.
    MIDDLEWARE.insert(1, "config.static.ImmutableHeadersMiddleware")

# Tables: the clock and its pauses (seconds). Tests set the pauses to 0 and drive the clock.
# The clock loop runs inside every server process unless TABLES_CLOCK_IN_SERVER is off (then run
# `python manage.py runclock` beside the servers). Any number of clocks may run at once.
TABLES_CLOCK_IN_SERVER = envbool("TABLES_CLOCK_IN_SERVER", "true")
TABLES_CLOCK_INTERVAL = envfloat("TABLES_CLOCK_INTERVAL", "0.2", 0.01, 10)
# Between ticks that ask the database for due deadlines (every this many seconds), a clock fires
# those of the tables its process holds without a query (tables.clock.run_forever).
TABLES_CLOCK_POLL = envfloat("TABLES_CLOCK_POLL", "1.0", 0.01, 60)
# While the database's answers hold no due deadline this process does not hold, its looks may
# grow apart up to this many seconds (each look is a transaction; tables.clock.next_look); a
# look that left a just-due deadline to another process, and a paused table held here, bring
# the next one within TABLES_CLOCK_POLL (tables.clock.Looks). Set to TABLES_CLOCK_POLL for a
# look every second that takes every due deadline at once.
TABLES_CLOCK_POLL_MAX = envfloat("TABLES_CLOCK_POLL_MAX", "8.0", 0.01, 60)
# P2: computer players think for a human-looking moment; presentation only.
TABLES_BOT_PAUSE = envrange("TABLES_BOT_PAUSE", "0.8,2.5", 30)
# P1: an away player acts (check or fold) after this pause, so the table sees what happened.
TABLES_AWAY_PAUSE = envfloat("TABLES_AWAY_PAUSE", "0.6", 0, 30)
# Time to look at a hand's result before the next one is dealt.
TABLES_NEXT_HAND_PAUSE = envfloat("TABLES_NEXT_HAND_PAUSE", "5", 0, 60)
# A run-out with every hand face up shows each street's odds for this share of that
# pause (5 s: 2 s a street) before the next card; the next hand waits that much longer.
TABLES_RUNOUT_STEP = envfloat("TABLES_RUNOUT_STEP", "0.4", 0, 2)
# Failed join attempts (unknown codes) allowed per client per minute.
TABLES_JOIN_FAILURES_PER_MINUTE = envint("TABLES_JOIN_FAILURES_PER_MINUTE", "10", 1, 1000)
# A friend arriving late asks for a computer's seat (tables.write.late): at most this many
# requests wait for the host's answer at one table, and one client (IP address or session)
# asks at most this many times a minute, over every table.
TABLES_LATE_WAITING_PER_TABLE = envint("TABLES_LATE_WAITING_PER_TABLE", "6", 1, 100)
TABLES_LATE_REQUESTS_PER_MINUTE = envint("TABLES_LATE_REQUESTS_PER_MINUTE", "3", 1, 1000)
# Wrong admin passwords allowed per client address (and per address and username) a minute
# (tables/admin/login.py).
TABLES_ADMIN_LOGIN_FAILURES_PER_MINUTE = envint(
    "TABLES_ADMIN_LOGIN_FAILURES_PER_MINUTE", "5", 1, 1000
)
# Retention: `manage.py delete_old_games` (daily, deploy/systemd/holdem-retention.timer) deletes
# games that ended more than this many days ago, with their hands, talk and proofs.
TABLES_KEEP_DAYS = envint("TABLES_KEEP_DAYS", "90", 1, 36500)
# Largest websocket message a client may send (bytes).
TABLES_MAX_MESSAGE = envint("TABLES_MAX_MESSAGE", "4096", 256, 65536)
# Largest websocket message the server reads at all (bytes): a bigger one closes the socket
# with code 1009 and a reason (config/websocket_limits.py). At least TABLES_MAX_MESSAGE.
WEBSOCKET_MAX_MESSAGE = max(
    envint("WEBSOCKET_MAX_MESSAGE", "65536", 1024, 1024 * 1024), TABLES_MAX_MESSAGE
)
# Websocket frames compressed for browsers that offer it (all do): config/compression.py.
WEBSOCKET_COMPRESSION = envbool("WEBSOCKET_COMPRESSION", "true")
# How often (seconds) Python lets another thread of a server process take over. Each process
# runs its event loop (drawing frames) and one database thread; with Python's default of 5 ms a
# write waits up to that long after every query while the loop draws (benchmarks/load).
SERVER_SWITCH_INTERVAL = envfloat("SERVER_SWITCH_INTERVAL", "0.0005", 0.0001, 0.1)
# /metrics answers the machine itself, and anyone sending "Authorization: Bearer <this>"
# (config/health.py). Empty: loopback only.
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
# Tests and simulations only: a seed makes decks, first buttons and computer decisions repeatable.
TABLES_SEED = os.environ.get("TABLES_SEED") or None

# LOG_FORMAT=json: one JSON object a line (config/logs.py); text by default.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text").strip().lower()
if LOG_FORMAT not in {"text", "json"}:
    raise ImproperlyConfigured(f"LOG_FORMAT must be text or json, not {LOG_FORMAT!r}")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "text": {"format": "%(levelname)s %(name)s: %(message)s"},  # journald adds the time
        "json": {"()": "config.logs.JsonFormatter"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT}},
    "loggers": {
        "tables": {
            "handlers": ["console"],
            "level": os.environ.get("LOG_LEVEL", "INFO"),
            "propagate": False,
        },
    },
}

SESSION_COOKIE_AGE = 60 * 60 * 24 * 365
SESSION_COOKIE_SAMESITE = "Lax"
