"""Rendered components kept in the process and shared by every frame that draws the same thing.

A table sends each connection its own frame after every change, but most of a frame is the same
for everyone at the table (the opponents' seats, the board, the pots, the cards' markup), and
the same from one version to the next. ``{% component "components/card.html" card=c %}`` (see
``tables_tags``) renders a component with only the parameters it is given, like
``{% include ... only %}``, and remembers the HTML.

The cache key is the template, the active language and every parameter's value, so a cached
fragment is only ever returned to a frame that passed exactly the same values: it can never
show a frame anything (another seat's cards, say) that the frame did not already hold.

A component that is new at almost every change (the action bar: the version, the amounts) can
pass such values as ``fill``: the template is drawn with a marker (``slot(name)``) where each is
printed, that HTML is kept, and every frame gets its own values written into its copy, escaped
and localised exactly as the template would print them. A filled value must only be printed by
the template, never tested, filtered or looped over; tests and loops use ``params``.
"""

from __future__ import annotations

import functools
import marshal
import re
import secrets
import threading
from collections import OrderedDict
from html import escape as html_escape
from typing import Any

from django.conf import settings
from django.dispatch import receiver
from django.template.loader import get_template
from django.utils.autoreload import file_changed
from django.utils.formats import localize
from django.utils.functional import Promise
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString
from django.utils.translation import get_language

# Fragments of a hundred bytes to a few kilobytes (a seat's about 900 with a 300-byte key),
# the oldest dropped first once they hold KEPT_BYTES (their text and keys) or number KEPT:
# a frame is drawn mostly from the drawings of its table's last versions. 50 tables playing
# added about 800 in a minute (benchmarks/socket_memory.py --play 60): the count alone
# would let them grow to 8,192, some 12 MB of a process, most never asked for again.
KEPT = 8192
KEPT_BYTES = 4 * 1024 * 1024
_OVERHEAD = 200  # an entry's objects: its key's tuple and bytes, the text's header, the dict's

_cache: OrderedDict[tuple[str, str, bytes], str | tuple[str, ...]] = OrderedDict()  # HTML, safe
_bytes = 0  # what ``_size`` says the kept entries hold
_lock = threading.Lock()


class _Unkeyable(Exception):
    pass


def _freeze(value: Any) -> Any:
    """A hashable key that tells apart every value that could render differently: the type is
    part of it wherever equal values render differently (True and 1 and 1.0, or a safe and a
    plain string). Runs for every component of every frame, hence the plain type tests.

    Types are named by strings, so the result holds only strings, numbers, None and tuples,
    which ``marshal`` turns into the bytes the cache is keyed by (see ``render_component``)."""
    kind = type(value)
    if kind is str or kind is int or value is None:
        return value
    if kind is dict:
        return ("{}", tuple([(k, _freeze(v)) for k, v in value.items()]))
    if kind is list or kind is tuple:
        return ("[]", tuple([_freeze(v) for v in value]))
    if kind is bool:
        return ("bool", value)
    if kind is float:
        return ("float", value)
    if isinstance(value, str):  # SafeString: not escaped, unlike an equal plain string
        return (f"str:{kind.__module__}.{kind.__qualname__}", _plain(value))
    if isinstance(value, Promise):  # a lazy translation: the language is in the key
        return ("lazy", _plain(value))
    raise _Unkeyable(kind)


def _plain(value: Any) -> str:
    """The text of a string-like value as an exact ``str`` (what marshal accepts)."""
    text = str(value)
    return text if type(text) is str else str.__str__(text)


# Markers are private-use characters around a per-process secret: no text a player types can
# contain one by accident or on purpose.
_SLOT_OPEN = f"\ue000{secrets.token_hex(6)}:"
_SLOT_CLOSE = "\ue001"


@functools.cache
def slot(name: str) -> str:
    """The marker passed in ``params`` where the template prints ``fill[name]``."""
    return f"{_SLOT_OPEN}{name}{_SLOT_CLOSE}"


def render_component(
    name: str, params: dict[str, Any], fill: dict[str, Any] | None = None,
    language: str | None = None,
) -> SafeString:
    """``name`` rendered with ``params`` alone, from the cache when it was drawn before, with
    the values of ``fill`` written where ``params`` holds their ``slot``. ``language``: the
    active language, when the caller knows it already."""
    kept = _kept(name, params, language or get_language())
    if type(kept) is str:  # no slot in it
        return SafeString(kept)  # mark_safe for a plain str, minus its lazy-text wrapper
    if not fill:
        return SafeString(_joined(kept))
    out = list(kept)
    thousands = settings.USE_THOUSAND_SEPARATOR
    for at in range(1, len(out), 2):
        try:
            value = fill[out[at]]
        except KeyError:
            raise ValueError(f"{name}: the slot {out[at]!r} was left without a value") from None
        out[at] = printed(value, thousands)
    return SafeString("".join(out))


