"""A change caught by a failover of the database: made once more on a new connection, or
refused, never half made (``tables.write.path.apply_change`` calls ``once_more``).

When the PostgreSQL primary dies (or Patroni demotes it), the server processes' open
connections to it are cut, or, for a demoted primary that still answers, every write is
refused as ``read only``. A change whose transaction failed so before its COMMIT was sent is
known not to be saved (the transaction is gone with the connection), so it is made again from
the start on a new connection: libpq opens it on the server that takes writes now
(``config.database``: several hosts, ``target_session_attrs=read-write``). If that fails too
(the standby is not promoted yet), the callers are told the database is away
(``DATABASE_AWAY``, which the pages' error middleware, ``config.errors``, answers with
the app's 503 page): the phone shows "saving slowly" and may send the same tap
again (its action id counts it once).

A COMMIT that was sent and failed leaves the change saved or not, nobody here can tell:
``CommitUnknown``, never made again blindly; a phone's ``sync`` with the action id finds out.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TypeVar

from django.db import InterfaceError, InternalError, OperationalError, connection

from tables import metrics

T = TypeVar("T")
log = logging.getLogger(__name__)
# What Django raises when PostgreSQL does not answer (refused, shut down, a connection cut): an
# outage, not a bug. Other database errors (an integrity error...) stay errors.
DATABASE_AWAY = (OperationalError, InterfaceError)
READ_ONLY = "25006"  # PostgreSQL's read_only_sql_transaction: a standby, or a demoted primary


class CommitUnknown(OperationalError):
    """COMMIT was sent and failed: the change may be saved or not."""


def lost_connection(exc: BaseException) -> bool:
    """The connection cannot write (cut, refused, or on a server in recovery), and the change
    is known not to be saved."""
    if isinstance(exc, CommitUnknown):
        return False
    if isinstance(exc, OperationalError | InterfaceError):
        return True
    cause = exc.__cause__
    return isinstance(exc, InternalError) and getattr(cause, "sqlstate", "") == READ_ONLY


def away(exc: Exception) -> Exception:
    """The error as the callers know the database being away (an OperationalError)."""
    return exc if isinstance(exc, OperationalError | InterfaceError) else OperationalError(exc)


def commit_unknown() -> CommitUnknown:
    """What to raise when the connection went during COMMIT (it is closed: the next change
    opens a new one)."""
    connection.close()
    return CommitUnknown("the connection went during COMMIT: the change may be saved or not")


def once_more(table_id: int, attempt: Callable[[], T]) -> T:
    """``attempt()``; once more on a new connection if the first lost it before COMMIT."""
    try:
        return attempt()
    except Exception as exc:
        if not lost_connection(exc):
            raise
        if connection.in_atomic_block:  # the caller's transaction is lost too: it decides
            raise away(exc) from exc
        log.warning("table %s: the change is made again on a new connection (%s)", table_id,
                    type(exc).__name__)
        connection.close()
        metrics.write_retried()
    try:
        return attempt()
    except Exception as again:
        if lost_connection(again):
            connection.close()  # the next message opens a new one
            raise away(again) from again
        raise
