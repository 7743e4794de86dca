"""Table talk: chat lines and quick reactions, beside the table and never in it.

A seated phone sends ``{"type": "chat", "text": ...}`` or ``{"type": "react", "reaction":
...}`` (tables.protocol). The line is checked here (talk on at the table, the sender not muted by
a moderator, not empty, at most 200 characters, at most a burst of 5 and then one every 2 s per
phone), stored as a ``ChatMessage`` and announced to the table's group as a message of its own
(``chat.event``): each connection then sends its phone one small frame, a line appended to the
chat drawer (an htmx out-of-band ``beforeend`` swap), which the phone's script also shows for a
few seconds as a bubble at the sender's seat (static/js/chat.js).

Chat never takes the table's lock, never changes its row, its state or its version, and never
redraws the table: play is neither slowed nor changed by it. The text is stored and shown
exactly as typed; templates escape it, and the phone's script only ever sets it as text.

A phone can mute a person for itself (``mute``/``unmute``: kept in its session, by seat); the
host can turn talk off for the whole table (``talk``); staff can delete a line or mute a person
at a table from the admin, both written to the moderation log with who and why.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, override

from tables.frames import Snapshot, error_notice, info_notice, newest, render_notice
from tables.models import CHAT_MAX, ChatMessage, ChatMute, ModerationAction, Table, TableTalk
from tables.services import Refused, group_name

if TYPE_CHECKING:
    from tables.consumers import TableConsumer
    from tables.protocol import Message

# The quick reactions: a name (what a phone sends), an emoji and a short phrase, said in the
# language of each phone that shows it.
REACTIONS: dict[str, tuple[str, Any]] = {
    "nice_hand": ("👏", gettext_lazy("Nice hand")),
    "good_luck": ("🍀", gettext_lazy("Good luck")),
    "wow": ("😮", gettext_lazy("Wow")),
    "haha": ("😂", gettext_lazy("Ha ha")),
    "ouch": ("😬", gettext_lazy("Ouch")),
    "thanks": ("🙏", gettext_lazy("Thanks")),
    "thumbs_up": ("👍", gettext_lazy("Well played")),
    "hurry": ("⏳", gettext_lazy("Your move!")),
}

# Lines of the table's log said in the drawer among the talk (the host paused, a friend took
# a computer's seat...), each in the language of the phone that shows it.
EVENTS: dict[str, Any] = {
    "paused": gettext_lazy("%(name)s paused the game."),
    "resumed": gettext_lazy("%(name)s resumed the game."),
    "ended": gettext_lazy("%(name)s ended the game."),
    "computer": gettext_lazy("%(name)s let the computer play for %(other)s."),
    "host": gettext_lazy("%(name)s made %(other)s the host."),
    "took_over": gettext_lazy("%(name)s took over the seat of %(other)s."),
}

BURST = 5  # messages a phone may send at once...
EVERY = 2.0  # ...and then one every this many seconds
HISTORY = 50  # lines sent to a phone when it connects

DELETE = "chat_delete"
MUTE = "chat_mute"
ACTION_LABELS = {
    DELETE: gettext_lazy("Deleted a chat message"),
    MUTE: gettext_lazy("Muted a person's chat at the table"),
}

# ---------------------------------------------------------------------------------- checks
def clean_text(text: str) -> str:
    """A chat line as typed: trimmed, line breaks as spaces, 1 to 200 characters."""
    cleaned = " ".join(text.replace("\r", " ").replace("\n", " ").replace("\t", " ").split(" "))
    cleaned = cleaned.strip()
    if not cleaned:
        raise Refused("empty", _("Type something to say first."))
    if len(cleaned) > CHAT_MAX:
        raise Refused(
            "too_long",
            _("A message has at most %(max)d characters (this one has %(count)d).")
            % {"max": CHAT_MAX, "count": len(cleaned)},
        )
    if any(ord(ch) < 32 or 127 <= ord(ch) < 160 for ch in cleaned):
        raise Refused("bad_text", _("A message cannot hold control characters."))
    return cleaned


class Limiter:
    """Per-phone token buckets (a burst of ``BURST``, then one message every ``EVERY``
    seconds), kept in this process, by table and phone (its seat claims). A table's phones are
    usually served by one process (see README: the proxy routes ``/ws/t/CODE/`` by path)."""

    KEPT = 20000

    def __init__(self, burst: int = BURST, every: float = EVERY) -> None:
        self.burst = burst
        self.every = every
        self._buckets: OrderedDict[tuple[int, str], tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, key: tuple[int, str], now: float | None = None) -> float:
        """0 when a message may go now (and counts it), else the seconds to wait."""
        now = time.monotonic() if now is None else now
        with self._lock:
            tokens, at = self._buckets.get(key, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - at) / self.every)
            if tokens < 1.0:
                return (1.0 - tokens) * self.every
            self._buckets[key] = (tokens - 1.0, now)
            self._buckets.move_to_end(key)
            while len(self._buckets) > self.KEPT:
                self._buckets.popitem(last=False)
            return 0.0

    def clear(self) -> None:
        with self._lock:
            self._buckets.clear()


limiter = Limiter()


# ---------------------------------------------------------------------------------- storage
@dataclass(frozen=True)
class Line:
    """A chat line as the group message carries it (public: everyone at the table sees it)."""

    id: int
    seat: int
    name: str
    text: str
    reaction: str
    event: str = ""  # a line of the table's log (``EVENTS``)
    other: str = ""  # the other name it mentions

    def to_event(self) -> dict[str, Any]:
        return {
            "type": "chat.event", "kind": "line", "id": self.id, "seat": self.seat,
            "name": self.name, "text": self.text, "reaction": self.reaction,
            "event": self.event, "other": self.other,
        }

    @classmethod
    def of(cls, message: ChatMessage) -> Line:
        other = str((message.detail or {}).get("other", ""))
        return cls(
            message.pk, message.position, message.name, message.text, message.reaction,
            message.event, other,
        )

    def said(self) -> str:
        """A log line's sentence in the active language."""
        return str(EVENTS[self.event]) % {"name": self.name, "other": self.other}


