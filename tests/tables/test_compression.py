"""Compressed websocket frames (config/compression.py) on a real Daphne server, off the wire."""

from __future__ import annotations

import base64
import gzip
import json
import os
import re
import socket
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from autobahn.websocket.compress import (
    PerMessageBzip2Offer,
    PerMessageDeflateOffer,
)

from config import compression
from tests.tables.server import Browser, Server

DEFLATE_TAIL = b"\x00\x00\xff\xff"  # RFC 7692 7.2.2: the end of a message, left off the wire


class RawSocket:
    """A websocket client that shows each frame as it came over the wire."""

    def __init__(self, port: int, path: str, headers: dict[str, str], offer: str | None) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), 10)
        self.sock.settimeout(10)
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Upgrade: websocket",
            "Connection: Upgrade", f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13",
            *(f"{name}: {value}" for name, value in headers.items()),
        ]
        if offer:
            lines.append(f"Sec-WebSocket-Extensions: {offer}")
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            assert chunk, "the server closed during the handshake"
            head += chunk
        self.response = head.decode("latin1")
        assert self.response.startswith("HTTP/1.1 101"), self.response
        self.inflater = zlib.decompressobj(-15)
        self.payloads: list[bytes] = []  # each message as it came, compressed or not

    def _exactly(self, count: int) -> bytes:
        data = b""
        while len(data) < count:
            chunk = self.sock.recv(count - len(data))
            assert chunk, "the server closed the socket"
            data += chunk
        return data

    def next_frame(self) -> tuple[int, bool, bytes]:
        """The next frame as it came: its opcode, whether RSV1 (compressed) is set, payload."""
        first, second = self._exactly(2)
        assert first & 0x80, "a fragmented message"
        length = second & 0x7F
        if length == 126:
            length = struct.unpack("!H", self._exactly(2))[0]
        elif length == 127:
            length = struct.unpack("!Q", self._exactly(8))[0]
        return first & 0x0F, bool(first & 0x40), self._exactly(length)

    def frame(self) -> tuple[bool, int, str]:
        """The next message: whether it was compressed, its size on the wire, its text."""
        opcode, compressed, payload = self.next_frame()
        assert opcode == 0x1, f"opcode {opcode}"
        self.payloads.append(payload)
        if compressed:
            text = self.inflater.decompress(payload + DEFLATE_TAIL).decode()
        else:
            text = payload.decode()
        return compressed, len(payload), text

    def send_text(self, text: str, window_bits: int | None = None) -> None:
        """A text message, compressed as a browser does it when ``window_bits`` is given."""
        payload = text.encode()
        first = 0x81
        if window_bits is not None:
            deflater = zlib.compressobj(6, zlib.DEFLATED, -window_bits)
            payload = deflater.compress(payload) + deflater.flush(zlib.Z_SYNC_FLUSH)
            assert payload.endswith(DEFLATE_TAIL)
            payload, first = payload[:-4], first | 0x40  # RSV1: compressed
        mask = os.urandom(4)
        if len(payload) < 126:
            head = bytes([first, 0x80 | len(payload)])
        else:
            assert len(payload) < 65536
            head = bytes([first, 0x80 | 126]) + struct.pack("!H", len(payload))
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(head + mask + masked)

    def __enter__(self) -> RawSocket:
        return self

    def __exit__(self, *exc: object) -> None:
        self.sock.close()


def table_data(text: str) -> dict[str, object]:
    match = re.search(r'<script id="table-data"[^>]*>(.*?)</script>', text, re.S)
    assert match, text[:300]
    data: dict[str, object] = json.loads(match.group(1))
    return data


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("compression")
    db = tmp / "db.sqlite3"
    server = Server({
        "DATABASE_URL": f"sqlite:///{db}", "DEBUG": "true", "ALLOWED_HOSTS": "127.0.0.1",
        "TABLES_BOT_PAUSE": "0", "TABLES_NEXT_HAND_PAUSE": "0.3", "TABLES_CLOCK_INTERVAL": "0.05",
        "SERVER_LOG": str(Path(tmp) / "daphne.log"),
    })
    server.manage("migrate", "--noinput")
    server.start()
    yield server
    server.stop()


