"""The Redis pub/sub channel layer, with a publish that survives a Redis restart.

channels-redis 4.3's ``RedisPubSubChannelLayer`` keeps a pool of connections per Redis server
for publishing. When Redis restarts, the pooled connection is dead, and the first publish
after the restart fails on it (measured on this machine: 3 of 5 restarts, each publishing
0.4 s after Redis answered again; ``tests/tables/servers/test_redis_restart.py``). That publish is a
table's change that its phones then never hear of: the change is committed, the writer's
own phone is drawn it, every other phone stands still until it asks. Here such a publish is
sent once more: the pool has dropped the dead connection and makes a new one.

The layer's subscriber connection comes back by itself after a restart, with its
subscriptions (redis-py subscribes again when it reconnects; measured in the same test). What
was published while Redis was away, or before the subscriptions came back, is lost: pub/sub
keeps nothing. So once the subscriber hears from Redis again after losing it, every
connection of this process in a group on that server is handed a ``layer.resumed`` message
(``TableConsumer.layer_resumed`` draws its table if it moved on meanwhile). A phone also
catches up whenever it asks (``tables.live.playing.ping``).

A phone that joined its table while Redis was away could not subscribe its group (the join is
logged and skipped). Such a group is remembered, and tried again every ``RETRY_SECONDS`` by the
receive loop until Redis answers (or the group's last phone leaves): once subscribed, its
connections are handed ``layer.resumed`` as well, so they hear every change from then on and
are drawn what they missed, without waiting for their next ping.

Through Redis Sentinel (``config.channel_layers``: a host with ``sentinels`` and
``master_name``) the same code serves a failover: when the master dies the subscriber
connection is lost; every reconnection asks the Sentinels where the master is, and is
refused until they have promoted the replica; then it subscribes again on the new master and
the groups are told, as after a restart. A master whose machine vanished without a word (no
connection refused or reset: a frozen process, a cut network) would leave the subscriber
waiting on a connection that never speaks again: so the receive loop also asks the Sentinels
every ``WATCH_SECONDS`` where the master is, and when they name another one, drops its
connection and subscribes on the new master (the groups told). A command's reply that never
comes is given up by ``config.channel_layers``' socket time-out.

While Redis is away, subscribing and unsubscribing fail with redis's ConnectionError (the
caller logs it in one line: ``tables.write.announce.guarded``), never with anything else and never
after a long wait. Right after a restart the subscriber connection is made again both by the
receive loop and by the command, two readers of one stream: asyncio refuses the second with a
RuntimeError, or one reads the other's reply (a ResponseError out of turn), or a reply waited
for without a time limit never comes (so each command is given ``COMMAND_SECONDS``; a
subscription takes milliseconds). Each is reported as the connection error it is, and the
connection, out of step, is closed: the receive loop makes it again with its subscriptions.
An unsubscribe that failed lets go all the same: the channel is forgotten here and by
redis-py, which would otherwise subscribe it again on reconnecting (the server forgot it with
the lost connection). A connection's own channel is made even when it cannot be subscribed:
the app sends only to groups, and the phone joins its group later.

A connection of the tables app hands the layer its inbox (``tap``): what arrives for its
channel, or for a group it is in, is then put straight in the inbox (``tables.live.inbox``)
instead of a queue that a task of the connection's reads, and the channel is unsubscribed when
the connection ends (``untap``; channels-redis did that when the cancelled reader's
``receive`` ended).

``config.channel_layers`` names this class for every ``REDIS_URL``.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import Any

from channels_redis import pubsub
from channels_redis.utils import _wrap_close, decode_hosts
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

from tables.live.inbox import Inbox
from tables.write.announce import LAYER_AWAY

log = logging.getLogger(__name__)

RESUMED = {"type": "layer.resumed"}
COMMAND_SECONDS = 2.0  # the longest a subscribe or an unsubscribe waits (see above)
RETRY_SECONDS = 0.5  # how often the groups joined while Redis was away are subscribed again
WATCH_SECONDS = 1.0  # through Sentinel: how often the receive loop asks where the master is
# What a subscribe or an unsubscribe meets when the subscriber connection is lost, or made
# again by two readers at once (see the module's docstring).
_CONNECTION_TROUBLE: tuple[type[BaseException], ...] = (*LAYER_AWAY, RedisError, RuntimeError)


def where(host: dict[str, Any]) -> str:
    """A host of channels-redis, for a log line (never its password)."""
    if "master_name" in host:
        return f"master {host['master_name']} (Sentinel)"
    return str(host.get("address", "?"))


class _Shard(pubsub.RedisSingleShardConnection):  # type: ignore[misc]  # channels-redis: untyped
    _lost = False

    def __init__(self, host: dict[str, Any], channel_layer: Any) -> None:
        super().__init__(host, channel_layer)
        self.name = where(host)
        self._unheard: set[str] = set()  # groups joined while Redis was away: not subscribed
        self._next_try = 0.0
        self._watched = "master_name" in host  # found through Sentinel
        self._next_watch = 0.0

    async def publish(self, channel: str, message: bytes) -> None:
        try:
            await super().publish(channel, message)
        except (RedisConnectionError, ConnectionError):
            # The pooled connection died with the old server: the pool makes a new one. A
            # second failure is Redis still away, and reaches the caller.
            await super().publish(channel, message)

    async def _command(self, command: Any, channel: str) -> None:
        """channels-redis's subscribe or unsubscribe of ``channel``, whose troubles with the
        subscriber connection all fail as ``RedisConnectionError`` within ``COMMAND_SECONDS``.
        A reply out of turn (a RuntimeError for two readers, a ResponseError for a reply read
        by the wrong one) leaves the connection out of step: it is closed, and the receive loop
        makes it again with its subscriptions (and tells the groups: ``_resumed``)."""
        try:
            async with asyncio.timeout(COMMAND_SECONDS):
                await command(channel)
        except _CONNECTION_TROUBLE as exc:
            connection = self._pubsub.connection if self._pubsub is not None else None
            if not isinstance(exc, RedisConnectionError) and connection is not None:
                await connection.disconnect(nowait=True)
            if isinstance(exc, RedisConnectionError):
                raise
            raise RedisConnectionError(f"{type(exc).__name__}: {exc}") from exc

    async def subscribe(self, channel: str) -> None:
        """A group that cannot be subscribed now (Redis away) is remembered and tried again
        by the receive loop (``_subscribe_unheard``); the failure reaches the caller."""
        try:
            await self._command(super().subscribe, channel)
        except RedisConnectionError:
            if "__group__" in channel:
                self._unheard.add(channel)
            raise
        self._unheard.discard(channel)

    async def unsubscribe(self, channel: str) -> None:
        """Let go of ``channel`` whether or not Redis hears it. A connection's own channel
        (unsubscribed by channels-redis when the consumer ends, which logs any error with its
        traceback) quietly; a group's failure reaches the caller."""
        self._unheard.discard(channel)
        try:
            await self._command(super().unsubscribe, channel)
        except RedisConnectionError as exc:
            self._subscribed_to.discard(channel)
            if self._pubsub is not None:
                for key in self._pubsub._normalize_keys({channel: None}):
                    self._pubsub.channels.pop(key, None)
                    self._pubsub.pending_unsubscribe_channels.discard(key)
            if "__group__" in channel:  # channels-redis's mark of a group's channel
                raise
            log.debug("Redis %s: %s let go without unsubscribing (%r)", self.name, channel, exc)

    async def flush(self) -> None:
        self._unheard.clear()
        await super().flush()

    async def _subscribe_unheard(self) -> None:
        """The groups joined while Redis was away, subscribed now if Redis answers (those
        whose phones all left meanwhile are forgotten); their connections are told."""
        self._next_try = asyncio.get_running_loop().time() + RETRY_SECONDS
        heard = []
        for channel in sorted(self._unheard):
            if channel not in self.channel_layer.groups:
                self._unheard.discard(channel)
                continue
            try:
                await self.subscribe(channel)
            except RedisConnectionError:
                return  # still away: tried again later
            heard.append(channel)
        if heard:
            told = self._tell(heard)
            log.warning("Redis %s: %d tables joined while it was away are heard now; "
                        "%d connections told", self.name, len(heard), told)

    async def _do_receiving(self) -> None:
        """channels-redis's receive loop, which also tells the groups when Redis is back."""
        loop = asyncio.get_running_loop()
        while True:
            try:
                if self._unheard and loop.time() >= self._next_try:
                    await self._subscribe_unheard()
                if self._watched and loop.time() >= self._next_watch:
                    await self._watch_master()
                if self._pubsub and self._pubsub.subscribed:
                    message = await self._pubsub.get_message(
                        ignore_subscribe_messages=True, timeout=0.1
                    )
                    if self._lost:  # read without error: reconnected and subscribed again
                        self._lost = False
                        self._resumed()
                    self._receive_message(message)
                else:
                    await asyncio.sleep(0.1)
            except (asyncio.CancelledError, GeneratorExit):
                raise
            # (channels-redis re-raises a time-out too, which ends its loop for good: here a
            # time-out is one more read that failed.)
            except Exception as exc:
                if not self._lost:
                    log.warning("Redis %s: subscriber connection lost (%r)", self.name, exc)
                self._lost = True
                await asyncio.sleep(0.2)

    async def _watch_master(self) -> None:
        """Through Sentinel: if the Sentinels name another master than the one the subscriber
        connection is on, that connection is dropped; the loop makes it again on the new
        master, with its subscriptions, and tells the groups (``_resumed``)."""
        self._next_watch = asyncio.get_running_loop().time() + WATCH_SECONDS
        if self._redis is None or self._pubsub is None or not self._pubsub.subscribed:
            return
        connection = self._pubsub.connection
        if connection is None or not connection.is_connected:
            return  # being made again: it asks the Sentinels itself
        try:
            async with asyncio.timeout(COMMAND_SECONDS):
                address = await self._redis.connection_pool.get_master_address()
        except _CONNECTION_TROUBLE:
            return  # no Sentinel answers, or none names a master: nothing to compare with
        if (connection.host, int(connection.port)) == (address[0], int(address[1])):
            return
        log.warning("Redis %s: the Sentinels name %s:%s as the master; subscribing there",
                    self.name, address[0], address[1])
        async with self._lock:  # not under a subscribe or an unsubscribe of a connection's
            await connection.disconnect(nowait=True)
        self._lost = True

    def _resumed(self) -> None:
        """Every connection in a group this server carries: a ``layer.resumed`` message."""
        told = self._tell(list(self._subscribed_to))
        log.warning("Redis %s: subscribed again; %d connections told", self.name, told)

    def _tell(self, groups: list[str]) -> int:
        """A ``layer.resumed`` message to every connection of this process in ``groups``
        (once each); how many were told."""
        layer = self.channel_layer
        data = layer.channel_layer.serialize(RESUMED)
        told = set()
        for group in groups:
            for name in layer.groups.get(group, ()):
                if name in layer.channels and name not in told:
                    layer.channels[name].put_nowait(data)
                    told.add(name)
        return len(told)


