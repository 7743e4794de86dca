"""The in-memory channel layer of the embedded default (one server process), without its
per-message housekeeping.

Channels' ``InMemoryChannelLayer`` walks every channel and every group to drop expired
messages on each ``send``, ``receive`` and ``group_send``, and sends to a group's members
through one task each. With hundreds of phones connected that walk costs more than delivering
the message (benchmarks/load). This layer does the same housekeeping at most once a second
(messages still expire after a minute, group memberships after a day) and delivers to a group
in one pass. A connection of the tables app hands the layer its inbox (``tap``): a message
for its channel is then put straight in the inbox (``tables.live.inbox``) instead of a queue
that a task of the connection's reads. Behaviour is otherwise that of the base class;
production uses Redis instead (``REDIS_URL``).
"""

from __future__ import annotations

import contextlib
import time
from copy import deepcopy
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer

from tables.live.inbox import Inbox


class LocalChannelLayer(InMemoryChannelLayer):  # type: ignore[misc]  # channels is untyped
    clean_every = 1.0  # seconds between two walks over every channel and group

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._last_clean = 0.0
        self._inboxes: dict[str, Inbox] = {}

    def tap(self, channel: str, inbox: Inbox) -> None:
        """Messages for ``channel`` (this process's connection's own) go to ``inbox`` from now on:
        whoever reads the channel is that inbox's connection (never ``receive``)."""
        self._inboxes[channel] = inbox

    async def untap(self, channel: str) -> None:
        """The connection of ``channel`` is gone: its messages are no longer delivered."""
        self._inboxes.pop(channel, None)

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        inbox = self._inboxes.get(channel)
        if inbox is None:
            await super().send(channel, message)
            return
        assert isinstance(message, dict), "message is not a dict"
        if inbox.full():  # as a full channel's queue: this message is missed
            raise ChannelFull(channel)
        inbox.deliver(deepcopy(message))  # each receiver its own, as the base class does

    async def flush(self) -> None:
        self._inboxes.clear()
        await super().flush()

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
