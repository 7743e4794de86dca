"""config.writes: a TCP connection's write goes to its socket at once when nothing waits before
it, and through Twisted's buffer (in order, behind what waits) otherwise. Real sockets."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest
from twisted.internet import tcp

from config import writes
from tests.helpers.servers import Browser, Server, sqlite_server


class Watched(tcp.Connection):
    """A TCP connection on one end of a socket pair, without a reactor: what it asks of the
    event loop is recorded instead."""

    def __init__(self, sock: socket.socket) -> None:  # (the reactor's parts left out)
        self.socket = sock
        self.connected = 1
        self.disconnecting = 0
        self._writeDisconnected = False
        self.producer = None
        self.dataBuffer = b""
        self.offset = 0
        self._tempDataBuffer: list[bytes] = []
        self._tempDataLen = 0
        self.asked: list[str] = []

    def startWriting(self) -> None:
        self.asked.append("write")


@pytest.fixture
def pair() -> Iterator[tuple[Watched, socket.socket]]:
    ours, theirs = socket.socketpair()
    ours.setblocking(False)
    theirs.setblocking(False)
    yield Watched(ours), theirs
    ours.close()
    theirs.close()


def write(connection: Watched, data: object) -> None:
    """The connection's ``write``, as Daphne's protocols call it (patched by ``install``)."""
    writer: Any = connection
    writer.write(data)


def received(sock: socket.socket) -> bytes:
    out = b""
    while True:
        try:
            chunk = sock.recv(1 << 20)
        except BlockingIOError:
            return out
        if not chunk:
            return out
        out += chunk


def test_a_frame_goes_to_the_socket_at_once(pair: tuple[Watched, socket.socket]) -> None:
    writes.install()
    connection, phone = pair
    write(connection, b"a frame")
    assert received(phone) == b"a frame"
    assert connection.asked == [] and connection._tempDataBuffer == []


def test_what_the_socket_does_not_take_waits_in_order(
    pair: tuple[Watched, socket.socket],
) -> None:
    writes.install()
    connection, phone = pair
    big = bytes(range(256)) * 20_000  # 5 MB: more than a socket pair's buffers take
    write(connection, big)
    assert connection.asked == ["write"]  # the rest waits for the loop, as Twisted's own
    waiting = b"".join(connection._tempDataBuffer)
    assert 0 < len(waiting) < len(big) and big.endswith(waiting)
    write(connection, b"after")  # behind what waits, never before it
    assert connection._tempDataBuffer[-1] == b"after"
    assert big.startswith(received(phone))


@pytest.mark.parametrize("state", ["buffered", "closing", "producer", "lost"])
def test_twisted_s_own_write_when_anything_is_in_the_way(
    pair: tuple[Watched, socket.socket], state: str,
) -> None:
    connection, phone = pair
    if state == "buffered":
        connection.dataBuffer, connection.offset = b"earlier", 2
    elif state == "closing":
        connection.disconnecting = 1
    elif state == "producer":
        setattr(connection, "producer", object())  # noqa: B010 (any producer will do)
    else:
        phone.close()  # the phone is gone: the send fails, Twisted's write finds out
    # All of it is left to Twisted's own write (the socket pair's other end closed: EPIPE).
    assert writes.write_at_once(connection, b"frame") == b"frame"
    if state != "lost":
        assert received(phone) == b""


def test_not_bytes_is_refused_as_twisted_refuses_it(
    pair: tuple[Watched, socket.socket],
) -> None:
    writes.install()
    connection, _ = pair
    with pytest.raises(TypeError):
        write(connection, "text")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with sqlite_server(tmp_path_factory.mktemp("writes")) as server:
        yield server


def test_pages_are_served_whole_by_a_server_that_writes_at_once(server: Server) -> None:
    browser = Browser(server.base)
    for _ in range(3):
        _, page = browser.get("/")
        assert page.rstrip().endswith("</html>"), page[-200:]