def log_event(table_id: int, position: int, name: str, event: str, other: str = "") -> Line:
    """Write a line of the table's log (inside the change that made it: kept if and only if it
    happened) and tell every phone once the transaction commits."""
    message = ChatMessage.objects.create(
        table_id=table_id, position=position, name=name, event=event,
        detail={"other": other} if other else {},
    )
    line = Line.of(message)
    transaction.on_commit(lambda: _announce(table_id, line.to_event()))
    return line


def talk_of(table_id: int) -> TableTalk:
    talk = TableTalk.objects.filter(table_id=table_id).first()
    return talk or TableTalk(table_id=table_id)


def store(
    table_id: int, position: int, name: str, hashes: Iterable[str], text: str, reaction: str
) -> Line:
    """Check that talk is on and the sender is not muted by a moderator (one query), then keep
    the line (one insert). No lock on the table: a line that races the host turning talk off
    may still be said."""
    claims = [h for h in hashes if h]
    checks = Table.objects.filter(pk=table_id).annotate(
        talk_off=Exists(TableTalk.objects.filter(table_id=OuterRef("pk"), off=True)),
        muted=Exists(ChatMute.objects.filter(table_id=OuterRef("pk"), claim_hash__in=claims)),
    ).values_list("talk_off", "muted").first()
    if checks is None:
        raise Refused("unknown_table", _("There is no table with that code."))
    talk_off, muted = checks
    if talk_off:
        raise Refused("talk_off", _("The host turned table talk off."))
    if muted:
        raise Refused("chat_muted", _("A moderator muted your chat at this table."))
    message = ChatMessage.objects.create(
        table_id=table_id, position=position, name=name, text=text, reaction=reaction
    )
    return Line.of(message)


def recent(table_id: int, muted: Iterable[int] = ()) -> list[Line]:
    """The table's last lines, oldest first, without deleted ones or muted seats'."""
    rows = (
        ChatMessage.objects.filter(table_id=table_id, deleted=False)
        .exclude(position__in=list(muted), event="").order_by("-at", "-id")[:HISTORY]
    )
    return [Line.of(m) for m in reversed(list(rows))]


# ---------------------------------------------------------------------------------- drawing
# Keyed by the whole line (not its id alone: a test database, or SQLite after a delete, may
# give an id out again) and the language.
_lines: OrderedDict[tuple[Line, str], str] = OrderedDict()
_LINES_KEPT = 2048


