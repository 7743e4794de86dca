"""Sending Web Push messages: each encrypted for its subscription (RFC 8291, aes128gcm) and
signed with the server's VAPID key (RFC 8292) by pywebpush, on a few threads of their own so
that no page, socket or table waits for a push service. A subscription its push service says
is gone (404, 410) is deleted; any other failure is logged and forgotten (a notification is a
courtesy: the table goes on without it).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import close_old_connections
from pywebpush import WebPushException, webpush

from tables.models import PushSubscription

log = logging.getLogger("tables.write")

GONE = (404, 410)
TIMEOUT = 10.0  # seconds for one push service's answer
_pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="push")


@dataclass(frozen=True)
class Job:
    subscription: int
    endpoint: str
    p256dh: str
    auth: str
    payload: dict[str, str]
    ttl: int
    urgency: str


def later(work: Callable[..., None], *args: Any) -> None:
    """``work(*args)`` on the push threads (``PUSH_IN_BACKGROUND`` off: now, in this thread);
    whatever it raises is logged, never raised to the caller."""
    if settings.PUSH_IN_BACKGROUND:
        _pool.submit(_in_thread, work, *args)
    else:
        _guarded(work, *args)


def _guarded(work: Callable[..., None], *args: Any) -> None:
    try:
        work(*args)
    except Exception:
        log.exception("push: %s failed", getattr(work, "__name__", "sending"))


def _in_thread(work: Callable[..., None], *args: Any) -> None:
    try:
        _guarded(work, *args)
    finally:
        close_old_connections()


def send_later(jobs: list[Job]) -> None:
    """Send ``jobs`` on the push threads."""
    later(deliver, jobs)


def deliver(jobs: list[Job]) -> None:
    for job in jobs:
        status = send(job)
        if status in GONE:
            PushSubscription.objects.filter(pk=job.subscription).delete()
            log.info("push: subscription %s gone (%s), deleted", job.subscription, status)


def send(job: Job) -> int:
    """POST one message to its push service; the status it answered (0: no answer)."""
    try:
        response = webpush(
            {"endpoint": job.endpoint, "keys": {"p256dh": job.p256dh, "auth": job.auth}},
            data=json.dumps(job.payload), vapid_private_key=settings.VAPID_PRIVATE_KEY,
            vapid_claims={"sub": settings.VAPID_SUBJECT}, ttl=job.ttl, timeout=TIMEOUT,
            headers={"Urgency": job.urgency},
        )
    except WebPushException as exc:
        status = exc.response.status_code if exc.response is not None else 0
        if status not in GONE:
            log.warning("push: subscription %s refused (%s)", job.subscription, status or exc)
        return int(status)
    except Exception as exc:  # a push service away, a bad address: logged, nothing else
        log.warning("push: subscription %s not reached (%s)", job.subscription,
                    type(exc).__name__)
        return 0
    return int(getattr(response, "status_code", 201))
