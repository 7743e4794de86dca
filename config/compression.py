"""Compressed websocket frames (permessage-deflate, RFC 7692) for phones on slow connections.

Every change sends each phone its table view, and one view differs from the one before it in
a few places. A page keeps the view's parts between frames (``tables.live.kept``), so a frame
holds only the parts that changed: about 5.5 KB of HTML instead of the whole view's 11.8 KB.
Browsers offer permessage-deflate on every websocket; Daphne does not accept it. With it, each
connection keeps one compressor, so a frame is written as references to the frames before:
about 600 bytes on the wire (measured with ``benchmarks/kept_parts.py``: played tables, every
version, every connection), for well under a tenth of a millisecond of server time per frame.

``install()`` (called from ``config.asgi`` when it runs under Daphne) makes Daphne's websocket
factory accept the offer. Settings, per connection:

- server-to-client window: 8 KB (a frame of kept parts and most of the one before it), or less
  when the phone asks for less; context is kept between frames unless the phone asks
  otherwise. A socket that does not keep parts (an old page) gets whole frames through the
  same window: correct, about 2.2 KB each;
- compressor memory level 4: about 40 KB per connection instead of zlib's default 256 KB
  (72 KB with the 16 KB window whole frames needed);
- phone-to-server window: 1 KB when the phone allows the server to choose (browsers do);
- a compressed message from a phone may not grow past ``INFLATED_MAX`` bytes when inflated (a
  tiny message inflating to megabytes is refused before it is built).

Off with ``WEBSOCKET_COMPRESSION=false``. A phone that does not offer it gets plain frames.

Secrets and compression: a frame holds the phone's own hole cards and its action id next to
text another player chose (a name). Guessing a secret from compressed sizes needs an attacker
who sees the encrypted traffic's sizes *and* can make the victim's frames hold many chosen
guesses; names are fixed when a player sits down and cards change every hand, so no such
attack has the rounds it needs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from autobahn.websocket.compress import (
    PerMessageDeflateOffer,
    PerMessageDeflateOfferAccept,
)

WINDOW_BITS = 13  # 8 KB of history per connection (zlib allows 9..15)
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


def install(inflated_max: int = INFLATED_MAX) -> None:
    """Make Daphne's websocket factory accept permessage-deflate offers (idempotent)."""
    from daphne import server as daphne_server
    from daphne.ws_protocol import WebSocketFactory

    current = daphne_server.WebSocketFactory
    if getattr(current, "accepts_deflate", False):
        return

    def accept(offers: Sequence[Any]) -> PerMessageDeflateOfferAccept | None:
        return accept_deflate(offers, inflated_max)

    class CompressingWebSocketFactory(WebSocketFactory):  # type: ignore[misc]  # untyped
        accepts_deflate = True

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            # Daphne sets its own options on the factory after this; they leave this one be.
            self.setProtocolOptions(perMessageCompressionAccept=accept)

    daphne_server.WebSocketFactory = CompressingWebSocketFactory
