"""The action log of every hand being drawn, kept between versions.

Keyed by table, creation time, hand number, the deal, the language and the seats' names: each
new version only describes the events added since the last (a hand's events are only ever
appended), and a log that holds more events than the hand (the hand was replaced) is started
again. The oldest logs go first once ``LOGS_KEPT`` are kept.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Protocol, TypeVar


class Growing(Protocol):
    """A log that is only ever added to (``tables.draw.describe.Log``)."""

    @property
    def count(self) -> int: ...


_logs: OrderedDict[Hashable, Any] = OrderedDict()
_logs_lock = threading.Lock()
LOGS_KEPT = 1024

L = TypeVar("L", bound=Growing)
R = TypeVar("R")


def read_log(key: Hashable, events: int, make: Callable[[], L], read: Callable[[L], R]) -> R:
    """``read(log)`` of the log kept for ``key`` (a new one from ``make()`` when there is none
    or it has seen more than ``events`` events), under the lock: ``read`` adds what is new and
    copies what the caller needs."""
    with _logs_lock:
        log: L | None = _logs.get(key)
        if log is None or log.count > events:
            log = _logs[key] = make()
            while len(_logs) > LOGS_KEPT:
                _logs.popitem(last=False)
        else:
            _logs.move_to_end(key)
        return read(log)
