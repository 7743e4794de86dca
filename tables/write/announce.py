"""Channel-layer calls that may fail: telling the phones at a table that something changed,
and a connection joining or leaving its table's group.

What a message tells (a new version, a chat line, a host's switch, a late seat request) is
committed before it is sent; a phone that misses it catches up when it next asks (every
socket asks for the table's version when it opens, and every frame carries it). So while the
channel layer (Redis) is away, a call that cannot be made is logged in one line and skipped
(a group message is also counted: ``holdem_not_announced_total`` in /metrics), never an error
for the person who made the change or the phone that joins or leaves: a page does not become
a server error, a consumer does not raise. ``guarded`` is that one rule; only the errors of a
layer that cannot reach its server are caught (``LAYER_AWAY``), anything else still raises.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from tables import metrics

log = logging.getLogger("tables.write")

# What a channel layer raises when its server is away: redis-py's own (refused, reset, closed
# by the server, timed out), and the socket's and asyncio's where they come through unwrapped.
LAYER_AWAY: tuple[type[BaseException], ...] = (
    RedisConnectionError, RedisTimeoutError, OSError, asyncio.TimeoutError,
)


async def guarded(
    where: str, what: str, call: Callable[..., Awaitable[Any]], *args: Any
) -> bool:
    """``await call(*args)``, a channel-layer call; False, with one line logged (no traceback:
    the cause is known), if the layer is away. ``where`` (the table: "table <code>" from a
    connection, its group "table.<id>" for a message) and ``what`` name it in that line."""
    try:
        await call(*args)
    except LAYER_AWAY as exc:
        log.warning("%s: %s skipped, the channel layer is away (%s: %s)",
                    where, what, type(exc).__name__, exc)
        return False
    return True


async def _announce(layer: Any, group: str, event: dict[str, Any]) -> bool:
    told = await guarded(group, f"announcing {event.get('type')}", layer.group_send, group, event)
    if not told:
        metrics.not_announced()
    return told


def tell(group: str, event: dict[str, Any]) -> bool:
    """Send ``event`` to ``group`` from sync code (a view, the admin); False if it could not."""
    layer = get_channel_layer()
    if layer is None:
        return False
    return bool(async_to_sync(_announce)(layer, group, event))


async def tell_async(layer: Any, group: str, event: dict[str, Any]) -> bool:
    """Send ``event`` to ``group`` from a consumer; False if it could not."""
    if layer is None:
        return False
    return await _announce(layer, group, event)