def new_table(server: Server) -> tuple[str, dict[str, str]]:
    """A fresh table against three computer players: its code and the person's headers."""
    browser = Browser(server.base)
    url, page = browser.post("/new/?mode=computer", {
        "mode": "computer", "name": "Asha", "seats": "4", "length": "chips",
        "blind_every": "10", "level": "easy", "turn_seconds": "60",
    })
    assert 'data-screen="play"' in page
    code = url.rstrip("/").split("/")[-1]
    return code, {"Origin": server.base, "Cookie": browser.cookie_header()}


def play_a_while(
    ws: RawSocket, frames: int, window_bits: int | None = None
) -> list[tuple[bool, int, str]]:
    """Read ``frames`` views, checking or folding whenever it is this phone's turn (never
    risking more than the blinds: the game goes on for as long as the test reads)."""
    seen: list[tuple[bool, int, str]] = []
    acted = 0
    while len(seen) < frames:
        compressed, size, text = ws.frame()
        seen.append((compressed, size, text))
        data = table_data(text)
        legal = data.get("legal")
        if isinstance(legal, dict):
            kind = "check" if legal["check"] else "fold"
            ws.send_text(json.dumps({
                "type": "action", "kind": kind, "version": data["version"],
                "action_id": os.urandom(8).hex(),  # a repeated id would be a double tap
            }), window_bits)
            acted += 1
    assert acted, "never had a turn"
    return seen


def test_a_phone_that_offers_deflate_gets_small_compressed_frames(
    server: Server,
) -> None:
    code, headers = new_table(server)
    with RawSocket(
        server.port, f"/ws/t/{code}/", headers, "permessage-deflate; client_max_window_bits"
    ) as ws:
        extensions = re.search(r"(?im)^sec-websocket-extensions: (.*)$", ws.response)
        assert extensions and extensions.group(1).startswith("permessage-deflate")
        # The phone is asked to compress its own messages with a small window, and does.
        assert "client_max_window_bits=10" in extensions.group(1)
        seen = play_a_while(ws, 30, window_bits=10)
    assert all(compressed for compressed, _, _ in seen)
    # Every frame inflates to a whole view of this table (the inflater kept its context).
    assert all(f'data-code="{code}"' in text for _, _, text in seen)
    wire = sum(size for _, size, _ in seen[1:])
    inflated = sum(len(text.encode()) for _, _, text in seen[1:])
    # Each frame is written against the one before it: a small fraction of its size.
    assert wire * 8 < inflated, (wire, inflated)


def test_a_phone_that_offers_nothing_gets_plain_frames(
    server: Server,
) -> None:
    code, headers = new_table(server)
    with RawSocket(server.port, f"/ws/t/{code}/", headers, None) as ws:
        assert "sec-websocket-extensions" not in ws.response.lower()
        seen = play_a_while(ws, 6)
    assert not any(compressed for compressed, _, _ in seen)
    assert all(size == len(text.encode()) for _, size, text in seen)


def test_a_phone_that_asks_for_no_context_takeover_gets_frames_that_stand_alone(
    server: Server,
) -> None:
    code, headers = new_table(server)
    offer = "permessage-deflate; server_no_context_takeover; server_max_window_bits=10"
    with RawSocket(server.port, f"/ws/t/{code}/", headers, offer) as ws:
        extensions = re.search(r"(?im)^sec-websocket-extensions: (.*)$", ws.response)
        assert extensions and "server_no_context_takeover" in extensions.group(1)
        assert "server_max_window_bits=10" in extensions.group(1)
        seen = play_a_while(ws, 6)
    assert all(compressed for compressed, _, _ in seen)
    for payload, (_, _, text) in zip(ws.payloads, seen, strict=True):
        # Each inflates alone, with no more history than the window the phone asked for
        # (a reference further back would fail: "invalid distance too far back").
        alone = zlib.decompressobj(-10).decompress(payload + DEFLATE_TAIL).decode()
        assert alone == text and f'data-code="{code}"' in alone


