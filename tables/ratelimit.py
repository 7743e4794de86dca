"""Failed join attempts (codes that match no table), limited per client per minute; and the
same count for other attempts (``too_many`` / ``record``: asking for a late seat).

A client is both its IP address and its session: a new session does not buy new tries, and
friends behind one router only share the count of wrong codes. Stored in the database so every
server process counts the same attempts.

The address is the one the connection came from; behind the proxy (``BEHIND_PROXY``), the one
nginx itself saw, which it sends as ``X-Real-IP`` (deploy/nginx/holdem.conf sets it, replacing
any the client sent). ``X-Forwarded-For`` is never read: its leftmost entry is whatever the client
wrote, so a made-up one per request would escape the limit, or lock someone else out. Daphne
is started with ``--proxy-headers-host X-Real-IP`` (deploy/systemd/holdem@.service), so its
logs, ``REMOTE_ADDR`` and the websocket's ``scope["client"]`` hold the same address.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from tables.models import FailedJoin

WINDOW = timedelta(minutes=1)


def client_address(peer: str | None, real_ip: str | None) -> str | None:
    """The address a client is counted by: the peer's, or behind the proxy the one the proxy
    saw (its ``X-Real-IP``; the peer when the header is missing)."""
    if settings.BEHIND_PROXY and real_ip and real_ip.strip():
        return real_ip.strip()
    return peer


def request_address(meta: dict[str, Any]) -> str | None:
    """A page request's address (``request.META``)."""
    return client_address(meta.get("REMOTE_ADDR"), meta.get("HTTP_X_REAL_IP"))


def scope_address(scope: dict[str, Any]) -> str | None:
    """A websocket's address (its ASGI scope): the same one as its pages'."""
    client = scope.get("client") or (None, None)
    headers: Iterable[tuple[bytes, bytes]] = scope.get("headers") or ()
    real = next((value for name, value in headers if name.lower() == b"x-real-ip"), None)
    return client_address(client[0], real.decode("latin1") if real is not None else None)


def client_keys(ip: str | None, session_key: str | None) -> list[str]:
    keys = []
    if ip:
        keys.append(hashlib.sha256(f"ip:{ip}".encode()).hexdigest())
    if session_key:
        keys.append(hashlib.sha256(f"session:{session_key}".encode()).hexdigest())
    return keys


def is_limited(keys: list[str]) -> bool:
    since = timezone.now() - WINDOW
    limit = settings.TABLES_JOIN_FAILURES_PER_MINUTE
    return any(
        FailedJoin.objects.filter(client=key, at__gte=since).count() >= limit for key in keys
    )


def record_failure(keys: list[str]) -> None:
    now = timezone.now()
    FailedJoin.objects.bulk_create([FailedJoin(client=key, at=now) for key in keys])
    FailedJoin.objects.filter(at__lt=now - 60 * WINDOW).delete()


def _of_kind(kind: str, keys: list[str]) -> list[str]:
    """The keys of one kind of attempt: counted apart from failed joins and from each other."""
    return [hashlib.sha256(f"{kind}:{key}".encode()).hexdigest() for key in keys]


def too_many(kind: str, keys: list[str], limit: int) -> bool:
    """Whether any of the client's keys made ``limit`` attempts of ``kind`` in the last minute."""
    since = timezone.now() - WINDOW
    return any(
        FailedJoin.objects.filter(client=key, at__gte=since).count() >= limit
        for key in _of_kind(kind, keys)
    )


def record(kind: str, keys: list[str]) -> None:
    """One attempt of ``kind`` by the client (kept an hour, as failed joins are)."""
    record_failure(_of_kind(kind, keys))