def printed(value: Any, thousands: bool | None = None) -> str:
    """``value`` as a template prints it (``{{ value }}``: localized, escaped unless safe),
    without Django's lazy-text checks for the plain strings and whole numbers of every frame.
    ``thousands``: ``settings.USE_THOUSAND_SEPARATOR``, when the caller read it already."""
    kind = type(value)
    if kind is str:
        return html_escape(value)  # localize leaves it as it is; conditional_escape escapes
    if kind is SafeString:
        return str.__str__(value)
    if kind is int:
        if thousands is None:
            thousands = settings.USE_THOUSAND_SEPARATOR
        if not thousands:
            return str(value)  # what localize gives a whole number then
    return str(conditional_escape(localize(value)))


# marshal's format 2: equal values give equal bytes. From format 3 on, a string or a tuple
# that appears twice as the same object, or an interned string, is written differently from
# an equal one that does not: equal parameters could then miss the cache and be drawn again.
_MARSHAL = 2


def _kept(name: str, params: dict[str, Any], language: str) -> str | tuple[str, ...]:
    """The component's HTML (safe, as a plain ``str``), or, when it holds slots, cut at them
    (text, slot name, text, ..., text): the kept one, else drawn and kept."""
    # Bytes, not nested tuples: the garbage collector does not track bytes, and thousands of
    # cached keys would otherwise lengthen every full collection (a pause every phone at the
    # server waits through). marshal writes each type apart (True, 1 and 1.0 differ) and
    # takes only exact built-in types: usually the parameters are nothing else and go as they
    # are; a safe or lazy string (a subclass) makes it refuse, and ``_freeze`` names those.
    try:
        frozen = b"=" + marshal.dumps(params, _MARSHAL)
    except ValueError:
        try:
            frozen = b"~" + marshal.dumps(_freeze(params), _MARSHAL)
        except _Unkeyable:
            return _cut(str.__str__(get_template(name).render(params)))
    key = (name, language, frozen)
    with _lock:
        kept = _cache.get(key)
        if kept is not None:
            _cache.move_to_end(key)
            return kept
    made = _cut(str.__str__(get_template(name).render(params)))  # plain strings: not tracked
    size = _size(key, made)
    global _bytes
    with _lock:
        old = _cache.get(key)
        if old is not None:  # drawn meanwhile by another thread
            _bytes -= _size(key, old)
        _cache[key] = made
        _bytes += size
        while len(_cache) > KEPT or (_bytes > KEPT_BYTES and len(_cache) > 1):
            gone, drawing = _cache.popitem(last=False)
            _bytes -= _size(gone, drawing)
    return made


_SLOT_PATTERN = re.compile(f"{re.escape(_SLOT_OPEN)}([^{_SLOT_CLOSE}]*){_SLOT_CLOSE}")


def _cut(html: str) -> str | tuple[str, ...]:
    """A drawing as kept: as it is, or cut at its slots once (kept so, not twice)."""
    if _SLOT_OPEN not in html:
        return html
    return tuple(_SLOT_PATTERN.split(html))


def _joined(pieces: str | tuple[str, ...]) -> str:
    """A kept drawing as drawn, its markers where the slots are (no values given)."""
    if type(pieces) is str:
        return pieces
    return "".join(slot(part) if at % 2 else part for at, part in enumerate(pieces))


def _size(key: tuple[str, str, bytes], kept: str | tuple[str, ...]) -> int:
    """About what an entry holds: its text (UTF-8 bytes taken as characters: most is ASCII)
    and its key's parameters, plus the objects' headers."""
    text = len(kept) if type(kept) is str else sum(map(len, kept))
    return text + len(key[2]) + _OVERHEAD


def clear() -> None:
    global _bytes
    with _lock:
        _cache.clear()
        _bytes = 0


@receiver(file_changed)
def _template_edited(sender: Any, file_path: Any, **kwargs: Any) -> None:
    """The development server reloads edited templates without restarting: forget their HTML."""
    if str(file_path).endswith(".html"):
        clear()