def line_html(line: Line, language: str) -> str:
    """One line of the drawer (tables/_chat_line.html), once per line and language."""
    key = (line, language)
    html = _lines.get(key)
    if html is None:
        emoji, label = REACTIONS.get(line.reaction, ("", ""))
        with override(language):
            said = line.said() if line.event in EVENTS else ""
            html = render_to_string(
                "tables/_chat_line.html",
                {"line": line, "emoji": emoji, "label": str(label), "said": said},
            )
        _lines[key] = html
        while len(_lines) > _LINES_KEPT:
            _lines.popitem(last=False)
    return html


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
    """Talk on or off, the host's switch, and this phone's mute list (tables/_chat_state.html).
    Drawn per connection: whether it is the host's and whom it muted are its own."""
    persons = [
        {"seat": s.position, "name": s.name, "muted": s.position in muted}
        for s in sorted(snapshot.seats.values(), key=lambda s: s.position)
        if not s.is_computer and s.position not in mine
    ]
    is_host = snapshot.host_position is not None and snapshot.host_position in mine
    with override(language):
        return render_to_string("tables/_chat_state.html", {
            "off": talk.off, "by": talk.by, "is_host": is_host, "persons": persons,
            "can_talk": bool(mine), "code": snapshot.code,
        })


# ---------------------------------------------------------------------------------- the phone
def _phone(consumer: TableConsumer) -> tuple[int, str]:
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


async def _history(consumer: TableConsumer) -> None:
    """The phone's script asks once its socket is open (again after a reconnection): the
    drawer (the last lines) and the talk's state, drawn for this phone."""
    assert consumer.table_id is not None
    snapshot = await consumer._snapshot()
    if snapshot is None:
        return
    muted, talk, lines = await database_sync_to_async(_connect_data)(
        consumer.scope.get("session"), consumer.table_id
    )
    consumer.chat_muted = muted
    mine = snapshot.positions_of(consumer.hashes)
    waiting = ""
    if snapshot.status == Table.Status.PLAYING:  # the host sees who is still waiting
        from tables import late

        waiting = await database_sync_to_async(late.fragments)(
            snapshot.id, consumer.hashes, bool(mine), consumer.language
        )
    await consumer.send(text_data=drawer(lines, consumer.language) + state_html(
        snapshot, mine, talk, muted, consumer.language
    ) + waiting)


def _sender(consumer: TableConsumer, mine: list[int]) -> int:
    """The seat a phone speaks for: on a shared phone, the person who holds it now."""
    state = consumer.pass_state
    for seat in (state.revealed, state.home):
        if seat is not None and seat in mine:
            return seat
    return mine[0]


async def receive(consumer: TableConsumer, message: Message) -> None:
    """A talk message from the phone (chat, react, mute, unmute, talk); refusals are told to
    this phone only, as a notice."""
    try:
        if message.type in ("chat", "react"):
            await _say(consumer, message)
        elif message.type in ("mute", "unmute"):
            await _mute(consumer, message)
        elif message.type == "chat_history":
            await _history(consumer)
        else:
            await _switch(consumer, message.on)
    except Refused as exc:
        await consumer.send_notice(error_notice(exc.code, exc.message))


async def _say(consumer: TableConsumer, message: Message) -> None:
    # Who sits where, as this process last drew the table (no query: chat must not take the
    # database thread from play); loaded when this process holds no version of it.
    assert consumer.table_id is not None
    snapshot = newest(consumer.table_id)
    if snapshot is None or (snapshot.code, snapshot.created_at) != consumer.identity:
        snapshot = await consumer._snapshot()
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
    wait = limiter.take(_phone(consumer))
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
    await consumer.channel_layer.group_send(consumer.group, line.to_event())


async def _mute(consumer: TableConsumer, message: Message) -> None:
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
    snapshot = await consumer._snapshot()
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


