"""The host's controls on the phones: ``{"type": "host", ...}`` messages from the host's phone
and the menu drawn for it (``#host-menu``, in the host's own sheet:
templates/table/host_sheet.html).
The controls themselves are ``tables.write.host`` and, at a tournament's table, for the
tournament's host, ``tables.write.tournament_control``; the message's handler is in
``HANDLERS`` (called by ``tables.live.consumer``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from channels.db import database_sync_to_async
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import override

from tables.live.protocol import Handler, Message
from tables.models import Table
from tables.models.tournament import Tournament
from tables.write import tournament_control
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


# Each control's write (tables.write.host), made with the table, the phone's claims and, for
# these, one more value taken from the message.
_CONTROLS: dict[str, Callable[..., Any]] = {
    "pause": pause_game, "resume": resume_game, "end": end_game, "computer": computer_plays,
    "pass": pass_host, "learning_on": set_learning, "learning_off": set_learning,
    "tournament_computer": tournament_control.computer_plays,
}
# The tournament host's controls of the whole tournament: made with the tournament's id.
_OF_TOURNAMENT: dict[str, Callable[..., Any]] = {
    "tournament_pause": tournament_control.pause, "tournament_resume": tournament_control.resume,
    "tournament_end": tournament_control.end,
}
_WITH_SEAT = ("computer", "pass", "tournament_computer")  # the seat it is for
_LEARNING = ("learning_on", "learning_off")  # the learning table switch: on or off


async def receive(consumer: Connection, message: Message) -> None:
    """``{"type": "host", "do": "pause|resume|end|computer|pass|menu|learning_on|learning_off",
    "seat": N}``: the control is made (every phone redraws from the group message), then this
    phone is sent the menu as it stands; refused (``Refused``, told to this phone by the
    consumer), nothing is."""
    assert consumer.table_id is not None
    do = message.do
    if do in _OF_TOURNAMENT:
        await write_then_notify(
            _of_tournament, _OF_TOURNAMENT[do], consumer.table_id, consumer.hashes
        )
    elif do != "menu":
        write = _CONTROLS.get(do)
        if write is None:
            raise Refused("unknown_control", _("Unknown host control."))
        await write_then_notify(write, consumer.table_id, consumer.hashes, *_more(message))
    if do == "pass":  # who may switch talk off and run the game changed: every phone's state
        await tell_async(consumer.channel_layer, consumer.group, {
            "type": "chat.event", "kind": "refresh",
        })
    await consumer.send(text_data=await database_sync_to_async(menu_html)(
        consumer.table_id, consumer.hashes, consumer.language
    ))


HANDLERS: dict[str, Handler] = {"host": receive}


def _more(message: Message) -> tuple[Any, ...]:
    """What a control takes besides the table and the claims."""
    if message.do in _WITH_SEAT:
        if message.seat is None:
            raise Refused("bad_seat", _("A seat is a number from 0 to 5."))
        return (message.seat,)
    if message.do in _LEARNING:
        return (message.do == "learning_on",)
    return ()


def _of_tournament(write: Callable[..., Any], table_id: int, hashes: Iterable[str]) -> None:
    """A control of the whole tournament, given one of its tables."""
    tournament_id = (
        Table.objects.filter(pk=table_id).values_list("tournament_id", flat=True).first()
    )
    if tournament_id is None:
        raise Refused("not_host", _("Only the host can do that."))
    write(tournament_id, hashes)


def menu_html(table_id: int, hashes: Iterable[str], language: str) -> str:
    """The host's controls as they stand now (``#host-menu``), for this phone only: empty for
    anyone but the host (of the table, or of the tournament the table is part of)."""
    table = Table.objects.filter(pk=table_id).first()
    context: dict[str, object] = {"is_host": False}
    if table is not None and table.is_open:
        seats = list(table.seats.all())
        if table.tournament_id is not None:
            context = _tournament_context(table, seats, hashes)
        else:
            context = _table_context(table, seats, hashes)
    with override(language):
        return render_to_string("table/_host_menu.html", context)


def _table_context(table: Table, seats: list[Any], hashes: Iterable[str]) -> dict[str, object]:
    wanted = set(hashes)
    mine = [s.position for s in seats if s.claim_hash and s.claim_hash in wanted]
    host = table.host_position
    if host is None or host not in mine:
        return {"is_host": False}
    others = [s for s in seats if s.is_person and s.position != host]
    return {
        "is_host": True, "playing": table.status == Table.Status.PLAYING,
        "paused": table.paused, "away": [s for s in others if s.away],
        "others": others, "code": table.code,
        # The learning table switch (not against the computer: always on)
        "learning": table.learning if table.mode != Table.Mode.COMPUTER else None,
    }


def _tournament_context(
    table: Table, seats: list[Any], hashes: Iterable[str]
) -> dict[str, object]:
    tournament = Tournament.objects.filter(pk=table.tournament_id or 0).first()
    if tournament is None or not tournament_control.is_host(tournament, hashes):
        return {"is_host": False}
    return {
        "is_host": True, "tournament": tournament, "code": table.code,
        "playing": tournament.status == Tournament.Status.PLAYING,
        "paused": tournament.paused,
        "away": [s for s in seats if s.is_person and s.away],
    }
