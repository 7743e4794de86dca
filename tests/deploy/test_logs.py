"""Refused and failed actions are logged one line each; LOG_FORMAT=json makes the lines JSON."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from config.logs import JsonFormatter
from tables import action_log

ROOT = Path(__file__).resolve().parents[2]


def _record(caplog: pytest.LogCaptureFixture, call: object) -> logging.LogRecord:
    with caplog.at_level(logging.INFO, logger="tables.actions"):
        call()  # type: ignore[operator]
    [record] = [r for r in caplog.records if r.name == "tables.actions"]
    return record


def test_a_refusal_as_json_holds_table_version_and_reason(
    caplog: pytest.LogCaptureFixture,
) -> None:
    record = _record(caplog, lambda: action_log.refused("XK4P2Q", 17, "not_your_turn"))
    line = JsonFormatter().format(record)
    assert "\n" not in line
    data = json.loads(line)
    assert data["message"] == "table XK4P2Q version 17: refused not_your_turn"
    assert (data["table"], data["version"], data["reason"]) == ("XK4P2Q", 17, "not_your_turn")
    assert data["outcome"] == "refused" and data["level"] == "INFO"
    assert data["logger"] == "tables.actions" and data["time"].endswith("+00:00")


def test_a_failure_as_json_holds_the_error_and_its_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    try:
        raise RuntimeError("the database went away")
    except RuntimeError as exc:
        error = exc
    record = _record(caplog, lambda: action_log.failed("XK4P2Q", 18, error))
    data = json.loads(JsonFormatter().format(record))
    assert data["level"] == "ERROR" and data["reason"] == "RuntimeError"
    assert data["outcome"] == "failed" and data["version"] == 18
    assert "the database went away" in data["traceback"]


def _logged(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    code = (
        "import django; django.setup(); from tables import action_log; "
        "action_log.refused('XK4P2Q', 3, 'stale')"
    )
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
    )


def test_log_format_json_writes_json_lines_and_text_stays_readable() -> None:
    as_json = _logged({"LOG_FORMAT": "json"})
    assert json.loads(as_json.stderr.strip())["reason"] == "stale"
    as_text = _logged({"LOG_FORMAT": "text"})
    assert as_text.stderr.strip() == "INFO tables.actions: table XK4P2Q version 3: refused stale"


def test_an_unknown_log_format_names_the_variable() -> None:
    done = _logged({"LOG_FORMAT": "xml"})
    assert done.returncode != 0 and "LOG_FORMAT must be text or json" in done.stderr
