"""A frame written to its socket at once, when nothing waits to be written before it.

Twisted buffers every write and asks the event loop to say when the socket can take it: for
each frame a phone is sent, a writer is added to the loop (a system call), the loop goes round,
calls back through Twisted's logging context, writes, and removes the writer (another system
call). A phone's socket nearly always has room (a frame is a few hundred bytes), so ``install``
(called from ``config.asgi`` under Daphne) makes a TCP connection try the socket first: what it
takes is written there and then; whatever it does not take (a full socket buffer: a slow phone)
goes through Twisted's own buffer exactly as before, behind nothing, so the bytes keep their
order. The same when anything is buffered already, a producer is registered, the connection
is closing, or the socket answers with an error (Twisted's own write then meets the error and
closes the connection its usual way).
"""

from __future__ import annotations

from typing import Any


def write_at_once(connection: Any, data: bytes) -> bytes:
    """Send what ``connection``'s socket takes of ``data`` now, if nothing is waiting in
    Twisted's buffers; what is left to write through Twisted (all of it when it cannot be
    sent now)."""
    if (
        type(data) is not bytes
        or not data
        or not connection.connected
        or connection.disconnecting
        or connection._writeDisconnected
        or connection.producer is not None
        or connection._tempDataBuffer
        or connection.offset != len(connection.dataBuffer)
    ):
        return data
    try:
        sent = connection.socket.send(data)
    except OSError:  # would block, or failing: Twisted's own write finds out and handles it
        return data
    return data[sent:]


def install() -> None:
    """Make Twisted's TCP connections write at once when they can (idempotent)."""
    from twisted.internet import tcp

    connection: Any = tcp.Connection
    if getattr(connection, "writes_at_once", False):
        return
    buffered = connection.write

    def write(self: Any, data: bytes) -> None:
        rest = write_at_once(self, data)
        if rest or type(rest) is not bytes:  # (not bytes: Twisted refuses it as before)
            buffered(self, rest)

    connection.write = write
    connection.writes_at_once = True
