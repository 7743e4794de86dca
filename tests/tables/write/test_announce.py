"""Writes made for the event loop announce what they committed from the loop, always.

``announce.write_then_notify`` runs a write on the database thread and sends its group
messages afterwards from the event loop (the database thread never waits for the loop).
"""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from tables.live.layers import LocalChannelLayer
from tables.write import announce, path

pytestmark = pytest.mark.django_db(transaction=True)  # the write runs on the database thread
GROUP = announce.group_name(9999)


async def listener() -> tuple[LocalChannelLayer, str]:
    layer = get_channel_layer()
    assert isinstance(layer, LocalChannelLayer)  # the embedded default
    channel = await layer.new_channel()
    await layer.group_add(GROUP, channel)
    return layer, channel


async def test_a_write_is_announced_from_the_event_loop_after_it_returns() -> None:
    layer, channel = await listener()
    loop_thread = threading.get_ident()
    seen: list[int] = []

    def write() -> str:
        assert threading.get_ident() != loop_thread  # runs on the database thread
        announce.notify(9999, 7)
        seen.append(7)
        return "done"

    assert await announce.write_then_notify(write) == "done"
    assert seen == [7]
    message = await asyncio.wait_for(layer.receive(channel), 1)
    assert message == {"type": "table.changed", "version": 7}


async def test_a_refused_write_raises_after_announcing_what_it_committed() -> None:
    layer, channel = await listener()

    def write() -> None:
        announce.notify(9999, 3)  # an earlier change of the same call did commit
        raise path.Refused("full", "This table is full.")

    with pytest.raises(path.Refused) as refused:
        await announce.write_then_notify(write)
    assert refused.value.code == "full"
    message = await asyncio.wait_for(layer.receive(channel), 1)
    assert message["version"] == 3


async def test_a_caller_that_goes_away_mid_write_does_not_silence_the_change() -> None:
    layer, channel = await listener()

    writing, cancelled = threading.Event(), threading.Event()

    def slow_write() -> None:
        writing.set()
        assert cancelled.wait(30)  # the write goes on after its caller has gone
        announce.notify(9999, 11)

    caller = asyncio.ensure_future(announce.write_then_notify(slow_write))
    assert await asyncio.to_thread(writing.wait, 30)
    caller.cancel()  # the phone disconnected while its action was being written
    cancelled.set()
    with pytest.raises(asyncio.CancelledError):
        await caller
    message = await asyncio.wait_for(layer.receive(channel), 2)
    assert message["version"] == 11


def test_notify_outside_the_event_loop_sends_at_once() -> None:
    layer = get_channel_layer()
    assert layer is not None
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(GROUP, channel)
    announce.notify(9999, 5)  # a management command, a view: no loop to defer to
    assert async_to_sync(layer.receive)(channel)["version"] == 5
