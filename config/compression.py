"""Compressed websocket frames (permessage-deflate, RFC 7692) for phones on slow connections.

Every change sends each phone its table view, and one view differs from the one before it in
a few places. A page keeps the view's parts between frames (``tables.live.kept``), so a frame
holds only the parts that changed: about 5.5 KB of HTML instead of the whole view's 11.8 KB.
Browsers offer permessage-deflate on every websocket; Daphne does not accept it. With it, a
frame is written as references to the frames before: about 440 bytes on the wire (measured
with ``benchmarks/kept_parts.py``: played tables, every version, every connection), for well
under a tenth of a millisecond of server time per frame.

``install()`` (called from ``config.asgi`` when it runs under Daphne) makes Daphne's websocket
factory accept the offer. Settings, per connection:

- server-to-client window: 16 KB, of which the last 8 KB sent is referred to (below), or less
  when the phone asks for less; context is kept between frames unless the phone asks
  otherwise. A page that does not keep parts (one loaded before a deploy) gets whole frames
  through the same window: correct, about 1.2 KB each;
- compressor memory level 4: 72 KB of zlib state instead of zlib's default 256 KB, and only
  while a message is being compressed (``LeanDeflate``, below);
- phone-to-server window: 1 KB when the phone allows the server to choose (browsers do);
- a compressed message from a phone may not grow past ``INFLATED_MAX`` bytes when inflated (a
  tiny message inflating to megabytes is refused before it is built).

**No zlib state between messages** (``LeanDeflate``). With context takeover a phone's inflater
holds, between two messages, nothing but the last window of text it was sent; a deflate stream
continues after a flush as a new block, whose back references reach into that window. So the
server need not keep a compressor (72 KB of zlib state for a 16 KB window, most of a socket's
memory) from one message to the next: it keeps the last 8 KB of text it sent
(``KEPT_TEXT``), and compresses each message with a compressor made for it and primed with that
text as its dictionary (``deflateSetDictionary``), which refers to it as a kept compressor
would. The same for the phone's messages, with the phone's 1 KB window. Measured with
``benchmarks/kept_parts.py`` (kept parts; bytes on the wire and ms a message): 440 bytes and
0.059 ms, against 356 and 0.047 with the compressor kept (72 KB) and 607 and 0.060 with the
8 KB window's compressor kept before (40 KB); priming with 16 KB instead of 8 gives 356 bytes
but costs twice the priming (about 15 microseconds a message on this machine).

Off with ``WEBSOCKET_COMPRESSION=false``. A phone that does not offer it gets plain frames.

Secrets and compression: a frame holds the phone's own hole cards and its action id next to
text another player chose (a name). Guessing a secret from compressed sizes needs an attacker
who sees the encrypted traffic's sizes *and* can make the victim's frames hold many chosen
guesses; names are fixed when a player sits down and cards change every hand, so no such
attack has the rounds it needs.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import Any

from autobahn.websocket.compress import (
    PerMessageDeflate,
    PerMessageDeflateOffer,
    PerMessageDeflateOfferAccept,
)

WINDOW_BITS = 14  # 16 KB of history per connection (zlib allows 9..15)
# Of that history the server keeps the last 8 KB of text sent (``LeanDeflate``): priming a
# compressor with it costs half of 16 KB's, and a frame refers mostly to the one before it.
KEPT_TEXT = 8192
MEM_LEVEL = 4  # zlib's internal state: (1 << (MEM_LEVEL + 9)) bytes
# Phones' own messages are a hundred bytes of JSON: asked to compress them with a 1 KB window
# (when they allow it; browsers do), the server's inflater holds 1 KB instead of 32 KB.
CLIENT_WINDOW_BITS = 10
# A phone's compressed message is refused (closing the socket) past this size inflated; below
# it, the tables app's own limit (TABLES_MAX_MESSAGE) answers with a readable error.
INFLATED_MAX = 65536


def accept_deflate(
    offers: Sequence[Any], inflated_max: int
) -> PerMessageDeflateOfferAccept | None:
    """Accept the phone's first permessage-deflate offer, honouring what it asks of the
    server (no context takeover, a smaller window); None when it offered nothing usable."""
    for offer in offers:
        if not isinstance(offer, PerMessageDeflateOffer):
            continue
        window = WINDOW_BITS
        if offer.request_max_window_bits:
            window = min(window, offer.request_max_window_bits)
        return PerMessageDeflateOfferAccept(  # type: ignore[no-untyped-call]
            offer,
            no_context_takeover=True if offer.request_no_context_takeover else None,
            window_bits=window,
            mem_level=MEM_LEVEL,
            request_max_window_bits=CLIENT_WINDOW_BITS if offer.accept_max_window_bits else 0,
            max_message_size=inflated_max,
        )
    return None


class LeanDeflate(PerMessageDeflate):
    """autobahn's permessage-deflate, holding no zlib state between messages: the text the
    other side's window holds instead (see the module's docstring). The message's own
    compressor (or decompressor) is made for it, primed with that text, and let go after it.
    Without context takeover there is no text to keep: the same as autobahn's."""

    _sent = b""  # the last window of text sent: what the phone's inflater holds
    _heard = b""  # the last window of text the phone sent: what its compressor holds
    _out: list[bytes] | None = None  # the message being compressed, as given
    _in: list[bytes] | None = None  # the message being decompressed, as inflated

    def start_compress_message(self) -> None:
        window = self.server_max_window_bits
        if self._sent and not self.server_no_context_takeover:
            self._compressor = zlib.compressobj(
                zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -window, self.mem_level,
                zlib.Z_DEFAULT_STRATEGY, self._sent,
            )
        else:
            self._compressor = zlib.compressobj(
                zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -window, self.mem_level
            )
        self._out = []

    def compress_message_data(self, data: bytes) -> bytes:
        assert self._out is not None and self._compressor is not None, "data before a start"
        self._out.append(data)
        return self._compressor.compress(data)  # type: ignore[no-any-return]

    def end_compress_message(self) -> bytes:
        assert self._compressor is not None, "an end before a start"
        data: bytes = self._compressor.flush(zlib.Z_SYNC_FLUSH)
        self._compressor = None
        if not self.server_no_context_takeover and self._out is not None:
            self._sent = _tail(
                self._sent, self._out, min(KEPT_TEXT, 1 << self.server_max_window_bits)
            )
        self._out = None
        return data[:-4]  # permessage-deflate leaves out the flush's empty block's length

    def start_decompress_message(self) -> None:
        window = self.client_max_window_bits
        if self._heard and not self.client_no_context_takeover:
            self._decompressor = zlib.decompressobj(-window, self._heard)
        else:
            self._decompressor = zlib.decompressobj(-window)
        self._decompress_message_size = 0
        self._in = []

    def decompress_message_data(self, data: bytes, max_output_len: int | None = None) -> bytes:
        inflated: bytes = super().decompress_message_data(  # type: ignore[no-untyped-call]
            data, max_output_len
        )
        if self._in is not None:
            self._in.append(inflated)
        return inflated

    def end_decompress_message(self) -> None:
        super().end_decompress_message()  # type: ignore[no-untyped-call]
        self._decompressor = None
        if not self.client_no_context_takeover and self._in is not None:
            self._heard = _tail(self._heard, self._in, 1 << self.client_max_window_bits)
        self._in = None


