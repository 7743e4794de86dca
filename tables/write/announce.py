"""Announcing: the group message telling the phones at a table that it changed (sent after
the write path's commit: ``notify``, or ``write_then_notify`` from async code), and the
channel-layer calls that may fail (telling, a connection joining or leaving its group).

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
import json
import logging
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any, TypeVar, cast

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import InMemoryChannelLayer, get_channel_layer
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from tables import metrics

T = TypeVar("T")
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


class NotAnnounced(Exception):
    """Committed but not told (Redis away): ``result`` is the write's; phones catch up later."""

    def __init__(self, result: Any) -> None:
        super().__init__("committed, not announced")
        self.result = result


def group_name(table_id: int) -> str:
    return f"table.{table_id}"


# What a change of play did, told to the other processes so that they work the new version
# out from the one before (``tables.cache.derive``): the version it followed, the public
# actions taken and the table row's new values. Never a card.
Step = dict[str, Any]

# Set while a write runs for the event loop (``write_then_notify``): the group messages are
# collected here and sent from the loop once the write is done, instead of from the database
# thread, which would have to wait for the busy loop before it could start the next write.
_deferred: ContextVar[list[tuple[int, int, Step | None]] | None] = ContextVar(
    "tables_notes", default=None
)


def changed_message(version: int, step: Step | None = None) -> dict[str, Any]:
    """The group message: which version the table is at now, and for a change of play how it
    got there (``Step``, as JSON text: a layer decodes a message once for every connection,
    and only the first connection of a process that needs the step reads it). Nothing
    hidden."""
    if step is None:
        return {"type": "table.changed", "version": version}
    return {
        "type": "table.changed", "version": version,
        "step": json.dumps(step, separators=(",", ":")),
    }


def _told(layer: Any, version: int, step: Step | None) -> dict[str, Any]:
    """The group message for this layer (an in-process one has no other process to tell how)."""
    return changed_message(version, None if isinstance(layer, InMemoryChannelLayer) else step)


def notify(table_id: int, version: int, step: Step | None = None) -> None:
    """Tell every connection at the table that it changed. Carries no hidden information."""
    pending = _deferred.get()
    if pending is not None:
        pending.append((table_id, version, step))
        return
    # Redis away: logged and counted, not a server error (the change is committed).
    tell(group_name(table_id), _told(get_channel_layer(), version, step))


async def write_then_notify(write: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """For async code (consumers, the clock loop): run ``write`` on the database thread, then
    send the group messages of what it committed from the event loop. Runs to the end even if
    the caller is cancelled (a phone that disconnects mid-action): a committed change is always
    announced. ``write``'s exceptions (``Refused``...) reach the caller, ``NotAnnounced`` too."""

    def run() -> tuple[T | None, list[tuple[int, int, Step | None]], BaseException | None]:
        notes: list[tuple[int, int, Step | None]] = []
        token = _deferred.set(notes)
        try:
            return write(*args, **kwargs), notes, None
        except Exception as exc:  # announced first, raised below
            return None, notes, exc
        finally:
            _deferred.reset(token)

    async def run_and_announce() -> T:
        result, notes, error = await database_sync_to_async(run)()
        layer = get_channel_layer()
        told = True
        if layer is not None:
            for table_id, version, step in notes:  # each logged and counted if not told
                told &= await tell_async(layer, group_name(table_id), _told(layer, version, step))
        if error is not None:
            raise error
        if not told:
            raise NotAnnounced(result)
        return cast(T, result)  # None only together with an error

    return await asyncio.shield(asyncio.ensure_future(run_and_announce()))
