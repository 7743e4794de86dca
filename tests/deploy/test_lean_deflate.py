"""config.compression.LeanDeflate: permessage-deflate with no zlib state kept between messages,
read and written exactly as a phone's inflater and compressor (kept from message to message)
expect."""

from __future__ import annotations

import json
import random
import zlib

import pytest
from autobahn.exception import PayloadExceededError
from autobahn.websocket.compress import (
    PerMessageDeflate,
    PerMessageDeflateOffer,
    PerMessageDeflateOfferAccept,
)

from config import compression
from config.compression import LeanDeflate, lean

TAIL = b"\x00\x00\xff\xff"


def server_side(
    window: int = 13, client_window: int = 10, no_context: bool = False,
    max_message_size: int | None = None,
) -> LeanDeflate:
    pmce = PerMessageDeflate(  # type: ignore[no-untyped-call]
        True, no_context, False, window, client_window, compression.MEM_LEVEL, max_message_size,
    )
    lean(pmce)
    assert isinstance(pmce, LeanDeflate)
    return pmce


def frames(count: int, seed: int = 3) -> list[bytes]:
    """Messages like a table's: much repeated from one to the next, some new, a few larger
    than the window."""
    rng = random.Random(seed)
    names = ["Asha", "Bikash", "Chandra", "Dipa", "Esha", "Firoz"]
    out = []
    for n in range(count):
        seats = "".join(
            f'<li class="seat" id="seat-{i}"><b>{name}</b> <i>{rng.randrange(2000)}</i></li>'
            for i, name in enumerate(names)
        )
        pad = "".join(rng.choice("abcdefgh ") for _ in range(rng.choice([10, 200, 9000])))
        out.append(f'<section data-version="{n}">{seats}<p>{pad}</p></section>'.encode())
    return out


def send(pmce: LeanDeflate, data: bytes) -> bytes:
    pmce.start_compress_message()
    out = pmce.compress_message_data(data) + pmce.end_compress_message()
    return out


def test_every_message_inflates_through_the_phones_kept_inflater() -> None:
    pmce = server_side()
    phone = zlib.decompressobj(-15)  # a browser's inflater: the largest window, kept
    sent = frames(60)
    sizes = []
    for data in sent:
        wire = send(pmce, data)
        assert phone.decompress(wire + TAIL) == data
        sizes.append(len(wire))
        # Nothing of zlib's is kept: only the last window of text sent.
        assert pmce._compressor is None
        assert len(pmce._sent) <= 1 << 13
    # It refers to the messages before, as a kept compressor does: the same bytes, give or
    # take a few per message.
    kept = zlib.compressobj(
        zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -13, compression.MEM_LEVEL
    )
    kept_sizes = [
        len(kept.compress(data) + kept.flush(zlib.Z_SYNC_FLUSH)) - 4 for data in sent
    ]
    assert sum(sizes) <= sum(kept_sizes) * 1.05
    # A message much like the one before (neither with long new text) is a few references to
    # it.
    similar = [
        (sizes[n], len(sent[n])) for n in range(1, len(sent))
        if len(sent[n]) < 2000 and len(sent[n - 1]) < 2000
    ]
    assert similar and all(size * 2 < length for size, length in similar), similar


def test_the_phones_messages_are_read_with_the_history_its_compressor_kept() -> None:
    pmce = server_side(client_window=10)
    phone = zlib.compressobj(6, zlib.DEFLATED, -10)  # kept from message to message
    for n in range(40):
        text = json.dumps({"type": "action", "kind": "check", "version": n,
                           "action_id": f"{n:016x}"}).encode()
        wire = phone.compress(text) + phone.flush(zlib.Z_SYNC_FLUSH)
        pmce.start_decompress_message()
        got = pmce.decompress_message_data(wire[:-4])
        pmce.end_decompress_message()
        assert got == text
        assert pmce._decompressor is None and len(pmce._heard) <= 1 << 10
    # The later messages were sent as references to the earlier ones: short on the wire.
    assert len(wire) < len(text) // 2


def test_no_context_takeover_keeps_no_text() -> None:
    pmce = server_side(window=10, no_context=True)
    for data in frames(5):
        wire = send(pmce, data)
        assert zlib.decompressobj(-10).decompress(wire + TAIL) == data  # alone
        assert pmce._sent == b""


def test_a_message_inflating_past_the_limit_is_still_refused() -> None:
    pmce = server_side(max_message_size=1000)
    bomb = zlib.compressobj(6, zlib.DEFLATED, -10)
    wire = bomb.compress(b" " * 100_000) + bomb.flush(zlib.Z_SYNC_FLUSH)
    pmce.start_decompress_message()
    with pytest.raises(PayloadExceededError):
        pmce.decompress_message_data(wire[:-4])


def test_only_autobahns_own_deflate_is_made_lean() -> None:
    class Other(PerMessageDeflate):
        pass

    other = Other(True, False, False, 13, 10, 4, None)  # type: ignore[no-untyped-call]
    lean(other)
    assert type(other) is Other
    lean(None)  # a socket without compression


def test_the_accept_still_describes_what_is_agreed() -> None:
    accepted = compression.accept_deflate(
        [PerMessageDeflateOffer(accept_max_window_bits=True)],  # type: ignore[no-untyped-call]
        65536,
    )
    assert isinstance(accepted, PerMessageDeflateOfferAccept)
    pmce = PerMessageDeflate.create_from_offer_accept(True, accepted)  # type: ignore[no-untyped-call]
    lean(pmce)
    assert isinstance(pmce, LeanDeflate)
    assert pmce.server_max_window_bits == compression.WINDOW_BITS
    assert pmce.client_max_window_bits == compression.CLIENT_WINDOW_BITS
