"""DATABASE_URL names a primary and its standby the way libpq does (config/database.py): the app
finds the primary by itself after a failover (``target_session_attrs=read-write``)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from config import database

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TWO = "postgres://holdem:s%40cret@10.0.0.1:5440,10.0.0.2:5441/holdem?target_session_attrs=read-write"


def test_two_hosts_go_to_libpq_as_lists_with_their_ports_and_the_session_attribute() -> None:
    settings = database.parse(TWO, conn_max_age=60)
    assert settings["ENGINE"] == "django.db.backends.postgresql"
    assert settings["HOST"] == "10.0.0.1,10.0.0.2"
    assert settings["PORT"] == "5440,5441"
    assert settings["USER"] == "holdem" and settings["PASSWORD"] == "s@cret"
    assert settings["NAME"] == "holdem"
    assert settings["OPTIONS"]["target_session_attrs"] == "read-write"
    assert settings["CONN_MAX_AGE"] == 60
    assert settings["CONN_HEALTH_CHECKS"] is True  # a kept connection to a dead primary: dropped


def test_hosts_without_ports_use_libpqs_default_and_one_missing_port_is_filled() -> None:
    assert database.parse("postgres://u@a,b/db", 0)["PORT"] == ""
    assert database.parse("postgres://u@a:5440,b/db", 0)["PORT"] == "5440,5432"
    assert database.parse("postgres://u@[::1]:5440,b:5441/db", 0)["HOST"] == "::1,b"


def test_one_host_is_read_as_before() -> None:
    settings = database.parse("postgres://postgres@127.0.0.1:5432/holdem_test", 60)
    assert settings["HOST"] == "127.0.0.1" and settings["PORT"] == 5432
    assert settings["CONN_HEALTH_CHECKS"] is False  # no round trip where nothing fails over
    assert database.parse("sqlite:////tmp/a,b.sqlite3", 60)["NAME"] == "/tmp/a,b.sqlite3"


@pytest.mark.parametrize("url", [
    "postgres://u@a:54x,b:5441/db", "postgres://u@a,,b/db", "sqlite://a,b/x",
])
def test_a_bad_list_of_hosts_is_refused(url: str) -> None:
    with pytest.raises(ValueError):
        database.parse(url, 0)


def test_the_app_starts_with_two_hosts_and_refuses_a_bad_list_naming_the_variable() -> None:
    good = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); from django.conf import settings;"
         " d = settings.DATABASES['default']; print(d['HOST'], d['PORT'])"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": TWO},
    )
    assert good.returncode == 0, good.stderr
    assert good.stdout.split() == ["10.0.0.1,10.0.0.2", "5440,5441"]
    bad = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, capture_output=True, text=True,
        timeout=60, env={**os.environ, "DATABASE_URL": "postgres://u@a:x,b/db"},
    )
    assert bad.returncode != 0 and "DATABASE_URL" in bad.stderr
