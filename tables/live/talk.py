"""Table talk on the phones: the talk messages a phone sends over the table's websocket
(``chat``, ``react``, ``mute``, ``unmute``, ``talk``, ``chat_history``) and the small frames each
phone is sent when a line is said, deleted, or talk is switched (``deliver``). Each talk
message has its handler in ``HANDLERS`` (called by ``tables.live.consumer``); a refusal is
raised as ``tables.write.path.Refused`` and told to that phone alone.

A bubble at the sender's seat and the chat drawer with its unread count are drawn by the phone's
script from these frames (static/js/chat.js), which only ever sets the text as text; templates
escape it. A phone can mute a person for itself (kept in its session, by seat). Storing and the
checks are in ``tables.write.talk``.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import override

from tables.cache import Snapshot, newest
from tables.live import host, late
from tables.live.frames import info_notice, render_notice
from tables.live.perspective import PassState
from tables.live.protocol import Handler, Message
from tables.models import Table, TableTalk
from tables.write import talk as stored
from tables.write.announce import tell_async
from tables.write.path import Refused
from tables.write.talk import (
    EVENTS,
    REACTIONS,
    Line,
    clean_text,
    recent,
    store,
    switch_talk,
    talk_of,
)

# A phone's connection (``tables.live.consumer.TableConsumer``, which calls this module: typed
# loosely so that the two do not import each other).
Connection = Any


def line_html(line: Line, language: str) -> str:
    """One line of the drawer (table/_chat_line.html) in the phone's language."""
    emoji, label = REACTIONS.get(line.reaction, ("", ""))
    with override(language):
        said = line.said() if line.event in EVENTS else ""
        return render_to_string(
            "table/_chat_line.html",
            {"line": line, "emoji": emoji, "label": str(label), "said": said},
        )


def appended(line: Line, language: str) -> str:
    """The frame for a new line: appended to the drawer, nothing else touched."""
    return (
        '<ol id="chat-log" hx-swap-oob="beforeend">' + line_html(line, language) + "</ol>"
    )


def drawer(lines: list[Line], language: str) -> str:
    """The drawer's lines as a whole (sent when a phone connects or mutes someone)."""
    body = "".join(line_html(line, language) for line in lines)
    return (
        '<ol id="chat-log" class="chat-log" hx-swap-oob="true" data-testid="chat-log"'
        f' data-initial="1">{body}</ol>'
    )


def state_html(
    snapshot: Snapshot, mine: list[int], talk: TableTalk, muted: set[int], language: str
) -> str:
    """Talk on or off, the host's switch, and this phone's mute list (table/_chat_state.html).
    Drawn per connection: whether it is the host's and whom it muted are its own."""
    persons = [
        {"seat": s.position, "name": s.name, "muted": s.position in muted}
        for s in sorted(snapshot.seats.values(), key=lambda s: s.position)
        if not s.is_computer and s.position not in mine
    ]
    is_host = snapshot.host_position is not None and snapshot.host_position in mine
    with override(language):
        return render_to_string("table/_chat_state.html", {
            "off": talk.off, "by": talk.by, "is_host": is_host, "persons": persons,
            "can_talk": bool(mine), "code": snapshot.code,
        })


def _phone(consumer: Connection) -> tuple[int, str]:
    assert consumer.table_id is not None
    return consumer.table_id, ",".join(sorted(consumer.hashes)) or consumer.channel_name


def _mutes_key(table_id: int) -> str:
    return f"chat_muted:{table_id}"


def _load_mutes(session: Any, table_id: int) -> set[int]:
    if session is None:
        return set()
    value = session.get(_mutes_key(table_id), [])
    return {int(p) for p in value if isinstance(p, int) and not isinstance(p, bool)}


def _save_mutes(session: Any, table_id: int, muted: set[int]) -> None:
    if session is None:
        return
    session[_mutes_key(table_id)] = sorted(muted)
    session.save()


