"""Pages sent without their templates' indentation.

The templates are indented for the people who edit them; a phone gains nothing from the spaces
that begin each line. Dropped before the page is gzipped, they are about 200 of a table page's
5,000 bytes on the wire (``tests/browser/test_page_weight.py``). Only the spaces and tabs that
follow a line break go: a line break stays, so the page reads the same (in HTML's normal flow a
run of white space is one space, with or without the indentation). A page holding ``<pre>`` or
``<textarea>``, where white space is text, is sent as it was written.

The table's live frames never pass through a middleware (a frame is sent on the websocket,
drawn again for every phone at every change), so ``Loader`` takes the same white space out of
the templates themselves, once, when a template is compiled: every run of white space that
holds a line break becomes one line break, in the template's own text (never in what a
variable prints, nor in a translated message's words). Rendering then costs nothing more, and
the frames are smaller (a window of permessage-deflate must hold a frame and the one before:
config/compression.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.template.base import Origin, Template, TextNode
from django.template.loaders import base, cached

_INDENT = re.compile(rb"\n[ \t]+")
_VERBATIM = re.compile(rb"<(?:pre|textarea)\b", re.IGNORECASE)
_LINE_BREAKS = re.compile(r"[ \t\r\f\v]*\n\s*")
_TEXT_VERBATIM = re.compile(r"<(?:pre|textarea|script|style)\b", re.IGNORECASE)


def compact(html: bytes) -> bytes:
    """``html`` without the spaces and tabs that begin its lines (unless it has verbatim text)."""
    if _VERBATIM.search(html):
        return html
    return _INDENT.sub(b"\n", html)


class CompactHTMLMiddleware:
    """Strip the indentation of HTML responses (before GZipMiddleware compresses them)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            not response.streaming
            and not response.has_header("Content-Encoding")
            and response.get("Content-Type", "").startswith("text/html")
        ):
            response.content = compact(response.content)
            if response.has_header("Content-Length"):
                response["Content-Length"] = str(len(response.content))
        return response


def unindent_template(template: Template) -> None:
    """Each run of white space with a line break in ``template``'s own text made one line
    break; a template holding verbatim text (``<pre>``, ``<textarea>``, a script or a style:
    white space that is not HTML's) is left as it was written."""
    nodes = [n for n in template.nodelist.get_nodes_by_type(TextNode) if isinstance(n, TextNode)]
    if any(_TEXT_VERBATIM.search(node.s) for node in nodes):
        return
    for node in nodes:
        node.s = _LINE_BREAKS.sub("\n", node.s)


class _Unindenting(base.Loader):
    """Compiles a template (Django's own loader) and unindents it, if it is HTML."""

    def get_template(self, template_name: str, skip: list[Origin] | None = None) -> Template:
        template: Template = super().get_template(template_name, skip)
        if template_name.endswith(".html"):
            unindent_template(template)
        return template


class Loader(cached.Loader, _Unindenting):
    """Django's cached loader whose HTML templates are unindented once, when compiled
    (``unindent_template``); other templates (plain-text mail...) are kept as written. A
    template found in the cache costs what it did: only compiling goes through
    ``_Unindenting``."""
