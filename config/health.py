"""Operators' endpoints: /healthz for load balancers and monitors, /metrics for Prometheus.

/healthz answers 200 "ok" when the database and the channel layer both answer within a second,
503 otherwise; the body never says which or why (anyone may ask). With several Redis servers
(``REDIS_URL`` with commas) every one of them must answer: each carries its share of the tables.

/metrics (tables.metrics, this process's figures) answers only to the machine itself (a
request from a loopback address that no proxy passed on) or to a request carrying
``Authorization: Bearer <METRICS_TOKEN>``; everyone else gets 404.
"""

from __future__ import annotations

import asyncio
import functools
import hmac
import ipaddress
import itertools

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseNotFound
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

HEALTH_TIMEOUT = 1.0  # seconds for both answers together


def _database_answers() -> None:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    finally:
        connection.close()  # a thread of its own: nothing to keep


@functools.cache
def probe_groups(servers: int, prefix: str) -> tuple[str, ...]:
    """One group name per Redis server, each one that channels-redis places on that server (it
    picks a server by a hash of ``<prefix>__group__<name>``): a message to each reaches every
    server. One server (or the in-memory layer): just "healthz"."""
    if servers <= 1:
        return ("healthz",)
    from channels_redis.utils import _consistent_hash  # the layer's own placement

    found: dict[int, str] = {}
    for number in itertools.count():
        name = f"healthz.{number}"
        found.setdefault(_consistent_hash(f"{prefix}__group__{name}", servers), name)
        if len(found) == servers:
            return tuple(found[shard] for shard in range(servers))
    raise AssertionError("unreachable")


async def _layer_answers() -> None:
    layer = get_channel_layer()
    assert layer is not None
    config = settings.CHANNEL_LAYERS["default"].get("CONFIG", {})
    groups = probe_groups(len(config.get("hosts", ())), config.get("prefix", "asgi"))
    # A message to a group nobody is in: a round trip to each Redis server (in memory: none).
    await asyncio.gather(*(layer.group_send(name, {"type": "healthz"}) for name in groups))


async def _all_answer() -> None:
    # Not the thread the write path's database work queues on: a busy table never makes the
    # server look down, and a stuck database never blocks it.
    database = sync_to_async(_database_answers, thread_sensitive=False)()
    await asyncio.gather(database, _layer_answers())


@never_cache
@require_safe
async def healthz(request: HttpRequest) -> HttpResponse:
    try:
        await asyncio.wait_for(_all_answer(), HEALTH_TIMEOUT)
    except Exception:  # any failure or the timeout: down, and no details for the asker
        return HttpResponse("unavailable\n", status=503, content_type="text/plain")
    return HttpResponse("ok\n", content_type="text/plain")


def _from_this_machine(request: HttpRequest) -> bool:
    if "HTTP_X_FORWARDED_FOR" in request.META or "HTTP_X_REAL_IP" in request.META:
        return False  # passed on by a proxy: whoever asked is elsewhere
    try:
        return ipaddress.ip_address(request.META.get("REMOTE_ADDR", "")).is_loopback
    except ValueError:
        return False


def _has_token(request: HttpRequest) -> bool:
    token = settings.METRICS_TOKEN
    given = request.headers.get("Authorization", "")
    return bool(token) and hmac.compare_digest(given.encode(), f"Bearer {token}".encode())


@never_cache
@require_safe
def metrics(request: HttpRequest) -> HttpResponse:
    if not (_has_token(request) or _from_this_machine(request)):
        return HttpResponseNotFound()
    return HttpResponse(generate_latest(), content_type=CONTENT_TYPE_LATEST)
