"""The host's controls on the phones: ``{"type": "host", ...}`` messages from the host's phone
and the menu drawn for it (``#host-menu``). The controls themselves are ``tables.write.host``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from channels.db import database_sync_to_async
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import override

from tables.live.frames import error_notice
from tables.live.protocol import Message
from tables.models import Table
from tables.write.announce import tell_async, write_then_notify
from tables.write.host import (
    computer_plays,
    end_game,
    pass_host,
    pause_game,
    resume_game,
    set_learning,
)
from tables.write.path import Refused

# A phone's connection (``tables.live.consumer.TableConsumer``, which calls this module: typed
# loosely so that the two do not import each other).
Connection = Any


async def receive(consumer: Connection, message: Message) -> None:
    """``{"type": "host", "do": "pause|resume|end|computer|pass|menu|learning_on|learning_off",
    "seat": N}``: the
    control is made (every phone redraws from the group message) or refused to this phone."""
    assert consumer.table_id is not None
    do = message.do
    try:
        if do == "menu":
            await consumer.send(text_data=await database_sync_to_async(menu_html)(
                consumer.table_id, consumer.hashes, consumer.language
            ))
            return
        if do in ("computer", "pass") and message.seat is None:
            raise Refused("bad_seat", _("A seat is a number from 0 to 5."))
        if do == "pause":
            await write_then_notify(pause_game, consumer.table_id, consumer.hashes)
        elif do == "resume":
            await write_then_notify(resume_game, consumer.table_id, consumer.hashes)
        elif do == "end":
            await write_then_notify(end_game, consumer.table_id, consumer.hashes)
        elif do == "computer":
            await write_then_notify(
                computer_plays, consumer.table_id, consumer.hashes, message.seat
            )
        elif do == "pass":
            await write_then_notify(
                pass_host, consumer.table_id, consumer.hashes, message.seat
            )
        elif do in ("learning_on", "learning_off"):  # the learning table switch
            await write_then_notify(
                set_learning, consumer.table_id, consumer.hashes, do == "learning_on"
            )
        else:
            raise Refused("unknown_control", _("Unknown host control."))
    except Refused as exc:
        await consumer.send_notice(error_notice(exc.code, exc.message))
        return
    if do == "pass":  # who may switch talk off and run the game changed: every phone's state
        await tell_async(consumer.channel_layer, consumer.group, {
            "type": "chat.event", "kind": "refresh",
        })
    await consumer.send(text_data=await database_sync_to_async(menu_html)(
        consumer.table_id, consumer.hashes, consumer.language
    ))


def menu_html(table_id: int, hashes: Iterable[str], language: str) -> str:
    """The host's controls as they stand now (``#host-menu``), for this phone only: empty for
    anyone but the host."""
    table = Table.objects.filter(pk=table_id).first()
    context: dict[str, object] = {"is_host": False}
    if table is not None:
        seats = list(table.seats.all())
        wanted = set(hashes)
        mine = [s.position for s in seats if s.claim_hash and s.claim_hash in wanted]
        host = table.host_position
        if host is not None and host in mine and table.is_open:
            others = [s for s in seats if s.is_person and s.position != host]
            context = {
                "is_host": True, "playing": table.status == Table.Status.PLAYING,
                "paused": table.paused, "away": [s for s in others if s.away],
                "others": others,
                # The learning table switch (not against the computer: always on)
                "learning": table.learning if table.mode != Table.Mode.COMPUTER else None,
            }
    with override(language):
        return render_to_string("tables/_host_menu.html", context)