def test_accept_honours_what_the_phone_asks_and_ignores_other_offers() -> None:
    plain = PerMessageDeflateOffer(accept_max_window_bits=True)  # type: ignore[no-untyped-call]
    accepted = compression.accept_deflate([plain], 65536)
    assert accepted is not None
    assert accepted.window_bits == compression.WINDOW_BITS
    assert accepted.mem_level == compression.MEM_LEVEL
    assert accepted.no_context_takeover is None
    assert accepted.max_message_size == 65536
    assert accepted.request_max_window_bits == compression.CLIENT_WINDOW_BITS

    small = PerMessageDeflateOffer(  # type: ignore[no-untyped-call]
        accept_max_window_bits=False, request_no_context_takeover=True, request_max_window_bits=10
    )
    bzip2: Any = PerMessageBzip2Offer()  # type: ignore[no-untyped-call]
    accepted = compression.accept_deflate([bzip2, small], 4096)
    assert accepted is not None and accepted.offer is small
    assert accepted.window_bits == 10 and accepted.no_context_takeover is True
    assert accepted.request_max_window_bits == 0  # this phone did not allow choosing

    assert compression.accept_deflate([bzip2], 4096) is None
    assert compression.accept_deflate([], 4096) is None


@pytest.mark.django_db
def test_pages_are_gzipped_for_browsers_that_accept_it() -> None:
    from django.test import Client
    from django.urls import reverse

    from tests.tables.helpers import create_form

    asha = Client()
    response = asha.post(reverse("tables:create"), create_form("friends"))
    assert response.status_code == 302
    page_url = response["Location"]
    plain = asha.get(page_url)
    assert "Content-Encoding" not in plain
    zipped = asha.get(page_url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert zipped["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped["Vary"]
    # The same page (its CSRF token is masked anew for every response)...
    unzipped = gzip.decompress(zipped.content).decode()
    strip = re.compile(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')
    assert strip.sub("", unzipped) == strip.sub("", plain.content.decode())
    # ...in a fraction of the bytes.
    assert len(zipped.content) * 3 < len(plain.content)


def test_a_compressed_message_too_long_once_inflated_is_refused_like_a_plain_one(
    server: Server,
) -> None:
    """Inflated past the app's limit (TABLES_MAX_MESSAGE), a compressed message gets the same
    readable refusal as a plain one; inflating past 64 KB, the socket is closed before the
    message is built (a few hundred bytes that would inflate to a megabyte). Either way the
    table is untouched and the phone comes back to it."""
    code, headers = new_table(server)
    offer = "permessage-deflate; client_max_window_bits"
    with RawSocket(server.port, f"/ws/t/{code}/", headers, offer) as ws:
        # On this phone's turn the table waits for it: nothing else changes the version.
        data = table_data(ws.frame()[2])
        while not data.get("legal"):
            data = table_data(ws.frame()[2])
        version = data["version"]
        long = json.dumps({"type": "sync", "pad": " " * 10_000})
        ws.send_text(long, window_bits=10)
        _, _, notice = ws.frame()
        assert 'data-code="too_big"' in notice and "too long" in notice
        ws.send_text(json.dumps({"type": "sync"}), window_bits=10)  # still served
        assert table_data(ws.frame()[2])["version"] == version

    with RawSocket(server.port, f"/ws/t/{code}/", headers, offer) as ws:
        assert table_data(ws.frame()[2])["version"] == version
        bomb = json.dumps({"type": "sync", "pad": " " * 1_000_000})
        ws.send_text(bomb, window_bits=10)
        closed_with = None
        try:
            while True:  # views may still come before the close
                opcode, _, payload = ws.next_frame()
                if opcode == 0x8:
                    closed_with = struct.unpack("!H", payload[:2])[0]
                    break
        except (ConnectionResetError, AssertionError):
            pass  # dropped right after the close frame: the kernel may discard it (a reset)
        assert closed_with in (None, 1009)  # 1009: "message too big"
        with pytest.raises((ConnectionResetError, AssertionError, BrokenPipeError)):
            ws.frame()  # nothing more: the socket is closed

    with RawSocket(server.port, f"/ws/t/{code}/", headers, offer) as ws:
        assert table_data(ws.frame()[2])["version"] == version
