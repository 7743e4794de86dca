"""One connection's messages, from the phone and from the channel layer, handled one at a time
and in the order they came, with as few hops through the event loop as possible.

Channels' consumer waits on both sources with ``asyncio.wait`` and starts a new task for the
source that answered after every message: for each frame a phone is sent, a task made, two
futures waited on and three or four callbacks through the loop. Here the connection takes its
messages from one ``Inbox``:

- the channel layers of the tables app (``tables.live.layers``, ``tables.live.redis_layer``)
  hand a group's message straight to the inbox of each of this process's connections in the
  group (``tap``): a frame costs one wake-up, the connection's. No queue per channel, no
  reader task, no second wake-up;
- the phone's messages (Daphne's queue) and any other layer's are read by one task per source
  for the connection's life, which puts what it reads in the inbox. What a source raises
  reaches the connection as if it had read it.

The inbox is a deque and at most one future at a time for the connection waiting on it (an
``asyncio.Queue`` is four deques, an event and a lock: 2.5 KB a connection).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

Source = Callable[[], Awaitable[Any]]
Item = tuple[BaseException | None, Any]  # (a source's error, or None; the message)

# At most this many messages wait in a connection's inbox: past it a reader waits, so a
# connection that cannot keep up leaves the rest where they were (a phone's socket, whose
# server stops reading), and a layer's send to a full inbox misses it (as a full channel did:
# ``channels.exceptions.ChannelFull``, a slow connection that would never draw the message).
# A phone has a frame to draw and a few lines of talk at a time.
INBOX_SIZE = 64


class Inbox:
    """A connection's messages in the order they came: put by its readers (``put``, which waits
    while the inbox is full) and delivered by a channel layer (``deliver``, never waiting), taken
    by the connection alone (``get``)."""

    __slots__ = ("_items", "_room", "_taker", "size")

    def __init__(self, size: int = INBOX_SIZE) -> None:
        self._items: deque[Item] = deque()
        self._taker: asyncio.Future[None] | None = None  # the connection, waiting for a message
        self._room: deque[asyncio.Future[None]] = deque()  # readers waiting for room
        self.size = size

    def __len__(self) -> int:
        return len(self._items)

    def full(self) -> bool:
        return len(self._items) >= self.size

    def deliver(self, message: Any) -> None:
        """A message for the connection, now (the caller checks ``full`` if it must)."""
        self._push((None, message))

    def _push(self, item: Item) -> None:
        self._items.append(item)
        taker = self._taker
        if taker is not None and not taker.done():
            taker.set_result(None)

    async def put(self, item: Item) -> None:
        """``item`` in the inbox once there is room for it."""
        while len(self._items) >= self.size:
            room = asyncio.get_running_loop().create_future()
            self._room.append(room)
            try:
                await room
            finally:
                with contextlib.suppress(ValueError):
                    self._room.remove(room)
        self._push(item)

    async def get(self) -> Item:
        """The oldest item, once there is one (one taker at a time: the connection)."""
        while not self._items:
            taker = self._taker = asyncio.get_running_loop().create_future()
            try:
                await taker
            finally:
                self._taker = None
        item = self._items.popleft()
        while self._room:
            room = self._room.popleft()
            if not room.done():
                room.set_result(None)
                break
        return item


async def handle_in_order(
    sources: Sequence[Source], handle: Callable[[Any], Awaitable[None]],
    inbox: Inbox | None = None,
) -> None:
    """``await handle(message)`` for every message ``inbox`` is given (by a channel layer's
    ``tap``) or any of ``sources`` returns, one at a time, until ``handle`` or a source raises
    (raised here; the readers are then stopped)."""
    if inbox is None:
        inbox = Inbox()

    async def read(source: Source) -> None:
        assert inbox is not None
        try:
            while True:
                message = await source()
                await inbox.put((None, message))
        except asyncio.CancelledError:
            raise
        except BaseException as exc:  # handed on: raised by the connection
            await inbox.put((exc, None))

    readers = [asyncio.ensure_future(read(source)) for source in sources]
    try:
        while True:
            error, message = await inbox.get()
            if error is not None:
                raise error
            await handle(message)
    finally:
        for reader in readers:
            reader.cancel()
        for reader in readers:
            with contextlib.suppress(asyncio.CancelledError):
                await reader
