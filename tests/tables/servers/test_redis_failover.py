"""The Redis master killed (SIGKILL) or frozen (SIGSTOP: a machine gone without a word) under
phones at a table, the channel layer finding its master through three Sentinels
(``REDIS_SENTINELS``; tests/helpers/sentinel_redis.py): the Sentinels promote the replica, the
layer reconnects to it by itself, and every phone is drawn the change it missed meanwhile
without asking; later changes reach them as before. How soon after the promotion (goal: 3 s) is
measured by ``benchmarks/redis_failover.py``; here the states are waited for, and the time is
printed."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.test import Client
from django.utils import timezone

from config.channel_layers import channel_layers, sentinel_hosts
from tables import clock
from tables.models import Table
from tables.write import lobby as lobby_flows
from tests.helpers.logs import AppLog
from tests.helpers.sentinel_redis import MASTER_NAME, SentinelRedis
from tests.tables.helpers import Phone
from tests.tables.helpers.driver import build

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def failing_over(settings: Any, tmp_path: Path) -> Iterator[SentinelRedis]:
    redis = SentinelRedis(tmp_path)
    redis.start()
    try:
        settings.CHANNEL_LAYERS = channel_layers(
            "", prefix="failover", sentinels=sentinel_hosts(redis.sentinels, MASTER_NAME)
        )
        yield redis
    finally:
        redis.stop()


async def _tick(table_id: int) -> int:
    """The table clock fires the table's deadline; the table's new version."""
    fired = await database_sync_to_async(clock.tick)(timezone.now() + timedelta(seconds=120))
    assert fired == 1
    return int(await database_sync_to_async(
        lambda: Table.objects.values_list("version", flat=True).get(pk=table_id)
    )())


@pytest.mark.parametrize("death", ["killed", "frozen"])
async def test_the_master_dead_the_replica_promoted_every_phone_is_drawn_what_it_missed(
    failing_over: SentinelRedis, lines: AppLog, death: str,
) -> None:
    driver = await build([["Asha"], ["Bikash"]], lobby_flows.TableSettings(seat_count=3),
                         watchers=1)
    phones = driver.phones
    assert (await database_sync_to_async(Client().get)("/healthz")).status_code == 200
    kill = failing_over.kill_master if death == "killed" else failing_over.freeze_master
    old = await asyncio.to_thread(kill)
    missed = await _tick(driver.table.id)  # committed, its announcement skipped
    promoted, _named, new = await asyncio.to_thread(failing_over.promoted, old)
    assert new != old
    for phone in phones:  # drawn the missed change, unasked (no ping)
        assert (await phone.until_version(missed, timeout=30)).version == missed
    print(f"\nevery phone current {time.monotonic() - promoted:.2f} s after the promotion")

    later = await _tick(driver.table.id)  # announced through the new master
    for phone in phones:
        assert (await phone.until_version(later, timeout=30)).version == later
    newcomer = Phone(driver.table.code, driver.persons[0].session.session_key)
    assert (await newcomer.connect()).version == later
    latest = await _tick(driver.table.id)
    assert (await newcomer.until_version(latest, timeout=30)).version == latest
    # /healthz asks the new master through the Sentinels.
    assert (await database_sync_to_async(Client().get)("/healthz")).status_code == 200
    assert lines.tracebacks() == []
    for phone in [*phones, newcomer]:
        await phone.close()
    await get_channel_layer().flush()
