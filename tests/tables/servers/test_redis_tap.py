"""The Redis layer hands a connection's messages straight to its inbox (``tap``) and lets its
channel go when the connection ends (``untap``): a redis-server of the test's own."""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import get_channel_layer

from tables.live.inbox import Inbox
from tests.helpers.servers import RedisServer

pytestmark = [pytest.mark.services, pytest.mark.asyncio]


async def test_a_tapped_channel_hears_its_group_and_is_unsubscribed_when_let_go(
    own_redis: RedisServer,
) -> None:
    layer = get_channel_layer()
    tapped, plain = await layer.new_channel(), await layer.new_channel()
    inbox = Inbox()
    layer.tap(tapped, inbox)
    for channel in (tapped, plain):
        await layer.group_add("table.7", channel)
    step = {"actions": [["call", 2, 40]], "values": {"version": 12}}
    await layer.group_send("table.7", {"type": "table.changed", "version": 12, "step": step})
    error, message = await asyncio.wait_for(inbox.get(), 5)
    assert error is None
    assert message == {"type": "table.changed", "version": 12, "step": step}
    assert (await asyncio.wait_for(layer.receive(plain), 5))["version"] == 12
    await layer.send(tapped, {"type": "chat.event", "line": "hi"})  # its own channel too
    assert (await asyncio.wait_for(inbox.get(), 5))[1]["line"] == "hi"

    loop_layer = layer._get_layer()
    (shard,) = loop_layer._shards
    assert tapped in shard._subscribed_to
    await layer.group_discard("table.7", tapped)
    await layer.untap(tapped)
    assert tapped not in loop_layer.channels and tapped not in shard._subscribed_to
    await layer.untap(tapped)  # twice: nothing more to do
    await layer.group_send("table.7", {"type": "table.changed", "version": 13})
    assert (await asyncio.wait_for(layer.receive(plain), 5))["version"] == 13
    assert len(inbox) == 0


async def test_an_unreadable_message_is_logged_and_the_next_one_arrives(
    own_redis: RedisServer, caplog: pytest.LogCaptureFixture,
) -> None:
    layer = get_channel_layer()
    channel = await layer.new_channel()
    inbox = Inbox()
    layer.tap(channel, inbox)
    loop_layer = layer._get_layer()
    (shard,) = loop_layer._shards
    await shard.publish(channel, b"\xc1 not msgpack")
    await layer.send(channel, {"type": "table.changed", "version": 3})
    assert (await asyncio.wait_for(inbox.get(), 5))[1]["version"] == 3
    assert "could not be read" in caplog.text
    await layer.untap(channel)
