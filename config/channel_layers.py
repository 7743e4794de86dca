"""The channel layer for a ``REDIS_URL`` (empty: the in-memory layer of one process). Shared by
the app's settings and the load benchmark's relay, which must run on the same layer.

``REDIS_PREFIX`` (default ``asgi``, channels-redis's own) names this deployment's channels on
the Redis server: pub/sub channels ignore Redis's database number, so two deployments (or two
test runs) sharing one server must differ in prefix or they hear each other's tables."""

from __future__ import annotations

import os
from typing import Any


def channel_layers(redis_url: str, prefix: str | None = None) -> dict[str, Any]:
    if redis_url:
        return {
            "default": {
                "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                "CONFIG": {
                    "hosts": [redis_url],
                    "prefix": prefix or os.environ.get("REDIS_PREFIX") or "asgi",
                },
            }
        }
    return {"default": {"BACKEND": "tables.live.layers.LocalChannelLayer"}}
