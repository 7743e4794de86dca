"""Prometheus metrics of one server process, served at /metrics (config/health.py).

What is counted, and where the count is taken:

- ``holdem_open_websockets``: phones connected to a table (tables.live.consumer, connect and
  disconnect);
- ``holdem_actions_total``: actions applied (a rate of it is actions per second);
- ``holdem_action_to_last_frame_seconds``: from an action's message arriving to the last frame
  of the version it made that this process sent to its phones (the table's other phones, when
  they are served here: route a table to one process, deploy/nginx);
- ``holdem_write_retries_total``: changes of play first tried on the version this process holds
  that had to be made again under the table's row lock (tables.write.path.apply_change);
- ``holdem_deadlines_fired_total``: deadlines fired by this process's clock, by kind;
- ``holdem_chat_messages_total``: chat messages sent (``chat_message()``);
- ``holdem_not_announced_total``: group messages that could not be sent (the channel layer,
  Redis, away): what they told is committed and phones catch up when they ask
  (tables.write.announce).

Each process keeps its own figures: Prometheus scrapes every process at its own port.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from prometheus_client import Counter, Gauge, Histogram

OPEN_WEBSOCKETS = Gauge("holdem_open_websockets", "Phones connected to a table by websocket.")
ACTIONS = Counter("holdem_actions", "Actions applied (players' bets, calls, folds...).")
ACTION_TO_LAST_FRAME = Histogram(
    "holdem_action_to_last_frame_seconds",
    "From an action arriving to the last frame of its version sent by this process.",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5),
)
WRITE_RETRIES = Counter(
    "holdem_write_retries", "Changes of play made again under the table's row lock."
)
DEADLINES_FIRED = Counter(
    "holdem_deadlines_fired", "Deadlines fired by this process's clock.", ["kind"]
)
CHAT_MESSAGES = Counter("holdem_chat_messages", "Chat messages sent at tables.")
NOT_ANNOUNCED = Counter(
    "holdem_not_announced", "Group messages not sent: the channel layer was away."
)

# An action's frames are all sent within milliseconds; one still open after this long (its
# phones gone, the table quiet) is measured as it stands.
SETTLE_SECONDS = 5.0


def websocket_opened() -> None:
    OPEN_WEBSOCKETS.inc()


def websocket_closed() -> None:
    OPEN_WEBSOCKETS.dec()


def write_retried() -> None:
    WRITE_RETRIES.inc()


def not_announced() -> None:
    NOT_ANNOUNCED.inc()


def deadline_fired(kind: str) -> None:
    DEADLINES_FIRED.labels(kind=kind or "none").inc()


def chat_message() -> None:
    CHAT_MESSAGES.inc()


@dataclass
class _Pending:
    version: int
    started: float
    last_frame: float | None = None


# By table: the last action applied through this process, until its frames are measured.
_pending: dict[int, _Pending] = {}


def now() -> float:
    return time.perf_counter()


def action_applied(table_id: int, version: int, started: float) -> None:
    """An action arriving at ``started`` (``now()``) made ``version`` of the table."""
    ACTIONS.inc()
    _settle(table_id)
    pending = _pending[table_id] = _Pending(version, started)
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return
    loop.call_later(SETTLE_SECONDS, _settle_if, table_id, pending)


def frame_sent(table_id: int, version: int) -> None:
    """A frame of ``version`` went to one phone."""
    pending = _pending.get(table_id)
    if pending is None:
        return
    if version == pending.version:
        pending.last_frame = now()
    elif version > pending.version:
        _settle(table_id)  # the table moved on: every frame of that version has gone


def _settle_if(table_id: int, pending: _Pending) -> None:
    if _pending.get(table_id) is pending:
        _settle(table_id)


def _settle(table_id: int) -> None:
    pending = _pending.pop(table_id, None)
    if pending is not None and pending.last_frame is not None:
        ACTION_TO_LAST_FRAME.observe(pending.last_frame - pending.started)
