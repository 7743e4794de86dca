"""HTTPS settings: safe defaults with DEBUG off, the laptop default untouched with DEBUG on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.deploy.production import PRODUCTION

ROOT = Path(__file__).resolve().parents[2]


SHOWN = [
    "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE",
    "SESSION_COOKIE_HTTPONLY", "CSRF_COOKIE_HTTPONLY", "SECURE_PROXY_SSL_HEADER",
]


def _env(extra: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    for name in (*PRODUCTION, *SHOWN, "DEBUG", "SECRET_KEY"):
        env.pop(name, None)
    return {**env, **extra}


def _settings(extra: dict[str, str]) -> dict[str, object]:
    code = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        f"print(json.dumps({{n: getattr(s, n, None) for n in {SHOWN!r}}}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={**_env(extra), "DJANGO_SETTINGS_MODULE": "config.settings"},
    )
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def test_the_deploy_check_passes_with_the_readmes_production_variables() -> None:
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, env=_env(PRODUCTION),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_the_deploy_check_fails_when_https_is_turned_off() -> None:
    off = {**PRODUCTION, "SECURE_SSL_REDIRECT": "false", "SECURE_HSTS_SECONDS": "0"}
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, env=_env(off),
    )
    assert done.returncode != 0
    assert "security.W004" in done.stderr and "security.W008" in done.stderr


def test_production_defaults_redirect_to_https_with_a_years_hsts_and_secure_cookies() -> None:
    shown = _settings(PRODUCTION)
    assert shown["SECURE_SSL_REDIRECT"] is True
    assert shown["SECURE_HSTS_SECONDS"] == 31_536_000
    assert shown["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is False
    assert shown["SECURE_HSTS_PRELOAD"] is False
    assert shown["SESSION_COOKIE_SECURE"] is True and shown["CSRF_COOKIE_SECURE"] is True
    assert shown["SESSION_COOKIE_HTTPONLY"] is True and shown["CSRF_COOKIE_HTTPONLY"] is True
    assert shown["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]


def test_subdomains_and_preload_are_added_only_when_asked() -> None:
    shown = _settings({
        **PRODUCTION, "SECURE_HSTS_INCLUDE_SUBDOMAINS": "true", "SECURE_HSTS_PRELOAD": "yes",
        "SECURE_HSTS_SECONDS": "600",
    })
    assert shown["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True
    assert shown["SECURE_HSTS_PRELOAD"] is True
    assert shown["SECURE_HSTS_SECONDS"] == 600


def test_the_laptop_default_stays_on_plain_http() -> None:
    shown = _settings({})
    assert shown["SECURE_SSL_REDIRECT"] is False
    assert shown["SECURE_HSTS_SECONDS"] == 0
    assert shown["SESSION_COOKIE_SECURE"] is False and shown["CSRF_COOKIE_SECURE"] is False
    assert shown["SECURE_PROXY_SSL_HEADER"] is None


def test_a_bad_hsts_value_names_the_variable() -> None:
    done = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, capture_output=True, text=True,
        timeout=60, env=_env({**PRODUCTION, "SECURE_HSTS_SECONDS": "a year"}),
    )
    assert done.returncode != 0
    assert "SECURE_HSTS_SECONDS must be a whole number" in done.stderr