class _Tap:
    """Stands in a channel's queue (channels-redis puts what arrives with ``put_nowait``): each
    message is read and handed to the connection's inbox at once."""

    __slots__ = ("channel", "deserialize", "inbox")

    def __init__(self, inbox: Inbox, deserialize: Any, channel: str) -> None:
        self.inbox = inbox
        self.deserialize = deserialize
        self.channel = channel

    def put_nowait(self, data: bytes) -> None:
        try:
            message = self.deserialize(data)
        except Exception:  # one unreadable message; the receive loop and the others go on
            log.exception("Redis: a message for %s could not be read", self.channel)
            return
        self.inbox.deliver(message)


class _LoopLayer(pubsub.RedisPubSubLoopLayer):  # type: ignore[misc]
    def __init__(self, *args: Any, hosts: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, hosts=hosts, **kwargs)
        self._shards = [_Shard(host, self) for host in decode_hosts(hosts)]

    def tap(self, channel: str, inbox: Inbox) -> None:
        """What arrives for ``channel`` (made by ``new_channel``) goes to ``inbox`` from now on;
        the channel is never read with ``receive``."""
        self.channels[channel] = _Tap(inbox, self.channel_layer.deserialize, channel)

    async def untap(self, channel: str) -> None:
        """The connection of ``channel`` is gone: the channel is forgotten and unsubscribed
        (what channels-redis's ``receive`` did when the consumer's reader was cancelled)."""
        if self.channels.pop(channel, None) is None:
            return
        try:
            await self._get_shard(channel).unsubscribe(channel)
        except Exception:  # logged by the shard when Redis is away; never the caller's trouble
            log.debug("Redis: %s let go without unsubscribing", channel, exc_info=True)

    async def new_channel(self, prefix: str = "specific.") -> str:
        """A connection's own channel, made (not subscribed) while Redis is away."""
        channel = f"{self.prefix}{prefix}{uuid.uuid4().hex}"
        self.channels[channel] = asyncio.Queue()
        try:
            await self._get_shard(channel).subscribe(channel)
        except LAYER_AWAY as exc:
            log.debug("Redis away: %s made without subscribing (%r)", channel, exc)
        return channel


class RedisPubSubLayer(pubsub.RedisPubSubChannelLayer):  # type: ignore[misc]
    """``RedisPubSubChannelLayer`` whose publishes are tried again once on a dead connection."""

    def _get_layer(self) -> Any:
        loop = asyncio.get_running_loop()
        try:
            return self._layers[loop]
        except KeyError:
            layer = _LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)
            return layer
