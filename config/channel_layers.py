"""The channel layer for a ``REDIS_URL`` (empty: the in-memory layer of one process). Shared by
the app's settings and the load benchmark's relay, which must run on the same layer.

``REDIS_URL`` may name several Redis servers separated by commas
(``redis://10.0.0.5:6379/0,redis://10.0.0.6:6379/0``): channels-redis then spreads the groups
(one per table) and the connections' own channels over them by a hash of the name
(CRC32, ``channels_redis.utils._consistent_hash``), so each table's messages go through one
server and the servers share the tables. Every server process must list the same servers in
the same order, or two processes would look for a table on different servers.

``REDIS_PREFIX`` (default ``asgi``, channels-redis's own) names this deployment's channels on
the Redis server: pub/sub channels ignore Redis's database number, so two deployments (or two
test runs) sharing one server must differ in prefix or they hear each other's tables."""

from __future__ import annotations

import os
from typing import Any

SCHEMES = ("redis://", "rediss://", "unix://")


def redis_hosts(redis_url: str) -> list[str]:
    """The servers a ``REDIS_URL`` names, in order (commas between them; spaces ignored).
    Raises ValueError for an address that is not a Redis URL or a server named twice."""
    hosts = [part.strip() for part in redis_url.split(",") if part.strip()]
    for host in hosts:
        if not host.startswith(SCHEMES):
            raise ValueError(f"{host!r} does not start with redis://, rediss:// or unix://")
    if len(set(hosts)) != len(hosts):
        raise ValueError("a Redis server is named twice")
    return hosts


def channel_layers(redis_url: str, prefix: str | None = None) -> dict[str, Any]:
    hosts = redis_hosts(redis_url)
    if hosts:
        return {
            "default": {
                "BACKEND": "tables.live.redis_layer.RedisPubSubLayer",
                "CONFIG": {
                    "hosts": hosts,
                    "prefix": prefix or os.environ.get("REDIS_PREFIX") or "asgi",
                },
            }
        }
    return {"default": {"BACKEND": "tables.live.layers.LocalChannelLayer"}}