def _connect_data(session: Any, table_id: int) -> tuple[set[int], TableTalk, list[Line]]:
    muted = _load_mutes(session, table_id)
    return muted, talk_of(table_id), recent(table_id, muted)


async def history(consumer: Connection, message: Message) -> None:
    """``chat_history``: the phone's script asks once its socket is open (again after a
    reconnection): the drawer (the last lines), the reactions and text box, the talk's
    state, the late friends waiting and the host's controls (``tables.live.host``), drawn for
    this phone."""
    assert consumer.table_id is not None
    snapshot = await consumer.current_snapshot()
    if snapshot is None:
        return
    muted, talk, lines = await database_sync_to_async(_connect_data)(
        consumer.scope.get("session"), consumer.table_id
    )
    consumer.chat_muted = muted
    mine = snapshot.positions_of(consumer.hashes)
    waiting = ""
    if snapshot.status == Table.Status.PLAYING:  # the host sees who is still waiting
        waiting = await database_sync_to_async(late.fragments)(
            snapshot.id, consumer.hashes, bool(mine), consumer.language
        )
    # The host's controls (empty but for the host: the host button shows on the host's phone)
    waiting += await database_sync_to_async(host.menu_html)(
        snapshot.id, consumer.hashes, consumer.language
    )
    with override(consumer.language):
        compose = render_to_string("table/_chat_compose.html")
    await consumer.send(text_data=drawer(lines, consumer.language) + compose + state_html(
        snapshot, mine, talk, muted, consumer.language
    ) + waiting)


def _sender(consumer: Connection, mine: list[int]) -> int:
    """The seat a phone speaks for: on a shared phone, the person who holds it now."""
    state: PassState = consumer.pass_state
    for seat in (state.revealed, state.home):
        if seat is not None and seat in mine:
            return seat
    return mine[0]


async def say(consumer: Connection, message: Message) -> None:
    """``chat`` (a line of text) or ``react`` (a quick reaction), from a seated phone: stored,
    then sent to every phone at the table."""
    # Who sits where, as this process last drew the table (no query: chat must not take the
    # database thread from play); loaded when this process holds no version of it.
    assert consumer.table_id is not None
    snapshot = newest(consumer.table_id)
    if snapshot is None or (snapshot.code, snapshot.created_at) != consumer.identity:
        snapshot = await consumer.current_snapshot()
    if snapshot is None:
        return
    mine = snapshot.positions_of(consumer.hashes)
    if not mine:
        raise Refused("watching", _("You are watching: only the players can talk."))
    if message.type == "chat":
        text, reaction = clean_text(message.text), ""
    else:
        if message.reaction not in REACTIONS:
            raise Refused("bad_reaction", _("Unknown reaction."))
        text, reaction = "", message.reaction
    wait = stored.limiter.take(_phone(consumer))
    if wait:
        raise Refused(
            "too_fast",
            _("Slow down: you can send another message in %(seconds)d seconds.")
            % {"seconds": max(1, round(wait + 0.49))},
        )
    seat = _sender(consumer, mine)
    assert consumer.table_id is not None
    line = await database_sync_to_async(store)(
        consumer.table_id, seat, snapshot.name(seat), consumer.hashes, text, reaction
    )
    # Stored: the line is in the drawer of every phone that opens or reconnects. The channel
    # layer away, the sender at least sees their own line (the others' phones catch up).
    if not await tell_async(consumer.channel_layer, consumer.group, line.to_event()):
        await deliver(consumer, line.to_event())


