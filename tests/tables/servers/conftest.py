"""Fixtures of the tests with real servers: a redis-server of the test's own as the channel
layer, and the app's log on record."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from config.channel_layers import channel_layers
from tests.helpers.logs import AppLog, app_log
from tests.helpers.servers import RedisServer


@pytest.fixture
def own_redis(settings: Any, tmp_path: Path) -> Iterator[RedisServer]:
    """A redis-server of the test's own as the channel layer, for the test to stop and start;
    stopped however the test ends."""
    redis = RedisServer(tmp_path)
    redis.start()
    try:
        settings.CHANNEL_LAYERS = channel_layers(redis.url, prefix="own")
        yield redis
    finally:
        redis.stop()


@pytest.fixture
def lines() -> Iterator[AppLog]:
    """Every log record of the app, warnings and tracebacks above all."""
    with app_log() as log:
        yield log
