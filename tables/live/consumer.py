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

Phone -> server: JSON, checked by ``tables.live.protocol`` (nothing else reads what a phone
sent), then answered by the one handler its type names in ``HANDLERS``, each family in its own
module: ``tables.live.playing`` (action, reveal, hide, back, sync, ping), ``tables.live.talk``
(chat, react, mute, unmute, talk, chat_history), ``tables.live.host`` (host),
``tables.live.sight`` (sight: the page is shown or hidden) and ``tables.live.out`` (out). A
handler is
``await handler(connection, message)``, called in the connection's language. It refuses by
raising ``tables.write.path.Refused``: this phone is told, as a notice. The database away
(``tables.write.reconnect.DATABASE_AWAY``), the phone is told to try again; a change saved but not
announced (``tables.write.path.NotAnnounced``), this phone is drawn the table as it is.

Group messages (from the channel layer, to every connection of the table) are this class's
methods, as Channels names them after their type (``table.changed``: ``table_changed``):
``table_changed``, ``layer_resumed``, ``chat_event``, ``seat_moved``, ``phone_forgot`` and
``tournament_moved``. Each has one shape: it returns at once when the message is not for this
connection (a version drawn already, someone else's claim or phone), then answers inside
``speaking(self.language)``. Table talk and a friend arriving late come as ``chat.event``;
``tables.live.talk.deliver`` (and ``tables.live.late.deliver``) draw this phone's part.
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
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from channels.sessions import InstanceSessionWrapper
from django.conf import settings
from django.utils.translation import activate
from django.utils.translation import gettext as _

from tables import claims, lookups, metrics, ratelimit
from tables.cache import Snapshot, cached_snapshot, derive, load_snapshot
from tables.draw.tournament_line import tournament_over
from tables.live import host, moved, out, playing, sight, talk
from tables.live.frames import FrameOptions, Notice, error_notice, render_frame, render_notice
from tables.live.inbox import Inbox, handle_in_order
from tables.live.kept import KeptParts, wants_parts
from tables.live.langs import language_from_scope, speaking
from tables.live.perspective import PassState, perspective
from tables.live.playing import SAVING_SLOWLY
from tables.live.protocol import BadMessage, Handler, parse
from tables.models import Table
from tables.write import path, play
from tables.write.announce import guarded
from tables.write.reconnect import DATABASE_AWAY

log = logging.getLogger(__name__)

CLOSE_UNKNOWN_TABLE = 4404
CLOSE_TOO_MANY = 4429

# The one handler of each message type a phone may send (tables.live.protocol.TYPES), by family.
HANDLERS: dict[str, Handler] = {
    **playing.HANDLERS, **talk.HANDLERS, **host.HANDLERS, **sight.HANDLERS, **out.HANDLERS,
}

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


def without_session_wrapper(send: Any) -> Any:
    """The server's own send under Channels' session middleware. The middleware's send saves
    the session when an HTTP response starts; a websocket never sends one, and its check cost
    two session lookups for every frame sent."""
    wrapper = getattr(send, "__self__", None)
    if isinstance(wrapper, InstanceSessionWrapper):
        return wrapper.real_send
    return send


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
    kept: KeptParts | None = None  # what the page holds of its frames, if it keeps parts

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """As Channels' own (the scope, this connection's channel, the send), except that the
        messages of the phone and of the channel layer come through one inbox
        (``tables.live.inbox``), the tables app's layers putting theirs straight in it: fewer
        trips through the event loop for every frame."""
        self.scope = scope
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        inbox = Inbox()
        sources = [receive]
        untap = None
        if self.channel_layer is not None:
            self.channel_name = await self.channel_layer.new_channel()
            channel, layer = self.channel_name, self.channel_layer
            tap = getattr(layer, "tap", None)
            if tap is not None:
                tap(channel, inbox)
                untap = layer.untap
            else:  # another layer: read by a task of this connection's

                async def from_layer() -> Any:
                    return await layer.receive(channel)

                sources.append(from_layer)
        self.base_send = without_session_wrapper(send)
        try:
            with contextlib.suppress(StopConsumer):
                await handle_in_order(sources, self.dispatch, inbox)
        finally:
            if untap is not None:
                await untap(self.channel_name)

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
        self.kept = KeptParts() if wants_parts(self.scope.get("query_string")) else None
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
        # Redis away: drawn all the same, and joined on the phone's next ping
        # (tables.live.playing.ping).
        await guarded(f"table {table.code}", "joining", self.channel_layer.group_add, self.group,
                      self.channel_name)
        metrics.websocket_opened()
        snapshot = await self.current_snapshot()
        if snapshot is not None and self._page_is_current(snapshot):
            self.sent_version = snapshot.version
        else:
            snapshot = await self.send_view(force=True, snapshot=snapshot)
        if snapshot is not None:
            self.present = snapshot.positions_of(self.hashes)
            await database_sync_to_async(play.touch_seats)(self.table_id, self.present, opened=1)
        await self.moved_meanwhile()

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
        await sight.gone(self)
        if self.present and self.table_id is not None:
            with contextlib.suppress(*DATABASE_AWAY):  # presence only: the seat's page closed
                await database_sync_to_async(play.touch_seats)(
                    self.table_id, self.present, opened=-1
                )

    # ------------------------------------------------------------------ from the group
    # One style for every group message (see the module docstring): return at once if it is
    # not for this connection, then answer in the connection's language.
    async def table_changed(self, event: dict[str, Any]) -> None:
        """The table is at a new version: drawn, unless this connection drew it already."""
        version = int(event.get("version", 0))
        if version <= self.sent_version:
            return
        snapshot = await self._snapshot_at(version, event)
        with speaking(self.language):
            await self.send_view(snapshot=snapshot)

    async def layer_resumed(self, event: dict[str, Any]) -> None:
        """Redis is back after this process lost it (tables.live.redis_layer): what changed
        meanwhile was never heard here. The table is drawn if it moved on."""
        if self.table_id is None:
            return
        with speaking(self.language), contextlib.suppress(*DATABASE_AWAY):
            await self.send_view()
            await self.moved_meanwhile()

    async def chat_event(self, event: dict[str, Any]) -> None:
        """Table talk (a line said or deleted, talk switched) or a late friend's request:
        ``tables.live.talk`` decides what this phone is sent."""
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
        with speaking(self.language):
            await self.send_view(force=True)

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

    async def _snapshot_at(self, version: int, event: dict[str, Any]) -> Snapshot | None:
        """The table at the version a group message announced. Usually another connection of
        this process has it already; another process's change of play is worked out from the
        version before (once for all of this process's connections: the next finds it kept),
        without a query; else it is loaded, once for all of them."""
        assert self.table_id is not None
        snapshot = cached_snapshot(self.table_id, *self.identity, version)
        if snapshot is None and "step" in event:
            try:
                snapshot = derive(self.table_id, *self.identity, version, event["step"])
            except Exception:  # never worse than a load: logged, and the version loaded
                log.exception("table %s: version %s not worked out", self.table_id, version)
        if snapshot is None:
            snapshot = await shared_snapshot(self.table_id, version)
        return snapshot

    async def moved_meanwhile(self) -> None:
        """A phone back at a tournament's table its player was moved away from
        while it was not connected is told where they sit now, as if it had been there."""
        if self.tournament_id is None or self.table_id is None:
            return
        event = await database_sync_to_async(moved.where_now)(
            self.table_id, self.tournament_id, self.hashes
        )
        if event is not None:
            await self.tournament_moved(event)

    # ------------------------------------------------------------------ from the phone
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """A message from the phone: checked (``tables.live.protocol``), then answered by the
        handler of its type (``HANDLERS``)."""
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
                await HANDLERS[message.type](self, message)
            except path.Refused as exc:  # nothing was done: told to this phone only
                await self.send_notice(error_notice(exc.code, exc.message))
            except DATABASE_AWAY:
                # The database is away (a restart, a failover): nothing was done (or, when the
                # COMMIT's answer was lost, perhaps it was: tables.write.reconnect) and the phone
                # is told to try again; the socket stays open, and the same tap may be sent
                # again (its id counts it once; a new tap on the old frame is stale).
                log.warning("table %s: database away for a %s message", self.table_id,
                            message.type)
                await self.send_notice(error_notice(SAVING_SLOWLY, _saving_slowly()))
            except path.NotAnnounced:
                # A host's control saved that the other phones could not be told of (Redis
                # is away): this phone is drawn as the table is now.
                await self.send_view(force=True)

    # ------------------------------------------------------------------ to the phone
    async def current_snapshot(self) -> Snapshot | None:
        """The table as it is now (kept, or loaded)."""
        assert self.table_id is not None
        snapshot: Snapshot | None = await database_sync_to_async(load_snapshot)(self.table_id)
        return snapshot

    async def send_view(
        self, *, force: bool = False, notice: Notice | None = None,
        snapshot: Snapshot | None = None,
    ) -> Snapshot | None:
        if snapshot is None:
            snapshot = await self.current_snapshot()
        if snapshot is None:
            await self.send_notice(error_notice("unknown_table", _("This table is gone.")))
            return None
        if snapshot.version <= self.sent_version and not force:
            return snapshot  # already drawn (a later message showed a newer version)
        mine = snapshot.positions_of(self.hashes)
        persp = perspective(snapshot, mine, self.pass_state)
        if snapshot.in_tournament and snapshot.status == Table.Status.FINISHED:
            # The tournament's end, drawn on this table's last screen (no query while drawing)
            await database_sync_to_async(tournament_over)(snapshot, True)
        html = render_frame(
            snapshot, persp,
            FrameOptions(join_url=self._join_url(snapshot), language=self.language, notice=notice),
            self.kept,
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
