"""Whether a phone's table page is in sight: ``{"type": "sight", "visible": true}``, sent by a
page whose phone turned notifications on (``static/js/push.js``) as it is shown or hidden and
every minute while shown. "Your turn" is pushed only to a phone with no page of the table in
sight (``tables.write.push``); a closed connection takes its page out of sight.
"""

from __future__ import annotations

import contextlib
from typing import Any

from channels.db import database_sync_to_async

from tables.live.protocol import Handler, Message
from tables.write import push
from tables.write.reconnect import DATABASE_AWAY

# A phone's connection (``tables.live.consumer.TableConsumer``).
Connection = Any


async def sight(consumer: Connection, message: Message) -> None:
    if consumer.table_id is None or not consumer.phone:
        return
    was = getattr(consumer, "in_sight", False)
    consumer.in_sight = message.on
    change = 0 if was == message.on else (1 if message.on else -1)
    if change or message.on:
        await database_sync_to_async(push.sight)(consumer.table_id, consumer.phone, change)


async def gone(consumer: Connection) -> None:
    """The connection closed: its page is out of sight."""
    if getattr(consumer, "in_sight", False) and consumer.table_id is not None:
        consumer.in_sight = False
        with contextlib.suppress(*DATABASE_AWAY):
            await database_sync_to_async(push.sight)(consumer.table_id, consumer.phone, -1)


HANDLERS: dict[str, Handler] = {"sight": sight}
