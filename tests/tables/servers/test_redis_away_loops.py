"""Joining, leaving and announcing while Redis is away, each 50 times in a row, so that a race
that loses one time in six cannot hide (a redis-server of the test's own, stopped and started
again; tests/helpers/servers.py). Each time: nothing raises, the layer's call is logged in
one line (``tables.write.announce.guarded``) or not at all, no traceback is logged, and once
Redis is back the phone is drawn the table's current version without asking (no ping: the
layer subscribes its table again and tells it, tables/live/redis_layer.py).

The change made while Redis is away is the table clock's (a turn's time running out, dealt by
``tables.clock.tick``): committed, and its announcement skipped."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.utils import timezone

from tables import clock
from tables.models import Table
from tables.write import lobby as lobby_flows
from tests.helpers.logs import AppLog
from tests.helpers.servers import RedisServer
from tests.tables.helpers import Phone
from tests.tables.helpers.driver import Driver, build

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

ROUNDS = 50


def _skipped(lines: AppLog, what: str) -> int:
    return len(lines.warnings(f"{what} skipped, the channel layer is away"))


async def _tick(table_id: int) -> int:
    """The clock fires the table's deadline (a turn timed out, the next deal...): committed,
    announced if Redis is there. The table's new version."""
    fired = await database_sync_to_async(clock.tick)(timezone.now() + timedelta(seconds=120))
    assert fired == 1
    return int(await database_sync_to_async(
        lambda: Table.objects.values_list("version", flat=True).get(pk=table_id)
    )())


async def _table(own_redis: RedisServer) -> tuple[Driver, list[str]]:
    """A table of two people and a computer, its phones closed: no phone of it in this
    process, so that the next one to join subscribes the table."""
    driver = await build([["Asha"], ["Bikash"]], lobby_flows.TableSettings(seat_count=3))
    await driver.close()
    return driver, [p.session.session_key for p in driver.persons]


def _layer_holds_nothing() -> None:
    """No table is held by the layer any more: none subscribed, none waiting to be."""
    layer = get_channel_layer()._get_layer()
    (shard,) = layer._shards
    assert layer.groups == {}
    assert [c for c in shard._subscribed_to if "__group__" in c] == []
    assert shard._unheard == set()


async def test_a_phone_joining_while_redis_is_away_is_drawn_the_table_when_it_is_back(
    own_redis: RedisServer, lines: AppLog,
) -> None:
    """Joined (its own channel and its group not subscribed: one line), then the table
    changes unannounced (one line); Redis back, the phone is drawn that version unasked."""
    driver, keys = await _table(own_redis)
    for _ in range(ROUNDS):
        own_redis.stop()
        phone = Phone(driver.table.code, keys[0])
        drawn = (await phone.connect()).version
        now = await _tick(driver.table.id)
        assert now == drawn + 1
        own_redis.start()
        assert (await phone.until_version(now, timeout=30)).version == now
        await phone.close()
    assert _skipped(lines, "joining") == ROUNDS
    assert _skipped(lines, "announcing table.changed") == ROUNDS
    assert lines.tracebacks() == []
    _layer_holds_nothing()
    await get_channel_layer().flush()


async def test_a_phone_leaving_while_redis_is_away_lets_go_and_the_next_one_hears(
    own_redis: RedisServer, lines: AppLog,
) -> None:
    """Redis stops under a joined phone, which leaves (at once, or once the layer has seen
    the connection go): it lets go, the layer keeps nothing of it; Redis back, the next
    phone to join hears the table's next change."""
    driver, keys = await _table(own_redis)
    layer = get_channel_layer()._get_layer()
    for round_ in range(ROUNDS):
        phone = Phone(driver.table.code, keys[round_ % 2])
        await phone.connect()
        own_redis.stop()
        (shard,) = layer._shards
        if round_ % 2:
            while not shard._lost:  # the layer has seen its subscriber connection go
                await asyncio.sleep(0.02)
        await phone.close()
        _layer_holds_nothing()
        own_redis.start()
    assert _skipped(lines, "leaving") <= ROUNDS
    phone = Phone(driver.table.code, keys[0])
    await phone.connect()
    now = await _tick(driver.table.id)
    assert (await phone.until_version(now, timeout=30)).version == now
    await phone.close()
    assert lines.tracebacks() == []
    await get_channel_layer().flush()


async def test_a_change_announced_while_redis_is_away_reaches_every_phone_when_it_is_back(
    own_redis: RedisServer, lines: AppLog,
) -> None:
    """Both phones joined; Redis stops, the clock changes the table (its announcement
    skipped: one line, the tick itself goes on); Redis back, both phones are drawn the
    version they never heard of, unasked."""
    driver, keys = await _table(own_redis)
    phones = [Phone(driver.table.code, key) for key in keys]
    for phone in phones:
        await phone.connect()
    for _ in range(ROUNDS):
        own_redis.stop()
        now = await _tick(driver.table.id)
        own_redis.start()
        for phone in phones:
            assert (await phone.until_version(now, timeout=30)).version == now
    assert _skipped(lines, "announcing table.changed") == ROUNDS
    assert lines.tracebacks() == []
    for phone in phones:
        await phone.close()
    await get_channel_layer().flush()
