"""Parts a phone keeps between frames: each part of a frame is sent again only when it changed.

Every change sends each phone its whole table view (about 11 KB of HTML), and most of it is as
it was: the bar above the table, the seats of those who did not act, your own place. A page
whose socket asks for it (``?parts=1`` on the socket's address: static/js/live.js does) is sent
the frame's named parts (``tables.live.screens.play_frame_parts``) as

- ``<x-p n="NAME">TEXT</x-p>``: a part the page does not hold, or holds with another text;
  the page keeps TEXT under NAME and puts it in place of the markers;
- ``<x-k n="NAME"></x-k>``: the part the page holds under NAME, unchanged;

and the page rebuilds the whole frame before drawing it, so every script sees the frame as
before. What each socket holds is known by a hash per name here; a new socket holds nothing, so
its first frame is whole. Neither marker can occur in a frame's text: the templates have no
``<x-`` tag, and what a person wrote is escaped (no ``<`` in it).

Fewer bytes per frame mean less to compress, and a compressor with a smaller window
(``config.compression``) serves a socket that keeps parts: what changes from one frame to the
next is what its window must hold, not the whole frame.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs

# A frame in its parts (tables.live.screens.play_frame_parts): (name, text), the name "" for
# what is new in every frame.
Parts = list[tuple[str, str]]

_LOG_LIST = '<ol class="log" id="log" data-testid="log">'
_LAST_LINE = '<p class="log-line'


def log_pieces(text: str) -> Parts:
    """The log drawer in three parts: its lines (new at every change) apart from what is
    around them (the same all hand: the deck's sentence, the links, the sound switch)."""
    start = text.find(_LOG_LIST)
    end = text.find("</ol>", start)
    if start < 0 or end < 0:
        return [("log", text)]
    start += len(_LOG_LIST)
    return [("log", text[:start]), ("log-lines", text[start:end]), ("log-end", text[end:])]


def center_pieces(text: str) -> Parts:
    """The middle of the table in parts: the last line of the log (new at every change) apart
    from the board and the pots (new when cards come or chips are gathered)."""
    start = text.find(_LAST_LINE)
    end = text.find("</p>", start)
    if start < 0 or end < 0:
        return [("center", text)]
    end += len("</p>")
    return [("center", text[:start]), ("last-line", text[start:end]), ("center-end", text[end:])]


PARAM = "parts"  # the socket's query parameter asking for kept parts


def wants_parts(query_string: bytes | None) -> bool:
    """The socket's address asks for kept parts."""
    query = parse_qs(bytes(query_string or b"").decode("latin1"))
    return (query.get(PARAM) or [""])[0] == "1"


_MARKERS: dict[str, tuple[str, str]] = {}  # a name's opening marker and its "same" marker


def _markers(name: str) -> tuple[str, str]:
    pair = _MARKERS[name] = (f'<x-p n="{name}">', f'<x-k n="{name}"></x-k>')
    return pair


class KeptParts:
    """What one socket's page holds: a hash of the text of each part it was sent last."""

    __slots__ = ("held",)

    def __init__(self) -> None:
        self.held: dict[str, int] = {}

    def encode(self, parts: Parts) -> str:
        """The frame's text for this page: a part it holds already by its marker alone."""
        held = self.held
        out: list[str] = []
        for name, text in parts:
            if not name:
                out.append(text)
                continue
            opening, same = _MARKERS.get(name) or _markers(name)
            digest = hash(text)
            if held.get(name) == digest:
                out.append(same)
            else:
                held[name] = digest
                out += [opening, text, "</x-p>"]
        return "".join(out)


_PART = re.compile(r'<x-p n="([\w-]+)">([\s\S]*?)</x-p>|<x-k n="([\w-]+)"></x-k>')


def whole(text: str, kept: dict[str, str]) -> str | None:
    """A frame sent as kept parts made whole, as static/js/live.js's ``whole`` makes it (for
    clients in Python: the tests' phones, the benchmarks'): each part sent is kept in ``kept``
    under its name, each marker replaced by the part kept; None when a marker names a part
    not kept."""
    missing = False

    def put(match: re.Match[str]) -> str:
        nonlocal missing
        name, body, same = match.groups()
        if name:
            kept[name] = body
            return body
        if same not in kept:
            missing = True
            return ""
        return kept[same]

    out = _PART.sub(put, text)
    return None if missing else out
