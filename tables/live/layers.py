"""The in-memory channel layer of the embedded default (one server process), without its
per-message housekeeping.

Channels' ``InMemoryChannelLayer`` walks every channel and every group to drop expired
messages on each ``send``, ``receive`` and ``group_send``, and sends to a group's members
through one task each. With hundreds of phones connected that walk costs more than delivering
the message (benchmarks/load). This layer does the same housekeeping at most once a second
(messages still expire after a minute, group memberships after a day) and delivers to a group
in one pass. Behaviour is otherwise that of the base class; production uses Redis instead
(``REDIS_URL``).
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer


class LocalChannelLayer(InMemoryChannelLayer):  # type: ignore[misc]  # channels is untyped
    clean_every = 1.0  # seconds between two walks over every channel and group

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._last_clean = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._last_clean < self.clean_every:
            return
        self._last_clean = now
        super()._clean_expired()

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, ())):
            # Puts on the channel's queue, never waits; like the base class, a full channel
            # misses this message.
            with contextlib.suppress(ChannelFull):
                await self.send(channel, message)
