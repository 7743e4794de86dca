"""The record of a soak: everything each client was told, and what the harness did, in order.

One JSON object per line (``record.jsonl``), each with ``t`` (seconds since the soak started,
the harness's monotonic clock) and ``e`` (what it is):

- ``tables``: the tables made (id, code, level, persons and their seats);
- ``fault``: a fault injected (``kind``, ``start``, ``end``: when the service was back, and
  ``detail``); ``snapshot``: the tables' versions read from the database at a fault's end;
- ``frame``: a view a player received (table, player, seat, version, hand, events: the hand's
  event count, screen, to_act, cards: every card code in the frame, hand_over, notice);
- ``sent``: an action sent (table, player, seat, version, hand, id, kind, amount, resend);
- ``fate``: what the client was told became of an action id: ``applied`` (no refusal before the
  ``pong`` that follows it on the same socket, or "already counted"), ``refused`` (with the
  notice's code) or, after a drop, the server's answer to ``sync`` (pending_applied...);
- ``conn``: a socket opened or closed (``drop``: closed by the fault schedule);
- ``http``: a page asked through nginx (path, status, friendly: the app's own error page);
- ``stack``: the ports the stack listens on;
- ``end``: play stopped; ``stuck``: tables whose deadline was overdue at that moment.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any


class Recorder:
    def __init__(self, path: Path | None) -> None:
        self.started = time.monotonic()
        self.events: list[dict[str, Any]] = []
        self._file = open(path, "w", encoding="utf-8") if path else None  # noqa: SIM115
        # Pages are asked from threads (asyncio.to_thread) while the players write from the
        # loop: a text file's writes are not safe across threads (one CI run's record had a
        # line of NUL-interleaved bytes), so each event is written whole under a lock.
        self._lock = threading.Lock()

    def now(self) -> float:
        return round(time.monotonic() - self.started, 4)

    def at(self, moment: float) -> float:
        """A time.monotonic() moment in the record's time."""
        return round(moment - self.started, 4)

    def add(self, kind: str, /, **fields: Any) -> dict[str, Any]:
        event = {"t": fields.pop("t", None) or self.now(), "e": kind, **fields}
        line = json.dumps(event, separators=(",", ":")) + "\n"
        with self._lock:
            self.events.append(event)
            if self._file is not None:
                self._file.write(line)
        return event

    def close(self) -> None:
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None


def load(path: Path) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]
