"""The embedded default's in-memory channel layer (tables.live.layers.LocalChannelLayer)."""

from __future__ import annotations

import asyncio

import pytest
from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer

from tables.live.inbox import Inbox
from tables.live.layers import LocalChannelLayer


async def test_a_group_message_reaches_every_member_once() -> None:
    layer = LocalChannelLayer()
    channels = [await layer.new_channel() for _ in range(5)]
    for channel in channels:
        await layer.group_add("table.1", channel)
    await layer.group_add("table.2", channels[0])
    await layer.group_send("table.1", {"type": "table.changed", "version": 4})
    for channel in channels:
        message = await asyncio.wait_for(layer.receive(channel), 1)
        assert message == {"type": "table.changed", "version": 4}
    for channel in channels:
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(layer.receive(channel), 0.05)


async def test_a_member_that_left_gets_nothing() -> None:
    layer = LocalChannelLayer()
    stays, leaves = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("table.1", stays)
    await layer.group_add("table.1", leaves)
    await layer.group_discard("table.1", leaves)
    await layer.group_send("table.1", {"type": "table.changed", "version": 1})
    assert (await asyncio.wait_for(layer.receive(stays), 1))["version"] == 1
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(layer.receive(leaves), 0.05)


async def test_expired_messages_are_still_dropped_and_their_channel_leaves_its_groups() -> None:
    layer = LocalChannelLayer(expiry=0)
    layer.clean_every = 0.0
    gone, alive = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("table.1", gone)
    await layer.send(gone, {"type": "table.changed", "version": 1})
    await asyncio.sleep(0.01)
    await layer.group_add("table.1", alive)
    await layer.group_send("table.2", {"type": "nothing"})  # any traffic runs the clean-up
    assert gone not in layer.groups.get("table.1", {})
    assert alive in layer.groups["table.1"]


async def test_housekeeping_runs_at_most_once_per_interval(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    walks: list[int] = []
    walk = InMemoryChannelLayer._clean_expired

    def counted(self: InMemoryChannelLayer) -> None:
        walks.append(1)
        walk(self)

    monkeypatch.setattr(InMemoryChannelLayer, "_clean_expired", counted)
    layer = LocalChannelLayer()
    channel = await layer.new_channel()
    await layer.group_add("table.1", channel)
    for version in range(50):
        await layer.group_send("table.1", {"type": "table.changed", "version": version})
        await layer.receive(channel)
    assert len(walks) == 1  # the base class walks every channel 100 times here


async def test_a_full_channel_misses_a_group_message_but_the_others_get_it() -> None:
    layer = LocalChannelLayer(capacity=1)
    full, free = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("table.1", full)
    await layer.group_add("table.1", free)
    await layer.send(full, {"type": "table.changed", "version": 0})
    with pytest.raises(ChannelFull):
        await layer.send(full, {"type": "table.changed", "version": 0})
    await layer.group_send("table.1", {"type": "table.changed", "version": 1})
    assert (await asyncio.wait_for(layer.receive(free), 1))["version"] == 1
    assert (await asyncio.wait_for(layer.receive(full), 1))["version"] == 0


async def test_a_tapped_channel_gets_its_messages_in_its_inbox_and_nothing_after_untap() -> None:
    """A connection's inbox handed to the layer (``tap``): a group's message is put straight
    in it, a copy of its own; a full inbox misses it, as a full channel did; once let go
    (``untap``) the channel gets nothing more."""
    layer = LocalChannelLayer()
    tapped, plain = await layer.new_channel(), await layer.new_channel()
    inbox = Inbox(size=2)
    layer.tap(tapped, inbox)
    for channel in (tapped, plain):
        await layer.group_add("table.1", channel)
    sent = {"type": "table.changed", "version": 1, "step": {"actions": [1]}}
    await layer.group_send("table.1", sent)
    assert len(inbox) == 1
    error, message = await inbox.get()
    assert error is None and message == sent and message is not sent
    assert message["step"] is not sent["step"]
    assert (await asyncio.wait_for(layer.receive(plain), 1))["version"] == 1
    assert tapped not in layer.channels  # no queue made for it
    await layer.send(tapped, {"type": "table.changed", "version": 2})
    await layer.send(tapped, {"type": "table.changed", "version": 3})
    with pytest.raises(ChannelFull):
        await layer.send(tapped, {"type": "table.changed", "version": 4})
    await layer.group_send("table.1", {"type": "table.changed", "version": 5})  # missed here
    assert [(await inbox.get())[1]["version"] for _ in range(2)] == [2, 3]
    await layer.untap(tapped)
    await layer.group_send("table.1", {"type": "table.changed", "version": 6})
    assert len(inbox) == 0