def switch_talk(table_id: int, hashes: Iterable[str], on: bool) -> TableTalk:
    """The host turns table talk on or off for everyone (no lock on the table: talk is not
    part of it). Refused with a reason to anyone but the host."""
    table = Table.objects.filter(pk=table_id).only("host_position", "status").first()
    if table is None:
        raise Refused("unknown_table", _("There is no table with that code."))
    wanted = set(hashes)
    host = table.seats.filter(position=table.host_position).first() if (
        table.host_position is not None
    ) else None
    if host is None or not host.claim_hash or host.claim_hash not in wanted:
        raise Refused("not_host", _("Only the host can turn table talk on or off."))
    talk, _created = TableTalk.objects.update_or_create(
        table_id=table_id, defaults={"off": not on, "by": host.name, "at": timezone.now()}
    )
    return talk


async def _switch(consumer: TableConsumer, on: bool) -> None:
    assert consumer.table_id is not None
    talk = await database_sync_to_async(switch_talk)(consumer.table_id, consumer.hashes, on)
    await consumer.channel_layer.group_send(consumer.group, {
        "type": "chat.event", "kind": "state", "off": talk.off, "by": talk.by,
    })


async def deliver(consumer: TableConsumer, event: dict[str, Any]) -> None:
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
        from tables import late  # (late writes the table's log through this module)

        snapshot = await consumer._snapshot()
        seated = bool(snapshot is not None and snapshot.positions_of(consumer.hashes))
        await late.deliver(consumer, seated)
    elif kind == "refresh":  # the host changed: this phone's state drawn again
        snapshot = await consumer._snapshot()
        if snapshot is None:
            return
        talk = await database_sync_to_async(talk_of)(snapshot.id)
        muted = set(getattr(consumer, "chat_muted", set()))
        mine = snapshot.positions_of(consumer.hashes)
        await consumer.send(text_data=state_html(snapshot, mine, talk, muted, consumer.language))
    elif kind == "state":
        snapshot = await consumer._snapshot()
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


# ---------------------------------------------------------------------------------- moderators
def _announce(table_id: int, event: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group_name(table_id), event)


def _record(table_id: int, moderator: Any, action: str, reason: str,
            **detail: Any) -> ModerationAction:
    who = moderator if moderator is not None and moderator.is_authenticated else None
    return ModerationAction.objects.create(
        table_id=table_id, moderator=cast(Any, who), action=action, reason=reason.strip(),
        detail=detail,
    )


def delete_message(message_id: int, moderator: Any, reason: str = "") -> ModerationAction:
    """Staff remove a chat line: gone from every phone at once, kept (marked) for the log."""
    with transaction.atomic():
        message = ChatMessage.objects.select_for_update().filter(pk=message_id).first()
        if message is None:
            raise Refused("no_message", _("There is no such chat message."))
        if message.deleted:
            raise Refused("already_deleted", _("This chat message is already deleted."))
        message.deleted = True
        message.save(update_fields=["deleted"])
        action = _record(
            message.table_id, moderator, DELETE, reason, message=message.pk,
            seat=message.position, name=message.name, text=message.text or message.reaction,
        )
        table_id = message.table_id
        transaction.on_commit(lambda: _announce(table_id, {
            "type": "chat.event", "kind": "deleted", "id": message_id,
        }))
    return action


def mute_person(table_id: int, position: int, moderator: Any,
                reason: str = "") -> ModerationAction:
    """Staff mute the person in a seat at a table: what they send there is refused."""
    with transaction.atomic():
        table = Table.objects.filter(pk=table_id).first()
        if table is None:
            raise Refused("unknown_table", _("There is no table with that code."))
        seat = table.seats.filter(position=position).first()
        if seat is None or seat.is_computer or not seat.claim_hash:
            raise Refused("no_person", _("Nobody sits in that seat."))
        if ChatMute.objects.filter(table=table, claim_hash=seat.claim_hash).exists():
            raise Refused("already_muted", _("This person is already muted at this table."))
        ChatMute.objects.create(
            table=table, position=position, claim_hash=seat.claim_hash, name=seat.name
        )
        return _record(table_id, moderator, MUTE, reason, seat=position, name=seat.name)


def describe_action(action: ModerationAction) -> str | None:
    """The admin's words for a chat moderation action (None: not one)."""
    label = ACTION_LABELS.get(action.action)
    if label is None:
        return None
    detail = action.detail or {}
    if action.action == DELETE:
        return f"{label}: {detail.get('name')}: “{detail.get('text')}”"
    return f"{label}: {detail.get('name')} (seat {detail.get('seat')})"
