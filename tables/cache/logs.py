"""The action log of every hand being drawn, kept between versions.

Keyed by table, creation time and language, for one hand (its number, the deal and the seats'
names: ``hand``): each new version only describes the events added since the last (a hand's
events are only ever appended); a log of another hand (the table's next), or that holds more
events than the hand (the hand was replaced), is started again in its place, so a table keeps
one log a language, not one a hand it played. The oldest logs go first once ``LOGS_KEPT`` are
kept.
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


_logs: OrderedDict[Hashable, tuple[Hashable, Any]] = OrderedDict()  # key: (hand, log)
_logs_lock = threading.Lock()
LOGS_KEPT = 1024

L = TypeVar("L", bound=Growing)
R = TypeVar("R")


def read_log(
    key: Hashable, events: int, make: Callable[[], L], read: Callable[[L], R],
    hand: Hashable = None,
) -> R:
    """``read(log)`` of the log kept for ``key`` and ``hand`` (a new one from ``make()`` when
    there is none, it is another hand's, or it has seen more than ``events`` events), under
    the lock: ``read`` adds what is new and copies what the caller needs."""
    with _logs_lock:
        kept = _logs.get(key)
        log: L | None = kept[1] if kept is not None and kept[0] == hand else None
        if log is None or log.count > events:
            log = make()
            _logs[key] = (hand, log)
            _logs.move_to_end(key)
            while len(_logs) > LOGS_KEPT:
                _logs.popitem(last=False)
        else:
            _logs.move_to_end(key)
        return read(log)
