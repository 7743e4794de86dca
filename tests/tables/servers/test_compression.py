"""Compressed websocket frames (config/compression.py) on a real Daphne server, off the wire."""

from __future__ import annotations

import gzip
import json
import os
import re
import struct
import zlib
from collections.abc import Iterator
from typing import Any

import pytest
from autobahn.websocket.compress import (
    PerMessageBzip2Offer,
    PerMessageDeflateOffer,
)

from config import compression
from tables.live.kept import whole
from tests.helpers.servers import DEFLATE_TAIL, RawSocket, Server, new_table, sqlite_server


def table_data(text: str) -> dict[str, object]:
    match = re.search(r'<script id="table-data"[^>]*>(.*?)</script>', text, re.S)
    assert match, text[:300]
    data: dict[str, object] = json.loads(match.group(1))
    return data


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with sqlite_server(
        tmp_path_factory.mktemp("compression"), TABLES_BOT_PAUSE="0",
        TABLES_NEXT_HAND_PAUSE="0.3", TABLES_CLOCK_INTERVAL="0.05",
    ) as server:
        yield server


def play_a_while(
    ws: RawSocket, frames: int, window_bits: int | None = None
) -> list[tuple[bool, int, str]]:
    """Read ``frames`` views at least, and on until this phone has had a turn, checking or
    folding whenever it is its turn (never risking more than the blinds: the game goes on for
    as long as the test reads)."""
    seen: list[tuple[bool, int, str]] = []
    acted = 0
    while len(seen) < frames or (not acted and len(seen) < 20 * frames):
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
    code, headers, _page = new_table(server)
    with RawSocket(  # as live.js asks: the page keeps the frame's parts (tables.live.kept)
        server.port, f"/ws/t/{code}/?parts=1", headers,
        "permessage-deflate; client_max_window_bits",
    ) as ws:
        extensions = re.search(r"(?im)^sec-websocket-extensions: (.*)$", ws.response)
        assert extensions and extensions.group(1).startswith("permessage-deflate")
        # The phone is asked to compress its own messages with a small window, and does.
        assert "client_max_window_bits=10" in extensions.group(1)
        seen = play_a_while(ws, 30, window_bits=10)
    assert all(compressed for compressed, _, _ in seen)
    # Every frame inflates (the inflater kept its context) and is made whole from the parts
    # kept: a whole view of this table.
    held: dict[str, str] = {}
    views = [whole(text, held) for _, _, text in seen]
    assert all(view is not None and f'data-code="{code}"' in view for view in views)
    assert all(view is not None and "<x-" not in view for view in views)
    wire = sum(size for _, size, _ in seen[1:])
    drawn = sum(len(view.encode()) for view in views[1:] if view is not None)
    # A part that did not change is not sent, and each frame is written against the ones
    # before it: a small fraction of the views' size.
    assert wire * 8 < drawn, (wire, drawn)


def test_a_phone_that_offers_nothing_gets_plain_frames(
    server: Server,
) -> None:
    code, headers, _page = new_table(server)
    with RawSocket(server.port, f"/ws/t/{code}/", headers, None) as ws:
        assert "sec-websocket-extensions" not in ws.response.lower()
        seen = play_a_while(ws, 6)
    assert not any(compressed for compressed, _, _ in seen)
    assert all(size == len(text.encode()) for _, size, text in seen)


def test_a_phone_that_asks_for_no_context_takeover_gets_frames_that_stand_alone(
    server: Server,
) -> None:
    code, headers, _page = new_table(server)
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
    code, headers, _page = new_table(server)
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
