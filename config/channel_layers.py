"""The channel layer for a ``REDIS_URL`` (empty: the in-memory layer of one process). Shared by
the app's settings and the load benchmark's relay, which must run on the same layer."""

from __future__ import annotations

from typing import Any


def channel_layers(redis_url: str) -> dict[str, Any]:
    if redis_url:
        return {
            "default": {
                "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                "CONFIG": {"hosts": [redis_url]},
            }
        }
    return {"default": {"BACKEND": "tables.live.layers.LocalChannelLayer"}}
