"""The channel layer through a Redis restart (tables/live/redis_layer.py): the first publish
after the restart is not lost, and a process keeps hearing its tables. channels-redis's own
pub/sub layer is measured beside ours in the same run."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import pytest
from channels_redis.pubsub import RedisPubSubChannelLayer

from tables.live.redis_layer import RedisPubSubLayer
from tests.helpers.servers import RedisServer

pytestmark = [pytest.mark.services, pytest.mark.asyncio]


async def _heard_after_restarts(
    layer_class: type, redis: RedisServer, restarts: int
) -> tuple[int, int]:
    """After how many of ``restarts`` restarts the subscriber heard a message, and how many
    ``layer.resumed`` messages it was handed. A message (published from
    another layer as soon as Redis answers, then once every tenth of a second for 5 s). The
    subscriber receives all along, as a consumer does (a receive cancelled is a channel
    closed, for channels-redis)."""
    hosts = [redis.url]
    listener = layer_class(hosts=hosts, prefix="restart")
    speaker = layer_class(hosts=hosts, prefix="restart")
    channel = await listener.new_channel()
    await listener.group_add("table.1", channel)
    inbox: asyncio.Queue[dict[str, int]] = asyncio.Queue()
    resumed = []

    async def receiving() -> None:
        while True:
            message = await listener.receive(channel)
            if message["type"] == "layer.resumed":
                resumed.append(message)
            else:
                inbox.put_nowait(message)

    receiver = asyncio.create_task(receiving())
    loop = asyncio.get_running_loop()

    async def heard(n: int, seconds: float) -> bool:
        until = loop.time() + seconds
        while loop.time() < until:
            try:
                await speaker.group_send("table.1", {"type": "t", "n": n})
            except Exception:  # the speaker's own connection broke: tried again
                await asyncio.sleep(0.1)
                continue
            try:
                while (await asyncio.wait_for(inbox.get(), 0.1)).get("n") != n:
                    pass
                return True
            except TimeoutError:
                continue
        return False

    assert await heard(-1, 5)
    count = 0
    for restart in range(restarts):
        redis.stop()
        await asyncio.sleep(0.3)  # the subscriber finds its connection gone
        redis.start()
        count += await heard(restart, 5)
    receiver.cancel()
    await listener.flush()
    await speaker.flush()
    return count, len(resumed)


async def test_after_each_redis_restart_the_tables_are_heard_again(tmp_path: Path) -> None:
    redis = RedisServer(tmp_path)
    redis.start()
    try:
        # Heard again each time, and told each time that it may have missed something.
        assert await _heard_after_restarts(RedisPubSubLayer, redis, 5) == (5, 5)
    finally:
        redis.stop()


async def test_a_phone_joining_after_the_restart_hears_its_table(tmp_path: Path) -> None:
    """A connection made after the restart joins a group the process held before it."""
    redis = RedisServer(tmp_path)
    redis.start()
    try:
        listener = RedisPubSubLayer(hosts=[redis.url], prefix="join")
        speaker = RedisPubSubLayer(hosts=[redis.url], prefix="join")
        first = await listener.new_channel()
        await listener.group_add("table.2", first)
        redis.stop()
        await asyncio.sleep(0.3)
        redis.start()
        later = await listener.new_channel()
        await listener.group_add("table.2", later)
        loop = asyncio.get_running_loop()
        until = loop.time() + 10
        got = None
        receiving = asyncio.create_task(listener.receive(later))
        while got is None and loop.time() < until:
            with contextlib.suppress(Exception):  # the speaker's connection broke: again
                await speaker.group_send("table.2", {"type": "t", "n": 1})
            done, _ = await asyncio.wait({receiving}, timeout=0.2)
            if done:
                message = receiving.result()
                if message["type"] == "layer.resumed":  # told, then waits for the table
                    receiving = asyncio.create_task(listener.receive(later))
                else:
                    got = message
        assert got is not None and got["n"] == 1
        await listener.flush()
        await speaker.flush()
    finally:
        redis.stop()


async def _first_publishes_failed(layer_class: type, redis: RedisServer, restarts: int) -> int:
    """Of ``restarts`` restarts, after how many the first publish (0.4 s after Redis answered
    again) raised."""
    speaker = layer_class(hosts=[redis.url], prefix="publish")
    await speaker.group_send("table.3", {"type": "t"})
    failed = 0
    for _ in range(restarts):
        redis.stop()
        await asyncio.sleep(0.3)
        redis.start()
        await asyncio.sleep(0.4)
        try:
            await speaker.group_send("table.3", {"type": "t"})
        except Exception:
            failed += 1
    await speaker.flush()
    return failed


async def test_the_first_publish_after_a_redis_restart_is_sent(tmp_path: Path) -> None:
    redis = RedisServer(tmp_path)
    redis.start()
    try:
        assert await _first_publishes_failed(RedisPubSubLayer, redis, 5) == 0
    finally:
        redis.stop()


@pytest.mark.slow
async def test_the_layer_of_channels_redis_itself_is_measured_beside_ours(tmp_path: Path) -> None:
    """The reason for ours: the same restarts with channels-redis's layer. Printed; theirs is
    not asserted (it depends on timing: often, not always)."""
    redis = RedisServer(tmp_path)
    redis.start()
    try:
        theirs = await _first_publishes_failed(RedisPubSubChannelLayer, redis, 5)
        ours = await _first_publishes_failed(RedisPubSubLayer, redis, 5)
        heard_theirs, _ = await _heard_after_restarts(RedisPubSubChannelLayer, redis, 3)
        heard_ours, told = await _heard_after_restarts(RedisPubSubLayer, redis, 3)
        print(f"\nfirst publish failed after 5 restarts: channels-redis {theirs}, ours {ours}; "
              f"heard after 3 restarts: channels-redis {heard_theirs}, ours {heard_ours}")
        assert ours == 0 and heard_ours == 3 and told == 3
    finally:
        redis.stop()
