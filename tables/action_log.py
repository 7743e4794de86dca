"""One log line for every action a table refused or failed to apply.

``table XK4P2Q version 17: refused not_your_turn`` (and, with LOG_FORMAT=json, the same as
fields: table, version, reason, outcome; config/logs.py). Refusals are routine (a double tap
on a stale frame, a turn missed by a second) and logged at INFO; a failure is an error with
its traceback.
"""

from __future__ import annotations

import logging

log = logging.getLogger("tables.actions")


def refused(code: str, version: int | None, reason: str) -> None:
    log.info(
        "table %s version %s: refused %s", code, version, reason,
        extra={"table": code, "version": version, "reason": reason, "outcome": "refused"},
    )


def failed(code: str, version: int | None, error: BaseException) -> None:
    reason = type(error).__name__
    log.error(
        "table %s version %s: failed %s", code, version, reason, exc_info=error,
        extra={"table": code, "version": version, "reason": reason, "outcome": "failed"},
    )
