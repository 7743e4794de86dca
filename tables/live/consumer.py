"""One websocket per phone at a table: parse what it sends, call the write path, draw its view.

The group message only says "table X changed, version N" (for a change of play made by another
process, also how: its public actions and the row's new values, ``tables.write.path.Step``);
each connection then takes that version of the table (kept per process and version, see
``tables.cache``: written here, worked out from the version before, or loaded) and renders
its own seat's view (``tables.live.frames``).

Server -> phone, text frames of HTML for htmx's ws extension (every top-level element replaces
the element with the same id):

- a view: ``<section id="table-frame" data-version="N" data-screen="lobby|play|watch|handoff|
  over|closed" data-code="..." [data-seat="viewer"]>``, then ``<script id="table-data"
  type="application/json">`` (version, screen, you, mine, handoff, to_act, legal actions,
  seconds left, pot and bet sizes for the bet sheet, next game's URL), and, when there is one,
  ``<div id="table-notice" data-code="stale" data-kind="info">`` with a readable message;
- a notice alone (refusals, bad input): ``<div id="table-notice" data-code="not_your_turn"
  data-kind="error" role="alert">It is not your turn: Bikash is to act.</div>``;
- an unknown code gets a notice and the socket closes with 4404 (4429 when rate-limited).

A connection opens with the view of the moment, unless the page says (``?v=N`` in the socket's
address) that it was drawn at version N and that is still the version of the table: the phone
has that view already, and drawing it again cost a slow phone a long task just as the page
became usable (Lighthouse's total blocking time). A phone holding several seats
(pass and play) always gets the view: its hand-off state lives in the connection.

Phone -> server: JSON, see ``tables.live.protocol``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils.translation import activate
from django.utils.translation import gettext as _

from config.errors import DATABASE_AWAY
from tables import action_log, claims, lookups, metrics, ratelimit
from tables.cache import Snapshot, cached_snapshot, derive, load_snapshot
from tables.live import host, moved, talk
from tables.live.frames import (
    FrameOptions,
    Notice,
    error_notice,
    info_notice,
    render_frame,
    render_notice,
)
from tables.live.langs import language_from_scope, speaking
from tables.live.perspective import PassState, hide, perspective, reveal
from tables.live.protocol import TALK_TYPES, BadMessage, Message, parse
from tables.models import Table
from tables.write import path, play
from tables.write.announce import guarded

log = logging.getLogger(__name__)

CLOSE_UNKNOWN_TABLE = 4404
SAVING_SLOWLY = "saving_slowly"  # the database does not answer: nothing was done, say so
CLOSE_TOO_MANY = 4429

# Loads in progress, by table and the version a group message announced: every connection of
# this process told "version N" waits for the same load instead of querying the database itself.
_loads: dict[tuple[int, int], asyncio.Future[Snapshot | None]] = {}


async def shared_snapshot(table_id: int, version: int) -> Snapshot | None:
    """The table at ``version`` or later, loaded once for all of this process's connections.
    (A load started after the group message was sent sees at least that version: messages go
    out after the commit.)"""
    key = (table_id, version)
    future = _loads.get(key)
    if future is None or future.get_loop() is not asyncio.get_running_loop():
        # Only called once the cache missed this version: load it without asking first.
        future = asyncio.ensure_future(
            database_sync_to_async(load_snapshot)(table_id, check_cache=False)
        )
        _loads[key] = future

        def forget(done: asyncio.Future[Snapshot | None]) -> None:
            if _loads.get(key) is done:
                del _loads[key]

        future.add_done_callback(forget)
    # A connection that goes away while waiting must not cancel the others' load.
    return await asyncio.shield(future)


def _lookup(code: str, keys: list[str]) -> tuple[Table | None, bool]:
    """The table for a code (None if unknown: counted) and whether this client is rate-limited
    (``tables.lookups``, as the table's pages)."""
    try:
        return lookups.table(keys, code), False
    except lookups.TooManyWrongCodes:
        return None, True
    except lookups.UnknownCode:
        return None, False


def _saving_slowly() -> str:
    return _("The table is saving slowly; try again in a moment.")


def _session_info(session: Any) -> tuple[list[str], str | None]:
    if session is None:
        return [], None
    return claims.session_hashes(session), session.session_key


class TableConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]  # channels is untyped
    table_id: int | None = None
    tournament_id: int | None = None  # the table's tournament, if it has one
    identity: tuple[str, datetime]  # the table's code and creation time (snapshot cache key)
    group: str = ""
    present: list[int] = []  # the seats this page was counted open for (Seat.connections)
    _origin: str | None = None  # scheme and host of the join link, worked out once

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Like Channels' own, without closing stale database connections before every message
        (a trip to a worker thread for each frame sent): every database call here goes through
        ``database_sync_to_async``, which closes them around itself."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message.get('type')!r}")
        await handler(message)

    async def connect(self) -> None:
        self.language = language_from_scope(self.scope)
        # This connection's task speaks its own language from now on (see langs.speaking).
        activate(self.language)
        self.pass_state = PassState()
        self.sent_version = -1
        self.hashes, session_key = await database_sync_to_async(_session_info)(
            self.scope.get("session")
        )
        self.phone = claims.phone_id(session_key)
        # The address the proxy saw, as the pages count it (tables.ratelimit).
        keys = ratelimit.client_keys(ratelimit.scope_address(self.scope), session_key)
        code = self.scope["url_route"]["kwargs"].get("code", "")
        table, limited = await database_sync_to_async(_lookup)(code, keys)
        await self.accept()
        if table is None:
            with speaking(self.language):
                await self._refuse(limited)
            return
        self.table_id = table.id
        self.tournament_id = table.tournament_id
        self.identity = (table.code, table.created_at)
        self.group = path.group_name(self.table_id)
        # Redis away: drawn all the same, and joined on the phone's next ping (on_ping).
        await guarded(f"table {table.code}", "joining", self.channel_layer.group_add, self.group,
                      self.channel_name)
        metrics.websocket_opened()
        snapshot = await self._snapshot()
        if snapshot is not None and self._page_is_current(snapshot):
            self.sent_version = snapshot.version
        else:
            snapshot = await self.send_view(force=True, snapshot=snapshot)
        if snapshot is not None:
            self.present = snapshot.positions_of(self.hashes)
            await database_sync_to_async(play.touch_seats)(self.table_id, self.present, opened=1)
        await self._moved_meanwhile()

    def _page_is_current(self, snapshot: Snapshot) -> bool:
        """The page that opened this socket shows this version, for one seat or none."""
        query = parse_qs(bytes(self.scope.get("query_string") or b"").decode("latin1"))
        drawn = (query.get("v") or [""])[0]
        return (
            drawn.isdigit() and int(drawn) == snapshot.version
            and len(snapshot.positions_of(self.hashes)) <= 1
        )

    async def _refuse(self, limited: bool) -> None:
        if limited:
            notice = error_notice("rate_limited", _("Too many wrong codes: wait a minute."))
        else:
            notice = error_notice("unknown_table", _("There is no table with that code."))
        await self.send(text_data=render_notice(notice, self.language))
        await self.close(code=CLOSE_TOO_MANY if limited else CLOSE_UNKNOWN_TABLE)

    async def disconnect(self, code: int) -> None:
        """Lets go whatever the channel layer says: Redis away, the group is left here (the
        layer forgets it; the server forgot it with the connection) and one line logged."""
        if self.group:
            metrics.websocket_closed()
            await guarded(f"table {self.identity[0]}", "leaving", self.channel_layer.group_discard,
                          self.group, self.channel_name)
        if self.present and self.table_id is not None:
            with contextlib.suppress(*DATABASE_AWAY):  # presence only: the seat's page closed
                await database_sync_to_async(play.touch_seats)(
                    self.table_id, self.present, opened=-1
                )

    # ------------------------------------------------------------------ from the group
    async def layer_resumed(self, event: dict[str, Any]) -> None:
        """Redis is back after this process lost it (tables.live.redis_layer): what changed
        meanwhile was never heard here. The table is drawn if it moved on."""
        if self.table_id is not None:
            with contextlib.suppress(*DATABASE_AWAY):
                await self.send_view()
                await self._moved_meanwhile()

    async def table_changed(self, event: dict[str, Any]) -> None:
        version = int(event.get("version", 0))
        if version <= self.sent_version:
            return
        assert self.table_id is not None
        # Usually another connection of this process has loaded this version already.
        snapshot = cached_snapshot(self.table_id, *self.identity, version)
        if snapshot is None and "step" in event:
            # Another process's change of play: worked out from the version before, once for
            # all of this process's connections (the next finds it kept), without a query.
            try:
                snapshot = derive(self.table_id, *self.identity, version, event["step"])
            except Exception:  # never worse than a load: logged, and the version loaded
                log.exception("table %s: version %s not worked out", self.table_id, version)
        if snapshot is None:
            snapshot = await shared_snapshot(self.table_id, version)
        await self.send_view(snapshot=snapshot)

    async def chat_event(self, event: dict[str, Any]) -> None:  # table talk
        with speaking(self.language):
            await talk.deliver(self, event)

    async def seat_moved(self, event: dict[str, Any]) -> None:
        """A seat of this phone's moved to another phone: it watches from now on, and is told."""
        if event.get("claim") not in self.hashes:
            return
        with speaking(self.language):
            await self.send_view(notice=Notice(
                "seat_moved", _("Your seat moved to another phone. This phone watches now."),
                "info",
            ), force=True)

    async def phone_forgot(self, event: dict[str, Any]) -> None:
        """This phone said "forget my games": its open pages lose every seat they held."""
        if not self.hashes or not self.phone or event.get("phone") != self.phone:
            return
        self.hashes = []
        self.pass_state = PassState()
        await self.send_view(force=True)

    async def _moved_meanwhile(self) -> None:
        """A phone back at a tournament's table its player was moved away from
        while it was not connected is told where they sit now, as if it had been there."""
        if self.tournament_id is None or self.table_id is None:
            return
        event = await database_sync_to_async(moved.where_now)(
            self.table_id, self.tournament_id, self.hashes
        )
        if event is not None:
            await self.tournament_moved(event)

    async def tournament_moved(self, event: dict[str, Any]) -> None:
        """A tournament moved a person from this table between hands; their phone
        is told where and goes on to the new table by itself (the claim moved with them)."""
        if event.get("claim") not in self.hashes:
            return
        with speaking(self.language):
            message = _("You moved to table %(table)s, seat %(seat)s.") % {
                "table": event.get("table"), "seat": event.get("seat"),
            }
            await self.send_notice(Notice(
                "tournament_moved", message, "info", url=f"/t/{event.get('code', '')}/"
            ))

    # ------------------------------------------------------------------ from the phone
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.table_id is None:
            return
        try:
            message = parse(text_data, bytes_data, settings.TABLES_MAX_MESSAGE)
        except BadMessage as exc:
            with speaking(self.language):
                await self.send_notice(error_notice(exc.code, exc.message))
            return
        with speaking(self.language):
            try:
                if message.type in TALK_TYPES:  # talk never touches the table
                    await talk.receive(self, message)
                elif message.type == "host":  # the host's controls
                    await host.receive(self, message)
                else:
                    await getattr(self, f"on_{message.type}")(message)
            except DATABASE_AWAY:
                # The database is away (a restart, a failover): nothing was done and the phone
                # is told so; the socket stays open, and the same tap may be sent again (its id
                # counts it once).
                log.warning("table %s: database away for a %s message", self.table_id,
                            message.type)
                await self.send_notice(error_notice(SAVING_SLOWLY, _saving_slowly()))
            except path.NotAnnounced:
                # A host's control saved that the other phones could not be told of (Redis
                # is away): this phone is drawn as the table is now.
                await self.send_view(force=True)

    async def on_action(self, message: Message) -> None:
        assert self.table_id is not None
        started = metrics.now()
        try:
            outcome = await path.write_then_notify(
                play.act, self.table_id, self.hashes, kind=message.kind, amount=message.amount,
                version=message.version, action_id=message.action_id, seat=message.seat,
                revealed=self.pass_state.revealed,
            )
        except path.Refused as exc:
            action_log.refused(self.identity[0], message.version, exc.code)
            notice = error_notice(exc.code, exc.message)
            if exc.code == "stale":
                await self.send_view(force=True, notice=info_notice(exc.code, exc.message))
            else:
                await self.send_notice(notice)
            return
        except path.NotAnnounced as exc:
            # Saved, but the other phones could not be told (Redis is away): this phone is
            # drawn here, so that a tap that counted never looks lost.
            outcome = exc.result
            await self.send_view(force=True)
        except DATABASE_AWAY:
            action_log.refused(self.identity[0], message.version, SAVING_SLOWLY)
            raise  # told in receive()
        except Exception as exc:
            action_log.failed(self.identity[0], message.version, exc)
            raise
        if outcome.applied:
            metrics.action_applied(self.table_id, outcome.version, started)
        else:  # the same tap twice (a double tap, or sent again after a drop): counted once
            await self.send_notice(info_notice(
                "already_counted", _("That tap was already counted once: nothing more changed.")
            ))
        # Applied: the frame follows from the group message, like everyone else's.

    async def on_reveal(self, message: Message) -> None:
        snapshot = await self._snapshot()
        if snapshot is None:
            return
        mine = snapshot.positions_of(self.hashes)
        if not reveal(snapshot, mine, self.pass_state, message.seat):
            await self.send_notice(
                error_notice("not_your_seat", _("That seat is not yours to show."))
            )
            return
        assert self.table_id is not None and message.seat is not None
        await self._come_back([message.seat], snapshot)
        await self.send_view(force=True)

    async def on_hide(self, message: Message) -> None:
        hide(self.pass_state)
        await self.send_view(force=True)

    async def on_back(self, message: Message) -> None:
        snapshot = await self._snapshot()
        if snapshot is not None:
            mine = snapshot.positions_of(self.hashes)
            revealed = self.pass_state.revealed
            seats = mine if len(mine) == 1 else [revealed] if revealed is not None else []
            await self._come_back(seats, snapshot)
            await self.send_view(force=True)

    async def on_sync(self, message: Message) -> None:
        if message.action_id:
            await self.send_view()  # only if this connection has not drawn it yet
            await self._what_became_of(message)
            return
        await self.send_view(force=True)

    async def on_ping(self, message: Message) -> None:
        # A phone asks after a quiet spell or on waking. If Redis restarted meanwhile, this
        # connection's group membership went with it and it hears of no change: join again
        # (the same membership, renewed) and draw the table if it moved on past this
        # connection's last frame. The answer comes after it.
        if self.group:  # Redis away: answered all the same, joined on a later ping
            await guarded(f"table {self.identity[0]}", "joining again",
                          self.channel_layer.group_add, self.group, self.channel_name)
            with contextlib.suppress(*DATABASE_AWAY):  # the database away: a pong all the same
                drawn = self.sent_version
                await self.send_view()
                if self.sent_version > drawn:  # it had missed a change: perhaps a move
                    await self._moved_meanwhile()
        await self.send(text_data="pong")

    async def _what_became_of(self, message: Message) -> None:
        """A phone back after a drop asks about the tap it sent last, which no frame answered:
        applied at most once, whatever the phone sent (the version it was drawn for decides)."""
        assert self.table_id is not None
        code, text = await database_sync_to_async(play.what_became_of)(
            self.table_id, message.action_id, message.version, message.seat
        )
        await self.send_notice(info_notice(code, text))

    async def _come_back(self, seats: list[int], snapshot: Snapshot) -> None:
        if any(snapshot.seats[p].away for p in seats if p in snapshot.seats):
            assert self.table_id is not None
            await path.write_then_notify(play.come_back, self.table_id, seats)

    # ------------------------------------------------------------------ to the phone
    async def _snapshot(self) -> Snapshot | None:
        assert self.table_id is not None
        snapshot: Snapshot | None = await database_sync_to_async(load_snapshot)(self.table_id)
        return snapshot

    async def send_view(
        self, *, force: bool = False, notice: Notice | None = None,
        snapshot: Snapshot | None = None,
    ) -> Snapshot | None:
        if snapshot is None:
            snapshot = await self._snapshot()
        if snapshot is None:
            await self.send_notice(error_notice("unknown_table", _("This table is gone.")))
            return None
        if snapshot.version <= self.sent_version and not force:
            return snapshot  # already drawn (a later message showed a newer version)
        mine = snapshot.positions_of(self.hashes)
        persp = perspective(snapshot, mine, self.pass_state)
        html = render_frame(
            snapshot, persp,
            FrameOptions(join_url=self._join_url(snapshot), language=self.language, notice=notice),
        )
        self.sent_version = max(self.sent_version, snapshot.version)
        await self.send(text_data=html)
        metrics.frame_sent(snapshot.id, snapshot.version)
        return snapshot

    async def send_notice(self, notice: Notice) -> None:
        await self.send(text_data=render_notice(notice, self.language))

    def _join_url(self, snapshot: Snapshot) -> str:
        path = f"/t/{snapshot.code}/"
        if settings.PUBLIC_URL:
            return settings.PUBLIC_URL + path
        origin = self._origin
        if origin is None:
            headers = dict(self.scope.get("headers") or [])
            host = headers.get(b"host", b"").decode("latin1")
            scheme = "https" if self.scope.get("scheme") == "wss" else "http"
            origin = self._origin = f"{scheme}://{host}" if host else ""
        return origin + path