def _tail(before: bytes, added: list[bytes], size: int) -> bytes:
    """The last ``size`` bytes of ``before`` followed by ``added``."""
    if sum(len(chunk) for chunk in added) >= size:
        return b"".join(added)[-size:]
    return b"".join([before, *added])[-size:]


def lean(pmce: Any) -> None:
    """autobahn's permessage-deflate state of a connection made a ``LeanDeflate`` (the same
    state, and methods that keep no zlib object between messages); anything else untouched."""
    if type(pmce) is PerMessageDeflate:
        pmce.__class__ = LeanDeflate


def install(inflated_max: int = INFLATED_MAX) -> None:
    """Make Daphne's websocket factory accept permessage-deflate offers (idempotent)."""
    from daphne import server as daphne_server
    from daphne.ws_protocol import WebSocketFactory

    current = daphne_server.WebSocketFactory
    if getattr(current, "accepts_deflate", False):
        return

    def accept(offers: Sequence[Any]) -> PerMessageDeflateOfferAccept | None:
        return accept_deflate(offers, inflated_max)

    class LeanProtocol(WebSocketFactory.protocol):  # type: ignore[misc]  # untyped
        def onOpen(self) -> None:
            # The handshake agreed permessage-deflate (or not): its state is made lean before
            # the first message.
            lean(self._perMessageCompress)
            super().onOpen()

    class CompressingWebSocketFactory(WebSocketFactory):  # type: ignore[misc]  # untyped
        accepts_deflate = True
        protocol = LeanProtocol

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            # Daphne sets its own options on the factory after this; they leave this one be.
            self.setProtocolOptions(perMessageCompressionAccept=accept)

    daphne_server.WebSocketFactory = CompressingWebSocketFactory
