"""Group messages that may fail: telling the phones at a table that something changed.

What the message tells (a new version, a chat line, a host's switch, a late seat request) is
committed before it is sent; a phone that misses it catches up when it next asks (every
socket asks for the table's version when it opens, and every frame carries it). So while the
channel layer (Redis) is away, a group message that cannot be sent is logged and counted
(``holdem_not_announced_total`` in /metrics), never an error for the person who made the
change: a page does not become a server error, a consumer does not close the socket.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from tables import metrics

log = logging.getLogger("tables.write")


def _failed(group: str, event: dict[str, Any], exc: BaseException) -> None:
    metrics.not_announced()
    log.warning("not announced to %s (the channel layer is away): %s %r",
                group, event.get("type"), exc)


def tell(group: str, event: dict[str, Any]) -> bool:
    """Send ``event`` to ``group`` from sync code (a view, the admin); False if it could not."""
    layer = get_channel_layer()
    if layer is None:
        return False
    try:
        async_to_sync(layer.group_send)(group, event)
    except Exception as exc:  # the layer's own errors: Redis refused, timed out, went away
        _failed(group, event, exc)
        return False
    return True


async def tell_async(layer: Any, group: str, event: dict[str, Any]) -> bool:
    """Send ``event`` to ``group`` from a consumer; False if it could not."""
    if layer is None:
        return False
    try:
        await layer.group_send(group, event)
    except Exception as exc:
        _failed(group, event, exc)
        return False
    return True