async def mute(consumer: Connection, message: Message) -> None:
    """``mute`` or ``unmute`` a seat, for this phone only (kept in its session)."""
    seat = message.seat
    if seat is None:
        raise Refused("bad_seat", _("A seat is a number from 0 to 5."))
    muted: set[int] = set(getattr(consumer, "chat_muted", set()))
    if message.type == "mute":
        muted.add(seat)
    else:
        muted.discard(seat)
    assert consumer.table_id is not None
    table_id = consumer.table_id
    session = consumer.scope.get("session")

    def save_and_read() -> tuple[TableTalk, list[Line]]:
        _save_mutes(session, table_id, muted)
        return talk_of(table_id), recent(table_id, muted)

    talk, lines = await database_sync_to_async(save_and_read)()
    consumer.chat_muted = muted
    snapshot = await consumer.current_snapshot()
    if snapshot is None:
        return
    mine = snapshot.positions_of(consumer.hashes)
    name = snapshot.name(seat)
    said = (
        _("You muted %(name)s: you no longer see what they say.")
        if message.type == "mute" else _("You see what %(name)s says again.")
    ) % {"name": name}
    await consumer.send(
        text_data=drawer(lines, consumer.language)
        + state_html(snapshot, mine, talk, muted, consumer.language)
        + render_notice(info_notice(message.type, said), consumer.language)
    )


async def switch(consumer: Connection, message: Message) -> None:
    """``talk``: the host turns table talk off or on, for every phone at the table."""
    assert consumer.table_id is not None
    talk = await database_sync_to_async(switch_talk)(
        consumer.table_id, consumer.hashes, message.on
    )
    event = {"type": "chat.event", "kind": "state", "off": talk.off, "by": talk.by}
    if not await tell_async(consumer.channel_layer, consumer.group, event):
        await deliver(consumer, event)  # the host's own phone, at least


# The talk messages' handlers (refusals are raised as ``Refused``: the consumer tells this phone).
HANDLERS: dict[str, Handler] = {
    "chat": say, "react": say, "mute": mute, "unmute": mute, "talk": switch,
    "chat_history": history,
}


async def deliver(consumer: Connection, event: dict[str, Any]) -> None:
    """A chat group message reached this connection: send its phone the small frame."""
    kind = event.get("kind")
    if kind == "line":
        line = Line(
            int(event["id"]), int(event["seat"]), str(event["name"]), str(event["text"]),
            str(event["reaction"]), str(event.get("event", "")), str(event.get("other", "")),
        )
        if not line.event and line.seat in getattr(consumer, "chat_muted", ()):
            return
        await consumer.send(text_data=appended(line, consumer.language))
    elif kind == "deleted":
        await consumer.send(
            text_data=f'<li id="chat-{int(event["id"])}" hx-swap-oob="delete"></li>'
        )
    elif kind == "late":  # a late friend asked or was answered: each phone its own part
        snapshot = await consumer.current_snapshot()
        seated = bool(snapshot is not None and snapshot.positions_of(consumer.hashes))
        await late.deliver(consumer, seated)
    elif kind == "refresh":  # the host changed: this phone's state drawn again
        snapshot = await consumer.current_snapshot()
        if snapshot is None:
            return
        talk = await database_sync_to_async(talk_of)(snapshot.id)
        muted = set(getattr(consumer, "chat_muted", set()))
        mine = snapshot.positions_of(consumer.hashes)
        menu = await database_sync_to_async(host.menu_html)(
            snapshot.id, consumer.hashes, consumer.language
        )
        await consumer.send(
            text_data=state_html(snapshot, mine, talk, muted, consumer.language) + menu
        )
    elif kind == "state":
        snapshot = await consumer.current_snapshot()
        if snapshot is None:
            return
        talk = TableTalk(table_id=snapshot.id, off=bool(event["off"]), by=str(event["by"]))
        muted = set(getattr(consumer, "chat_muted", set()))
        mine = snapshot.positions_of(consumer.hashes)
        html = state_html(snapshot, mine, talk, muted, consumer.language)
        with override(consumer.language):
            said = (
                _("%(name)s turned table talk off.") if talk.off
                else _("%(name)s turned table talk on.")
            ) % {"name": talk.by}
        await consumer.send(
            text_data=html + render_notice(info_notice("talk", said), consumer.language)
        )
