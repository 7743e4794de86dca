"""Settings come from the environment; a bad value stops start-up with a clear message."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured

from config import settings as config

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.mark.parametrize(
    ("helper", "value", "message"),
    [
        (lambda: config.envbool("X_FLAG", "false"), "maybe", "X_FLAG must be true or false"),
        (lambda: config.envint("X_INT", "1", 1, 10), "ten", "X_INT must be a whole number"),
        (lambda: config.envint("X_INT", "1", 1, 10), "11", "X_INT must be between 1 and 10"),
        (lambda: config.envfloat("X_SECS", "1", 0, 5), "soon", "X_SECS must be a number of"),
        (lambda: config.envfloat("X_SECS", "1", 0, 5), "nan", "X_SECS must be between"),
        (lambda: config.envrange("X_PAUSE", "1,2", 30), "2,1", "X_PAUSE must be seconds low,high"),
        (lambda: config.envrange("X_PAUSE", "1,2", 30), "a,b", "X_PAUSE must be seconds like"),
    ],
)
def test_a_bad_value_says_which_variable_is_wrong(
    monkeypatch: pytest.MonkeyPatch, helper: object, value: str, message: str
) -> None:
    for name in ("X_FLAG", "X_INT", "X_SECS", "X_PAUSE"):
        monkeypatch.setenv(name, value)
    with pytest.raises(ImproperlyConfigured, match=message):
        helper()  # type: ignore[operator]


def test_good_values_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("X_PAUSE", "0.5, 1.5")
    monkeypatch.setenv("X_INT", " 7 ")
    assert config.envrange("X_PAUSE", "1,2", 30) == (0.5, 1.5)
    assert config.envint("X_INT", "1", 1, 10) == 7
    assert config.envlist("X_NONE", "a, b,,c") == ["a", "b", "c"]


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DATABASE_URL": "nonsense://"}, "DATABASE_URL"),
        ({"REDIS_URL": "http://localhost"}, "REDIS_URL must start with redis://"),
        ({"DEBUG": "false", "SECRET_KEY": ""}, "SECRET_KEY must be set"),
        ({"TABLES_BOT_PAUSE": "-1"}, "TABLES_BOT_PAUSE"),
        ({"PUBLIC_URL": "poker.example.org"}, "PUBLIC_URL must start with http"),
        ({"VAPID_SUBJECT": "admin@example.org"}, "VAPID_SUBJECT must start with mailto:"),
        ({"VAPID_PRIVATE_KEY": "abc", "VAPID_PUBLIC_KEY": "def"}, "VAPID_P"),
    ],
)
def test_the_app_refuses_to_start_with_a_bad_setting(env: dict[str, str], message: str) -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, capture_output=True, text=True,
        env={**os.environ, **env}, timeout=60,
    )
    assert result.returncode != 0
    assert message in result.stderr
