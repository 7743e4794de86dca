"""A person out of chips, on the phones: ``{"type": "out", "on": "1"}`` asks to be told when
the next game starts (``"0"``: no longer). The choice is kept by ``tables.write.out`` through
the write path, so every phone redraws and this person's shows it (templates/table/out.html).
The message's handler is in ``HANDLERS`` (called by ``tables.live.consumer``).
"""

from __future__ import annotations

from typing import Any

from tables.live.protocol import Handler, Message
from tables.write.announce import write_then_notify
from tables.write.out import tell_when_next_game_starts


async def receive(consumer: Any, message: Message) -> None:
    assert consumer.table_id is not None
    await write_then_notify(
        tell_when_next_game_starts, consumer.table_id, consumer.hashes, message.on
    )


HANDLERS: dict[str, Handler] = {"out": receive}
