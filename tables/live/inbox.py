"""One connection's messages, from the phone and from the channel layer, handled one at a time
and in the order they came, with fewer hops through the event loop than Channels' own loop.

Channels' consumer waits on both sources with ``asyncio.wait`` and starts a new task for the
source that answered after every message: for each frame a phone is sent, a task made, two
futures waited on and three or four callbacks through the loop. Here each source has one task
for the connection's life that puts what it reads in the connection's inbox, and the
connection takes from the inbox: a message costs one wake-up of the reader and one of the
connection. What a source raises reaches the connection as if it had read it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

Source = Callable[[], Awaitable[Any]]

# At most this many messages wait in a connection's inbox: past it a reader waits, so a
# connection that cannot keep up leaves the rest where they were (in the channel layer, whose
# own capacity then drops what a slow connection would never draw; a phone's socket, whose
# server stops reading). A phone has a frame to draw and a few lines of talk at a time.
INBOX_SIZE = 64


async def handle_in_order(
    sources: Sequence[Source], handle: Callable[[Any], Awaitable[None]]
) -> None:
    """``await handle(message)`` for every message any of ``sources`` returns, one at a time,
    until ``handle`` or a source raises (raised here; the readers are then stopped)."""
    inbox: asyncio.Queue[tuple[BaseException | None, Any]] = asyncio.Queue(INBOX_SIZE)

    async def read(source: Source) -> None:
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
