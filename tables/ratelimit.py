"""Failed join attempts (codes that match no table), limited per client per minute; and the
same count for other attempts (``too_many`` / ``record``: asking for a late seat).

A client is both its IP address and its session: a new session does not buy new tries, and
friends behind one router only share the count of wrong codes. Stored in the database so every
server process counts the same attempts.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from tables.models import FailedJoin

WINDOW = timedelta(minutes=1)


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
