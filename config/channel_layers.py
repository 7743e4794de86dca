"""The channel layer for a ``REDIS_URL`` (empty: the in-memory layer of one process). Shared by
the app's settings and the load benchmark's relay, which must run on the same layer.

``REDIS_URL`` may name several Redis servers separated by commas
(``redis://10.0.0.5:6379/0,redis://10.0.0.6:6379/0``): channels-redis then spreads the groups
(one per table) and the connections' own channels over them by a hash of the name
(CRC32, ``channels_redis.utils._consistent_hash``), so each table's messages go through one
server and the servers share the tables. Every server process must list the same servers in
the same order, or two processes would look for a table on different servers.

Through Redis Sentinel instead (a master with a replica, watched by three Sentinels that
promote the replica when the master dies: ``deploy/redis/``): ``REDIS_SENTINELS`` names the
Sentinels (``10.0.0.5:26379,10.0.0.6:26379,10.0.0.7:26379``) and ``REDIS_MASTER_NAME`` the
master they watch (default ``holdem``; several names separated by commas share the tables as
several servers do), ``REDIS_DB`` its database number (default 0) and ``REDIS_PASSWORD`` the
password of the masters and the Sentinels, if they have one. ``REDIS_URL`` is then left empty.
Each connection asks the Sentinels where the master is whenever it connects, so after a
promotion the layer reconnects to the new master by itself (``tables.live.redis_layer``).

``REDIS_PREFIX`` (default ``asgi``, channels-redis's own) names this deployment's channels on
the Redis server: pub/sub channels ignore Redis's database number, so two deployments (or two
test runs) sharing one server must differ in prefix or they hear each other's tables."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

SCHEMES = ("redis://", "rediss://", "unix://")
DEFAULT_MASTER_NAME = "holdem"
# Seconds: how long a connection waits for a master or a Sentinel whose machine does not answer
# (redis-py's default is to wait for ever) before trying the next Sentinel or giving up.
SENTINEL_CONNECT_SECONDS = 0.5
MASTER_CONNECT_SECONDS = 1.0
# Seconds: how long a command waits for the master's reply (a publish to a master whose
# machine vanished would otherwise wait for ever; the subscriber's reads have their own).
MASTER_REPLY_SECONDS = 2.0


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


def sentinel_addresses(sentinels: str) -> list[tuple[str, int]]:
    """The Sentinels a ``REDIS_SENTINELS`` names (``host:port`` separated by commas, spaces
    ignored). Raises ValueError for an address without a port or one named twice."""
    found: list[tuple[str, int]] = []
    for part in (p.strip() for p in sentinels.split(",")):
        if not part:
            continue
        host, colon, port = part.rpartition(":")
        if not colon or not host or not port.isdigit():
            raise ValueError(f"{part!r} is not host:port")
        found.append((host.strip("[]"), int(port)))
    if len(set(found)) != len(found):
        raise ValueError("a Sentinel is named twice")
    return found


def sentinel_hosts(
    sentinels: str, master_names: str = DEFAULT_MASTER_NAME, db: int = 0,
    password: str | None = None,
) -> list[dict[str, Any]]:
    """channels-redis's hosts for masters found through Sentinels: one per master name."""
    addresses = sentinel_addresses(sentinels)
    names = [name.strip() for name in master_names.split(",") if name.strip()]
    if not addresses:
        return []
    if not names:
        raise ValueError("no master name")
    if len(set(names)) != len(names):
        raise ValueError("a master is named twice")
    asking: dict[str, Any] = {
        "socket_connect_timeout": SENTINEL_CONNECT_SECONDS,
        "socket_timeout": SENTINEL_CONNECT_SECONDS,
    }
    if password:
        asking["password"] = password
    hosts: list[dict[str, Any]] = []
    for name in names:
        host: dict[str, Any] = {
            "sentinels": addresses, "master_name": name, "db": db,
            "socket_connect_timeout": MASTER_CONNECT_SECONDS,
            "socket_timeout": MASTER_REPLY_SECONDS, "sentinel_kwargs": dict(asking),
        }
        if password:
            host["password"] = password
        hosts.append(host)
    return hosts


def channel_layers(
    redis_url: str, prefix: str | None = None, sentinels: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The layer for ``redis_url``'s servers, or for the masters ``sentinels`` names
    (``sentinel_hosts``); neither: the in-memory layer of one process."""
    hosts: list[Any] = list(sentinels or []) or redis_hosts(redis_url)
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


def from_environment(environ: Mapping[str, str]) -> dict[str, Any]:
    """``CHANNEL_LAYERS`` for the variables above. Raises ValueError naming the variable that
    is wrong."""
    redis_url = environ.get("REDIS_URL", "")
    try:
        redis_hosts(redis_url)
    except ValueError as error:
        raise ValueError(
            f"REDIS_URL must start with redis://, rediss:// or unix:// (several servers: "
            f"separated by commas): {error}"
        ) from None
    sentinels = environ.get("REDIS_SENTINELS", "")
    if not sentinels.strip():
        return channel_layers(redis_url)
    if redis_url.strip():
        raise ValueError("REDIS_URL and REDIS_SENTINELS: set one of them, not both")
    db = environ.get("REDIS_DB", "0") or "0"
    if not db.isdigit():
        raise ValueError(f"REDIS_DB must be a number: {db!r}")
    try:
        hosts = sentinel_hosts(
            sentinels, environ.get("REDIS_MASTER_NAME", "") or DEFAULT_MASTER_NAME, int(db),
            environ.get("REDIS_PASSWORD") or None,
        )
    except ValueError as error:
        raise ValueError(
            f"REDIS_SENTINELS must be host:port separated by commas, and REDIS_MASTER_NAME "
            f"names separated by commas: {error}"
        ) from None
    return channel_layers("", sentinels=hosts)
