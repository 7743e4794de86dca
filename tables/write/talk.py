"""Table talk, stored: chat lines, quick reactions and the table's log lines, beside the table
and never in it.

Chat never takes the table's lock, never changes its row, its state or its version, and never
redraws the table: play is neither slowed nor changed by it. A line is checked here (talk on at
the table, the sender not muted by a moderator, not empty, at most 200 characters, at most a
burst of 5 and then one every 2 s per phone), stored as a ``ChatMessage`` and announced to the
table's group as a message of its own (``chat.event``); ``tables.live.talk`` then sends each
phone a small frame. The text is stored exactly as typed. The host switches talk off and on for
the table (``switch_talk``); staff delete a line or mute a person at a table from the admin
(``delete_message``, ``mute_person``), both in the moderation log with who and why. Chat is
never part of a hand's history or its exports.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

from django.db import connection, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tables.models import CHAT_MAX, ChatMessage, ChatMute, ModerationAction, Table, TableTalk
from tables.write.announce import group_name, tell
from tables.write.path import Refused

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
    "ended_tournament": gettext_lazy("%(name)s ended the tournament."),
    "computer": gettext_lazy("%(name)s let the computer play for %(other)s."),
    "host": gettext_lazy("%(name)s made %(other)s the host."),
    "took_over": gettext_lazy("%(name)s took over the seat of %(other)s."),
    "moved": gettext_lazy("%(name)s's seat moved to another phone."),
    # The host's learning table switch (tables.write.host.set_learning)
    "learning_on": gettext_lazy(
        "%(name)s made this a learning table: tap a computer player's action to see why."
    ),
    "learning_off": gettext_lazy("%(name)s turned the learning table off."),
}

BURST = 5  # messages a phone may send at once...
EVERY = 2.0  # ...and then one every this many seconds
HISTORY = 50  # lines sent to a phone when it connects

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
    """Keep the line if the table exists, talk is on there and the sender is not muted by a
    moderator: one statement (an insert whose one row is there only if those hold), so one
    commit. A line it did not keep is checked again to say why (or kept, if talk came back on
    in between). No lock on the table: a line that races the host turning talk off may still
    be said."""
    claims = [h for h in hashes if h]
    message = ChatMessage(
        table_id=table_id, position=position, name=name, text=text, reaction=reaction
    )
    if _kept_if_allowed(message, claims):
        return Line.of(message)
    with transaction.atomic():
        return _checked_and_kept(table_id, position, name, claims, text, reaction)


def _kept_if_allowed(message: ChatMessage, claims: list[str]) -> bool:
    """Insert ``message`` if its table exists, talk is on there and none of ``claims`` is
    muted there, in one statement written here; whether it was (its id is then set)."""
    quote = connection.ops.quote_name
    fields = [f for f in ChatMessage._meta.concrete_fields if not f.primary_key]
    # PostgreSQL takes a parameter of a SELECT as text: each says its column's type.
    typed = connection.vendor == "postgresql"
    marks = ", ".join(
        f"CAST(%s AS {f.cast_db_type(connection)})" if typed else "%s" for f in fields
    )
    muted = (
        f" AND NOT EXISTS(SELECT 1 FROM {quote(ChatMute._meta.db_table)} m"
        f" WHERE m.{_column(ChatMute, 'table')} = %s"
        f" AND m.{_column(ChatMute, 'claim_hash')} IN ({', '.join(['%s'] * len(claims))}))"
    ) if claims else ""
    sql = (
        f"INSERT INTO {quote(ChatMessage._meta.db_table)}"
        f" ({', '.join(quote(str(f.column)) for f in fields)})"
        f" SELECT {marks} FROM {quote(Table._meta.db_table)} t"
        f" WHERE t.{_column(Table, 'id')} = %s"
        f" AND NOT EXISTS(SELECT 1 FROM {quote(TableTalk._meta.db_table)} k"
        f" WHERE k.{_column(TableTalk, 'table')} = %s AND k.{_column(TableTalk, 'off')})"
        f"{muted} RETURNING {_column(ChatMessage, 'id')}"
    )
    table_id = message.table_id
    params: list[Any] = [
        f.get_db_prep_save(f.pre_save(message, True), connection) for f in fields
    ]
    params += [table_id, table_id, *([table_id, *claims] if claims else [])]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return False
    message.pk = row[0]
    message._state.adding = False
    return True


def _checked_and_kept(
    table_id: int, position: int, name: str, hashes: Iterable[str], text: str, reaction: str
) -> Line:
    checks = _talk_checks(table_id, [h for h in hashes if h])
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


def _column(model: type[models.Model], name: str) -> str:
    found = model._meta.get_field(name)
    assert isinstance(found, models.Field) and found.column is not None
    return connection.ops.quote_name(str(found.column))


def _talk_checks(table_id: int, claims: list[str]) -> tuple[bool, bool] | None:
    """Whether talk is off at the table and whether one of ``claims`` is muted there (None:
    no such table), in one query written here: the ORM built it anew for every line, which
    cost more than running it."""
    quote = connection.ops.quote_name
    marks = ", ".join(["%s"] * len(claims))
    muted = (
        f"EXISTS(SELECT 1 FROM {quote(ChatMute._meta.db_table)} m"
        f" WHERE m.{_column(ChatMute, 'table')} = %s"
        f" AND m.{_column(ChatMute, 'claim_hash')} IN ({marks}))"
    ) if claims else "1 = 0"
    sql = (
        f"SELECT EXISTS(SELECT 1 FROM {quote(TableTalk._meta.db_table)} k"
        f" WHERE k.{_column(TableTalk, 'table')} = %s AND k.{_column(TableTalk, 'off')}),"
        f" {muted} FROM {quote(Table._meta.db_table)} t WHERE t.{_column(Table, 'id')} = %s"
    )
    params: list[Any] = [table_id, *([table_id, *claims] if claims else []), table_id]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return (bool(row[0]), bool(row[1])) if row is not None else None


def recent(table_id: int, muted: Iterable[int] = ()) -> list[Line]:
    """The table's last lines, oldest first, without deleted ones or muted seats'."""
    rows = (
        ChatMessage.objects.filter(table_id=table_id, deleted=False)
        .exclude(position__in=list(muted), event="").order_by("-at", "-id")[:HISTORY]
    )
    return [Line.of(m) for m in reversed(list(rows))]


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



def _announce(table_id: int, event: dict[str, Any]) -> None:
    tell(group_name(table_id), event)


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
            message.table_id, moderator, ModerationAction.CHAT_DELETE, reason, message=message.pk,
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
        return _record(table_id, moderator, ModerationAction.CHAT_MUTE, reason, seat=position,
                       name=seat.name)
