"""The Redis pub/sub channel layer, with a publish that survives a Redis restart.

channels-redis 4.3's ``RedisPubSubChannelLayer`` keeps a pool of connections per Redis server
for publishing. When Redis restarts, the pooled connection is dead, and the first publish
after the restart fails on it (measured on this machine: 3 of 5 restarts, each publishing
0.4 s after Redis answered again; ``tests/tables/test_redis_restart.py``). That publish is a
table's change that its phones then never hear of: the change is committed, the writer's
own phone is drawn it, every other phone stands still until it asks. Here such a publish is
sent once more: the pool has dropped the dead connection and makes a new one.

The layer's subscriber connection comes back by itself after a restart, with its
subscriptions (redis-py subscribes again when it reconnects; measured in the same test). What
was published while Redis was away, or before the subscriptions came back, is lost: pub/sub
keeps nothing. So once the subscriber hears from Redis again after losing it, every
connection of this process in a group on that server is handed a ``layer.resumed`` message
(``TableConsumer.layer_resumed`` draws its table if it moved on meanwhile). A phone also
catches up whenever it asks (``TableConsumer.on_ping``).

``config.channel_layers`` names this class for every ``REDIS_URL``.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from channels_redis import pubsub
from channels_redis.utils import _wrap_close, decode_hosts
from redis.exceptions import ConnectionError as RedisConnectionError

log = logging.getLogger(__name__)

RESUMED = {"type": "layer.resumed"}


class _Shard(pubsub.RedisSingleShardConnection):  # type: ignore[misc]  # channels-redis: untyped
    _lost = False

    async def publish(self, channel: str, message: bytes) -> None:
        try:
            await super().publish(channel, message)
        except (RedisConnectionError, ConnectionError):
            # The pooled connection died with the old server: the pool makes a new one. A
            # second failure is Redis still away, and reaches the caller.
            await super().publish(channel, message)

    async def _do_receiving(self) -> None:
        """channels-redis's receive loop, which also tells the groups when Redis is back."""
        while True:
            try:
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
                    log.warning("Redis %s: subscriber connection lost (%r)", self.host, exc)
                self._lost = True
                await asyncio.sleep(0.2)

    def _resumed(self) -> None:
        """Every connection in a group this server carries: a ``layer.resumed`` message."""
        layer = self.channel_layer
        data = layer.channel_layer.serialize(RESUMED)
        told = set()
        for group, members in layer.groups.items():
            if group not in self._subscribed_to:
                continue
            for name in members:
                if name in layer.channels and name not in told:
                    layer.channels[name].put_nowait(data)
                    told.add(name)
        log.warning("Redis %s: subscribed again; %d connections told", self.host, len(told))


class _LoopLayer(pubsub.RedisPubSubLoopLayer):  # type: ignore[misc]
    def __init__(self, *args: Any, hosts: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, hosts=hosts, **kwargs)
        self._shards = [_Shard(host, self) for host in decode_hosts(hosts)]


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
