"""A connection's inbox (tables.live.inbox): messages handled one at a time in the order they
came, at most INBOX_SIZE waiting (a slow connection leaves the rest with their source), and a
source's error raised by the connection."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from tables.live.inbox import INBOX_SIZE, handle_in_order


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
