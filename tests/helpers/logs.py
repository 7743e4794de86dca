"""What the app logs during a test, on record: ``app_log()`` holds every record of the "tables"
logger (which does not propagate) and of the root's (channels-redis logs there)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager


class AppLog(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def warnings(self, containing: str) -> list[str]:
        """The warnings (and worse) whose message contains ``containing``."""
        return [r.getMessage() for r in self.records
                if r.levelno >= logging.WARNING and containing in r.getMessage()]

    def tracebacks(self) -> list[str]:
        return [r.getMessage() for r in self.records if r.exc_info]


@contextmanager
def app_log() -> Iterator[AppLog]:
    import config.asgi  # noqa: F401  # sets logging up (once): after it, not over the handler

    handler = AppLog()
    loggers = [logging.getLogger("tables"), logging.getLogger()]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield handler
    finally:
        for logger in loggers:
            logger.removeHandler(handler)
