"""A connection's inbox (tables.live.inbox): messages handled one at a time in the order they
came, at most INBOX_SIZE waiting (a slow connection leaves the rest with their source), and a
source's error raised by the connection."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from tables.live.inbox import INBOX_SIZE, Inbox, handle_in_order


async def test_a_slow_connection_leaves_the_rest_with_their_source() -> None:
    counter = itertools.count()
    taken: list[int] = []
    handled: list[int] = []
    release = asyncio.Event()

    async def source() -> int:
        number = next(counter)
        taken.append(number)
        return number

    async def handle(message: int) -> None:
        handled.append(message)
        await release.wait()
        if len(handled) == INBOX_SIZE * 3:
            raise asyncio.CancelledError

    task = asyncio.ensure_future(handle_in_order([source], handle))
    # The reader fills the inbox while the first message is being handled, then waits.
    while len(taken) < INBOX_SIZE + 2:
        await asyncio.sleep(0)
    for _ in range(50):
        await asyncio.sleep(0)
    assert handled == [0]
    assert len(taken) <= INBOX_SIZE + 2  # one handled, INBOX_SIZE waiting, one in the reader's hand
    release.set()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert handled == list(range(INBOX_SIZE * 3))


async def test_a_source_that_raises_stops_the_connection_with_its_error() -> None:
    calls = itertools.count()

    async def source() -> int:
        if next(calls) == 3:
            raise ConnectionError("the layer is away")
        return 1

    seen: list[int] = []

    async def handle(message: int) -> None:
        seen.append(message)

    with pytest.raises(ConnectionError, match="the layer is away"):
        await handle_in_order([source], handle)
    assert seen == [1, 1, 1]


async def test_a_layer_delivers_straight_to_the_connection_in_order_with_what_is_read() -> None:
    """A layer's tap (``Inbox.deliver``) wakes the connection with no reader between; what a
    source reads meanwhile takes its place in the same order."""
    inbox = Inbox()
    handled: list[str] = []
    phone: asyncio.Queue[str] = asyncio.Queue()

    async def handle(message: str) -> None:
        handled.append(message)
        if message == "stop":
            raise asyncio.CancelledError

    task = asyncio.ensure_future(handle_in_order([phone.get], handle, inbox))
    inbox.deliver("changed 1")
    await phone.put("tap")
    while len(handled) < 2:
        await asyncio.sleep(0)
    inbox.deliver("changed 2")
    inbox.deliver("stop")
    with pytest.raises(asyncio.CancelledError):
        await task
    assert handled == ["changed 1", "tap", "changed 2", "stop"]


async def test_a_full_inbox_says_so_and_a_reader_waits_for_room() -> None:
    inbox = Inbox(size=2)
    inbox.deliver(1)
    assert not inbox.full()
    inbox.deliver(2)
    assert inbox.full()
    put = asyncio.ensure_future(inbox.put((None, 3)))
    for _ in range(10):
        await asyncio.sleep(0)
    assert not put.done() and len(inbox) == 2
    assert await inbox.get() == (None, 1)
    await asyncio.wait_for(put, 1)
    assert [await inbox.get() for _ in range(2)] == [(None, 2), (None, 3)]
    waiting = asyncio.ensure_future(inbox.get())
    await asyncio.sleep(0)
    assert not waiting.done()
    inbox.deliver(4)
    assert await asyncio.wait_for(waiting, 1) == (None, 4)


async def test_a_reader_cancelled_while_waiting_for_room_leaves_no_trace() -> None:
    inbox = Inbox(size=1)
    inbox.deliver(1)
    put = asyncio.ensure_future(inbox.put((None, 2)))
    await asyncio.sleep(0)
    put.cancel()
    with pytest.raises(asyncio.CancelledError):
        await put
    assert await inbox.get() == (None, 1)
    assert len(inbox) == 0 and not inbox._room


async def test_frames_go_to_the_server_past_the_session_wrapper() -> None:
    """Channels' session middleware wraps ``send`` to save the session when an HTTP response
    starts; a websocket's frames go to the server's own send instead (no session lookup per
    frame), and any other send is used as it is."""
    from channels.sessions import InstanceSessionWrapper

    from tables.live.consumer import without_session_wrapper

    sent: list[dict[str, str]] = []

    async def server_send(message: dict[str, str]) -> None:
        sent.append(message)

    wrapper = InstanceSessionWrapper(
        {"type": "websocket", "cookies": {}, "headers": []}, server_send
    )
    direct = without_session_wrapper(wrapper.send)
    assert direct is server_send
    await direct({"type": "websocket.send", "text": "frame"})
    assert sent == [{"type": "websocket.send", "text": "frame"}]
    assert without_session_wrapper(server_send) is server_send
